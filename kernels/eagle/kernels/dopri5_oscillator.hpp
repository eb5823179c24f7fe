#pragma once
// Per-sample adaptive time steps: eagle::ode's Dormand-Prince 5(4) stepper on x'' = -omega^2 x
// (omega per sample), whose solution from x = 1, v = 0 is x = cos(omega t), v = -omega sin(omega t).
// One kernel step is one attempted step (eagle/ode/steppers.hpp says how it accepts, rejects and
// fails), so samples take different numbers of steps. The caller sets each sample's initial h.

#include <eagle/model.hpp>
#include <eagle/ode/steppers.hpp>

#include <Kokkos_Core.hpp>

namespace eagle::kernels {

/// x' = v, v' = -omega^2 x.
struct HarmonicOscillator {
  static constexpr const char* name = "harmonic_oscillator";  ///< kernel labels, checkpoints
  static constexpr int state_count = 2;                       ///< y = (x, v)
  static constexpr int parameter_count = 1;                   ///< p = (omega), per sample
  /// dy = (v, -omega^2 x) at y = (x, v); no dependence on t.
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V& /*t*/, const Values<V, 2>& y, const Values<V, 1>& omega,
                                         Values<V, 2>& dy) const {
    dy[0] = y[1];
    dy[1] = -omega[0] * omega[0] * y[0];
  }
};

/// The harmonic oscillator under eagle::ode::Dopri5 to t_end = 10, rtol 1e-8, atol 1e-10, h_min 1e-12,
/// with its fields named.
struct Dopri5Oscillator : ode::Dopri5<HarmonicOscillator> {
  /// State fields.
  enum State : int {
    x,  ///< position
    v,  ///< velocity
    t,  ///< time
    h   ///< step size of the next attempt (the caller sets the first; <= 0: the stepper's guess)
  };
  /// Input fields.
  enum Input : int {
    omega  ///< angular frequency
  };
  Dopri5Oscillator() {
    t_end = 10.0;
    rtol = 1e-8;
    atol = 1e-10;
    h_min = 1e-12;
  }
};

}  // namespace eagle::kernels
