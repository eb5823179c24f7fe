#pragma once
// Events: a stepper whose samples stop where a condition g(t, y, p) crosses zero, located inside
// the step that crossed it.
//
//   struct Ground {  // the height y[0] falling through 0
//     KOKKOS_INLINE_FUNCTION double operator()(double, const eagle::Values<double, 2>& y,
//                                              const eagle::Values<double, 1>&) const { return y[0]; }
//   };
//   auto landing = eagle::ode::stop_when(tsit5, Ground{}, eagle::ode::Crossing::falling);
//
// After every accepted step from (t0, y0) to (t1, y1), g is evaluated at t1; where its sign went
// the watched way, the crossing is located by the Illinois method (regula falsi that halves a
// stale end's value) to `tolerance` in t, on the step's dense output (adaptive steppers: no more
// evaluations of f) or on steps of the method from (t0, y0) (fixed steps). The sample then stops
// just past the crossing (g has crossed there), at a t within `tolerance` of the root of the
// method's solution, with status `event` (status::first_model_ending: counted as
// finished, not failed). A sample starting on g = 0 does not stop there. A sample that reaches
// t_end without crossing finishes as usual (status::finished). The step returns a status, so the
// host tile runs it one lane at a time. To save trajectories up to the event, save around it:
// save_at(stop_when(stepper, g), out, ...) (times after a sample's event keep what the View held).

#include <eagle/math.hpp>
#include <eagle/model.hpp>
#include <eagle/ode/steppers.hpp>
#include <eagle/status.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace eagle::ode {

/// Which crossings of zero an event watches.
enum class Crossing : int {
  falling = -1,  ///< g going from positive to zero or below
  either = 0,    ///< both ways
  rising = 1     ///< g going from negative to zero or above
};

/// A stepper whose samples stop where `Condition` crosses zero (see the top of this header).
template <class Stepper, class Condition>
struct StopWhen : Stepper {
  static_assert(std::is_same<typename Stepper::scalar_type, double>::value,
                "eagle::ode::stop_when: events run a stepper in double");
  static_assert(std::is_trivially_copyable<Condition>::value,
                "eagle::ode::stop_when: the condition is copied to the device; it must be trivially copyable");
  /// The status of a sample stopped at its event: a way of finishing, not a failure.
  static constexpr std::uint8_t event = status::first_model_ending;
  /// A status per lane: the host tile runs it one lane at a time, whatever the stepper allows.
  static constexpr bool lane_packs = false;

  Condition condition{};                  ///< g(t, y, p): double from t, y (N values), the P parameters
  Crossing direction = Crossing::either;  ///< which crossings stop a sample
  double tolerance = 1e-10;               ///< how close in t the crossing is located
  int max_iterations = 100;               ///< a bound on the iterations locating one crossing

  /// One step of the stepper; where g crossed the watched way during it, the sample moves back to
  /// the crossing and stops with status `event`.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION StepStatus step(S& s, const I& p) const {
    if constexpr (Stepper::adaptive) {
      typename Stepper::Dense dense;
      return attempt(s, p, this->t_end, dense);
    } else {
      Values<double, N> y0;
      for (int n = 0; n < N; ++n) y0[n] = s[n];
      const double t0 = s[Stepper::time], g0 = condition(t0, y0, p);
      const std::uint8_t code = eagle::detail::outcome(Stepper::step(s, p));
      // y inside the step: a step of the method from (t0, y0).
      return after(s, p, t0, g0, code, [&](double tau, Values<double, N>& y) { this->single_step(t0, tau, y0, p, y); });
    }
  }

  /// As the adaptive stepper's attempt toward t_stop, the step kept in `dense` (what Saving saves
  /// from); where g crossed, back to the crossing, located on the dense output.
  template <class S, class I, class Dense>
  KOKKOS_INLINE_FUNCTION StepStatus attempt(S& s, const I& p, double t_stop, Dense& dense) const {
    const std::uint8_t code = Stepper::attempt(s, p, t_stop, dense).code();
    const double g0 = condition(dense.t0, dense.y0, p);
    return after(s, p, dense.t0, g0, code, [&](double tau, Values<double, N>& y) { dense.at(dense.t0 + tau, y); });
  }

 private:
  static constexpr int N = Stepper::time;

  /// After the stepper's step from t0, where g was g0, ended with `code`: where g crossed, back to
  /// the crossing; inside(tau, y) gives y at t0 + tau.
  template <class S, class I, class Inside>
  KOKKOS_INLINE_FUNCTION StepStatus after(S& s, const I& p, double t0, double g0, std::uint8_t code,
                                          const Inside& inside) const {
    const bool advanced = s[Stepper::time] != t0;  // an adaptive step may be rejected
    if (code >= status::first_model_failure || !advanced) return eagle::detail::step_status(code);
    Values<double, N> y1;
    for (int n = 0; n < N; ++n) y1[n] = s[n];
    const double t1 = s[Stepper::time];
    const double g1 = condition(t1, y1, p);
    if (!crosses(g0, g1)) return eagle::detail::step_status(code);
    // Illinois on tau in (lo, hi], the step's length from t0: g has crossed at hi, not at lo.
    double lo = 0.0, hi = t1 - t0, g_lo = g0, g_hi = g1;
    int kept = 0;  // which end the last two updates kept: -1 lo moved, +1 hi moved
    for (int i = 0; i < max_iterations && hi - lo > tolerance; ++i) {
      double tau = (lo * g_hi - hi * g_lo) / (g_hi - g_lo);
      if (!(tau > lo && tau < hi)) tau = 0.5 * (lo + hi);  // no secant inside: bisect
      Values<double, N> y;
      inside(tau, y);
      const double g = condition(t0 + tau, y, p);
      if (crosses(g0, g)) {
        hi = tau, g_hi = g, y1 = y;
        if (kept == 1) g_lo *= 0.5;
        kept = 1;
      } else {
        lo = tau, g_lo = g;
        if (kept == -1) g_hi *= 0.5;
        kept = -1;
      }
    }
    for (int n = 0; n < N; ++n) s[n] = y1[n];
    s[Stepper::time] = t0 + hi;
    return StepStatus::done(event);
  }

  /// Whether g went from g0 to g across zero the watched way (from exactly zero: no).
  KOKKOS_INLINE_FUNCTION bool crosses(double g0, double g) const {
    const bool rising = g0 < 0.0 && g >= 0.0, falling = g0 > 0.0 && g <= 0.0;
    return direction == Crossing::rising ? rising : direction == Crossing::falling ? falling : rising || falling;
  }
};

/// `stepper` whose samples stop where `condition` crosses zero the `direction` way, located to
/// `tolerance` in t. Refuses a tolerance that is not positive and finite.
template <class Stepper, class Condition>
StopWhen<Stepper, Condition> stop_when(const Stepper& stepper, const Condition& condition,
                                       Crossing direction = Crossing::either, double tolerance = 1e-10) {
  if (!(tolerance > 0.0 && tolerance < std::numeric_limits<double>::infinity())) {
    throw std::invalid_argument("eagle::ode::stop_when: the tolerance must be positive and finite, not " +
                                std::to_string(tolerance));
  }
  StopWhen<Stepper, Condition> stopping;
  static_cast<Stepper&>(stopping) = stepper;
  stopping.condition = condition;
  stopping.direction = direction;
  stopping.tolerance = tolerance;
  return stopping;
}

}  // namespace eagle::ode
