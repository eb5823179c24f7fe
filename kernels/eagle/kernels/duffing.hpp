#pragma once
// The driven, damped Duffing oscillator with fixed-step RK4 and an event:
//   x'' + delta x' + alpha x + beta x^3 = gamma cos(omega t),   gamma per sample (input).
// A sample terminates at its first upward zero crossing of x after t_min: the Poincare section
// x = 0, x' > 0. The step that crosses it is redone from its start with a shorter step h',
// found by the secant method on x(t + h'), until |x| <= event_tolerance (1e-12) or 30
// iterations; the state is then the state at the crossing, t the crossing time.
// (MPGOS's benchmark family.)

#include <eagle/math.hpp>

#include <Kokkos_Core.hpp>

namespace eagle::kernels {

/// The driven, damped Duffing oscillator, RK4, ending at its first upward crossing of x = 0 after
/// t_min (see the top of this header).
struct Duffing {
  static constexpr const char* name = "duffing";  ///< kernel labels, reports, checkpoints
  using scalar_type = double;                     ///< every state and input plane holds double
  /// State fields.
  enum State : int {
    x,           ///< position
    v,           ///< velocity
    t,           ///< time
    state_count  ///< state fields per sample
  };
  /// Input fields.
  enum Input : int {
    gamma,       ///< drive amplitude
    input_count  ///< input fields per sample
  };

  double delta = 0.3;  ///< damping
  double alpha = 1.0;  ///< linear stiffness
  double beta = 1.0;   ///< cubic stiffness
  double omega = 1.2;  ///< drive angular frequency
  double dt = 1e-2;    ///< time step
  double t_min = 1.0;  ///< crossings before t_min do not count (the start may sit on the section)
  /// The crossing is located once |x| <= event_tolerance (or after 30 secant iterations).
  double event_tolerance = 1e-12;

  /// x'' at position xx, velocity vv, time tt under drive amplitude g.
  KOKKOS_INLINE_FUNCTION double accel(double xx, double vv, double tt, double g) const {
    return g * math::cos(omega * tt) - delta * vv - alpha * xx - beta * xx * xx * xx;
  }

  /// One RK4 step of size h from (x0, v0, t0).
  KOKKOS_INLINE_FUNCTION void rk4(double x0, double v0, double t0, double h, double g, double& x1, double& v1) const {
    const double k1x = v0, k1v = accel(x0, v0, t0, g);
    const double k2x = v0 + 0.5 * h * k1v, k2v = accel(x0 + 0.5 * h * k1x, k2x, t0 + 0.5 * h, g);
    const double k3x = v0 + 0.5 * h * k2v, k3v = accel(x0 + 0.5 * h * k2x, k3x, t0 + 0.5 * h, g);
    const double k4x = v0 + h * k3v, k4v = accel(x0 + h * k3x, k4x, t0 + h, g);
    x1 = x0 + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    v1 = v0 + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
  }

  /// One RK4 step of dt; a step that crosses x = 0 upward after t_min ends at the crossing, terminated.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in) const {
    const double x0 = s[x], v0 = s[v], t0 = s[t], g = in[gamma];
    double x1, v1;
    rk4(x0, v0, t0, dt, g, x1, v1);
    if (!(t0 + dt > t_min && x0 < 0.0 && x1 >= 0.0)) {
      s[x] = x1;
      s[v] = v1;
      s[t] = t0 + dt;
      return false;
    }
    // Secant on h' in (0, dt]: x(t0 + h') = 0.
    double ha = 0.0, xa = x0, hb = dt, xb = x1, vb = v1;
    for (int iteration = 0; iteration < 30 && math::fabs(xb) > event_tolerance; ++iteration) {
      const double hc = hb - xb * (hb - ha) / (xb - xa);
      double xc, vc;
      rk4(x0, v0, t0, hc, g, xc, vc);
      ha = hb;
      xa = xb;
      hb = hc;
      xb = xc;
      vb = vc;
    }
    s[x] = xb;
    s[v] = vb;
    s[t] = t0 + hb;
    return true;
  }
};

}  // namespace eagle::kernels
