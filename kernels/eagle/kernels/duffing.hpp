#pragma once
// The driven, damped Duffing oscillator, integrated by eagle::ode::Rk4 with an event:
//   x'' + delta x' + alpha x + beta x^3 = gamma cos(omega t),   gamma per sample (input).
// A sample stops at its first upward zero crossing of x in a step that starts after t_min: the
// Poincare section x = 0, x' > 0, located by eagle::ode::stop_when to `tolerance` in t; the state
// is then RK4's from the step's start to the crossing, with status `event`.
// (MPGOS's benchmark family.)

#include <eagle/math.hpp>
#include <eagle/ode/events.hpp>
#include <eagle/ode/steppers.hpp>

#include <Kokkos_Core.hpp>

#include <limits>

namespace eagle::kernels {

/// The Duffing oscillator as a first-order system y = (x, x'), p = (gamma).
struct DuffingSystem {
  static constexpr const char* name = "duffing";  ///< kernel labels, reports, checkpoints
  static constexpr int state_count = 2;           ///< x, x'
  static constexpr int parameter_count = 1;       ///< gamma, the drive amplitude

  double delta = 0.3;  ///< damping
  double alpha = 1.0;  ///< linear stiffness
  double beta = 1.0;   ///< cubic stiffness
  double omega = 1.2;  ///< drive angular frequency

  /// dy/dt at (t, x, x') under this sample's drive amplitude.
  KOKKOS_INLINE_FUNCTION void operator()(double t, const Values<double, 2>& y, const Values<double, 1>& p,
                                         Values<double, 2>& dy) const {
    dy[0] = y[1];
    dy[1] = p[0] * math::cos(omega * t) - delta * y[1] - alpha * y[0] - beta * y[0] * y[0] * y[0];
  }
};

/// The section x = 0 after t_min: x from t_min on, positive before (so no crossing counts there).
struct DuffingSection {
  double t_min = 1.0;  ///< crossings before t_min do not count (the start may sit on the section)

  /// g(t, y): x once t > t_min, else 1.
  KOKKOS_INLINE_FUNCTION double operator()(double t, const Values<double, 2>& y, const Values<double, 1>&) const {
    return t > t_min ? y[0] : 1.0;
  }
};

/// The driven, damped Duffing oscillator, RK4 with steps of dt = 0.01 and no end time, stopping at
/// its first upward crossing of x = 0 after t_min (see the top of this header). State fields x, x'
/// (0, 1) and t (`Duffing::time`); input gamma (0).
struct Duffing : ode::StopWhen<ode::Rk4<DuffingSystem>, DuffingSection> {
  Duffing() {
    dt = 1e-2;
    t_end = std::numeric_limits<double>::infinity();  // the event ends every sample (or max_steps)
    direction = ode::Crossing::rising;
    tolerance = 1e-12;
  }
};

}  // namespace eagle::kernels
