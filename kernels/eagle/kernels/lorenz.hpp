#pragma once
// The Lorenz system, a parameter sweep over rho (per-sample input), integrated by eagle::ode::Rk4:
//   x' = sigma (y - x),  y' = x (rho - z) - y,  z' = x y - beta z.
// The ensemble benchmark of GPU ODE tools (MPGOS, DiffEqGPU). Branch-free: runs on lane packs.

#include <eagle/ode/steppers.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace eagle::kernels {

/// Lorenz's right-hand side, rho per sample: y = (x, y, z), p = (rho). In double or in float.
template <class T>
struct LorenzSystem {
  /// kernel labels, reports, checkpoints
  static constexpr const char* name = std::is_same<T, float>::value ? "lorenz_fp32" : "lorenz";
  using scalar_type = T;                     ///< the precision every plane holds
  static constexpr int state_count = 3;      ///< x, y, z
  static constexpr int parameter_count = 1;  ///< rho, the Rayleigh number: the swept parameter
  /// RK4's four stages are one long dependency chain: 3 packs in flight hide it on SSE2 and AVX-512
  /// (Intel Xeon: SSE2 2 packs 1.12x slower; AVX-512 4 packs within noise, 5 and 6 slower).
  static constexpr int packs_in_flight = 3;

  T sigma = T(10);       ///< sigma, the Prandtl number
  T beta = T(8) / T(3);  ///< beta, the geometric factor

  /// dy/dt at (x, y, z) for this sample's rho.
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V&, const Values<V, 3>& y, const Values<V, 1>& p,
                                         Values<V, 3>& dy) const {
    dy[0] = sigma * (y[1] - y[0]);
    dy[1] = y[0] * (p[0] - y[2]) - y[1];
    dy[2] = y[0] * y[1] - beta * y[2];
  }
};

/// The Lorenz system with classical RK4, fixed steps of dt until t is within dt/2 of t_end. State
/// fields x, y, z (0, 1, 2) and t (`BasicLorenz<T>::time`); input rho (0); uniform parameters
/// `system.sigma`, `system.beta`, `dt`, `t_end`.
template <class T>
using BasicLorenz = ode::Rk4<LorenzSystem<T>>;

using Lorenz = BasicLorenz<double>;     ///< Lorenz in double
using LorenzFp32 = BasicLorenz<float>;  ///< Lorenz in float

}  // namespace eagle::kernels
