#pragma once
// The seed's harmonic oscillator, explicit Euler:
//   x' = v,  v' = -omega^2 x,  t' = 1;   terminated when t >= t_end.
// One step: x <- x + dt v,  v <- v - dt omega^2 x (both from the old values),  t <- t + dt.

#include <Kokkos_Core.hpp>

namespace eagle::kernels {

struct Oscillator {
  static constexpr const char* name = "oscillator";
  using scalar_type = double;
  enum State : int { x, v, t, state_count };
  enum Input : int { omega, input_count };

  static constexpr bool lane_packs = true;  ///< branch-free: the host tile runs it on SIMD packs

  double t_end = 1.0;  ///< each sample terminates once its time reaches t_end
  double dt = 1e-3;    ///< time step

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& in) const {
    const auto x0 = s[x];
    const auto v0 = s[v];
    s[x] = x0 + dt * v0;
    s[v] = v0 - dt * in[omega] * in[omega] * x0;
    s[t] += dt;
    return s[t] >= t_end;
  }
};

}  // namespace eagle::kernels
