#pragma once
// The seed's harmonic oscillator, explicit Euler:
//   x' = v,  v' = -omega^2 x,  t' = 1;   terminated when t >= t_end.
// One step: x <- x + dt v,  v <- v - dt omega^2 x (both from the old values),  t <- t + dt.

#include <Kokkos_Core.hpp>

namespace eagle::kernels {

/// One explicit Euler step of the oscillator, on scalars or lane packs.
template <class S, class W>
KOKKOS_INLINE_FUNCTION void oscillator_euler(S& s, const W& omega, double dt) {
  const auto x0 = s[0];
  const auto v0 = s[1];
  s[0] = x0 + dt * v0;
  s[1] = v0 - dt * omega * omega * x0;
  s[2] += dt;
}

/// The harmonic oscillator, explicit Euler, omega per sample; terminated once t >= t_end.
struct Oscillator {
  static constexpr const char* name = "oscillator";  ///< kernel labels, reports, checkpoints
  using scalar_type = double;                        ///< every state and input plane holds double
  /// State fields.
  enum State : int {
    x,           ///< position
    v,           ///< velocity
    t,           ///< time
    state_count  ///< state fields per sample
  };
  /// Input fields.
  enum Input : int {
    omega,       ///< angular frequency
    input_count  ///< input fields per sample
  };

  static constexpr bool lane_packs = true;  ///< branch-free: the host tile runs it on SIMD packs

  double t_end = 1.0;  ///< each sample terminates once its time reaches t_end
  double dt = 1e-3;    ///< time step

  /// One Euler step of dt; terminated once t >= t_end.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& in) const {
    oscillator_euler(s, in[omega], dt);
    return s[t] >= t_end;
  }
};

/// The same oscillator, each sample with its own end time (an input), so batches can hold samples
/// of very different lengths (spread batches: t_end = (length - 1/2) dt, safe from rounding).
struct OscillatorUntil {
  static constexpr const char* name = "oscillator_until";  ///< kernel labels, reports, checkpoints
  using scalar_type = double;                              ///< every state and input plane holds double
  /// State fields.
  enum State : int {
    x,           ///< position
    v,           ///< velocity
    t,           ///< time
    state_count  ///< state fields per sample
  };
  /// Input fields.
  enum Input : int {
    omega,       ///< angular frequency
    t_end,       ///< the sample's end time: terminated once t >= t_end
    input_count  ///< input fields per sample
  };

  static constexpr bool lane_packs = true;  ///< branch-free: the host tile runs it on SIMD packs

  double dt = 1e-3;  ///< time step

  /// One Euler step of dt; terminated once t reaches the sample's t_end.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& in) const {
    oscillator_euler(s, in[omega], dt);
    return s[t] >= in[t_end];
  }
};

}  // namespace eagle::kernels
