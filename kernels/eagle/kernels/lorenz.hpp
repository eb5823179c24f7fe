#pragma once
// Lorenz system with classical fixed-step RK4, a parameter sweep over rho (per-sample input):
//   x' = sigma (y - x),  y' = x (rho - z) - y,  z' = x y - beta z;   terminated when t >= t_end.
// The ensemble benchmark of GPU ODE tools (MPGOS, DiffEqGPU). Branch-free: runs on lane packs.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace eagle::kernels {

/// The Lorenz system, fixed-step RK4, rho per sample; terminated once t >= t_end. In double
/// (`Lorenz`) or in float (`LorenzFp32`: the precision GPU ensemble tools are compared in).
template <class T>
struct BasicLorenz {
  /// kernel labels, reports, checkpoints
  static constexpr const char* name = std::is_same<T, float>::value ? "lorenz_fp32" : "lorenz";
  using scalar_type = T;  ///< every state and input plane holds T
  /// State fields.
  enum State : int {
    x,           ///< the system's x
    y,           ///< the system's y
    z,           ///< the system's z
    t,           ///< time
    state_count  ///< state fields per sample
  };
  /// Input fields.
  enum Input : int {
    rho,         ///< rho, the Rayleigh number: the swept parameter
    input_count  ///< input fields per sample
  };
  static constexpr bool lane_packs = true;  ///< branch-free: the host tile runs it on SIMD packs
  /// RK4's four stages are one long dependency chain: 3 packs in flight hide it on SSE2 and AVX-512
  /// (Intel Xeon: SSE2 2 packs 1.12x slower; AVX-512 4 packs within noise, 5 and 6 slower).
  static constexpr int packs_in_flight = 3;

  T sigma = T(10);       ///< sigma, the Prandtl number
  T beta = T(8) / T(3);  ///< beta, the geometric factor
  T dt = T(1e-3);        ///< time step
  T t_end = T(1);        ///< each sample terminates once its t reaches t_end

  /// The right-hand side at (x, y, z) for this sample's rho: dx, dy, dz.
  template <class V>
  KOKKOS_INLINE_FUNCTION void rhs(const V& xx, const V& yy, const V& zz, const V& r, V& dx, V& dy, V& dz) const {
    dx = sigma * (yy - xx);
    dy = xx * (r - zz) - yy;
    dz = xx * yy - beta * zz;
  }

  /// One RK4 step of dt; terminated once t >= t_end.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& in) const {
    using V = std::remove_const_t<std::remove_reference_t<decltype(s[0])>>;
    const V r = in[rho];
    const V x0 = s[x], y0 = s[y], z0 = s[z];
    V k1x, k1y, k1z, k2x, k2y, k2z, k3x, k3y, k3z, k4x, k4y, k4z;
    const T h = dt, half = T(0.5) * dt;
    rhs(x0, y0, z0, r, k1x, k1y, k1z);
    rhs(V(x0 + half * k1x), V(y0 + half * k1y), V(z0 + half * k1z), r, k2x, k2y, k2z);
    rhs(V(x0 + half * k2x), V(y0 + half * k2y), V(z0 + half * k2z), r, k3x, k3y, k3z);
    rhs(V(x0 + h * k3x), V(y0 + h * k3y), V(z0 + h * k3z), r, k4x, k4y, k4z);
    const T sixth = dt / T(6), two = T(2);
    s[x] = x0 + sixth * (k1x + two * k2x + two * k3x + k4x);
    s[y] = y0 + sixth * (k1y + two * k2y + two * k3y + k4y);
    s[z] = z0 + sixth * (k1z + two * k2z + two * k3z + k4z);
    s[t] += dt;
    return s[t] >= t_end;
  }
};

using Lorenz = BasicLorenz<double>;     ///< Lorenz in double
using LorenzFp32 = BasicLorenz<float>;  ///< Lorenz in float

}  // namespace eagle::kernels
