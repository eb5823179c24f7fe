#pragma once
// Robertson's stiff chemical kinetics as a system for eagle's ODE steppers (eagle::ode::Rosenbrock23):
//   y1' = -k1 y1 + k3 y2 y3,  y2' = k1 y1 - k3 y2 y3 - k2 y2^2,  y3' = k2 y2^2,
//   k1 = 0.04 rate_scale (per sample), k2 = 3e7, k3 = 1e4;  from y(0) = (1, 0, 0).
// Its rates span eleven orders of magnitude: an explicit stepper's steps stay below ~1e-3 for
// stability however smooth y is, where an L-stable one's grow with t.

#include <eagle/model.hpp>

#include <Kokkos_Core.hpp>

namespace eagle::kernels {

/// Robertson's kinetics: the right-hand side and its Jacobian (see the top of this header).
struct RobertsonKinetics {
  static constexpr const char* name = "robertson_kinetics";  ///< kernel labels, reports, checkpoints
  static constexpr int state_count = 3;                      ///< y1, y2, y3
  static constexpr int parameter_count = 1;                  ///< rate_scale: k1 = 0.04 rate_scale

  double k2 = 3e7;  ///< rate constant of y2 + y2 -> y3 + y2
  double k3 = 1e4;  ///< rate constant of y2 + y3 -> y1 + y3

  /// dy/dt at y; f2 = -f1 - f3, so y1 + y2 + y3 is conserved in exact arithmetic.
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V&, const Values<V, 3>& y, const Values<V, 1>& rate_scale,
                                         Values<V, 3>& dy) const {
    dy[0] = -0.04 * rate_scale[0] * y[0] + k3 * y[1] * y[2];
    dy[2] = k2 * y[1] * y[1];
    dy[1] = -dy[0] - dy[2];
  }

  /// J[i 3 + j] = df_i / dy_j at y.
  template <class V>
  KOKKOS_INLINE_FUNCTION void jacobian(const V&, const Values<V, 3>& y, const Values<V, 1>& rate_scale,
                                       Values<V, 9>& J) const {
    const V k1 = 0.04 * rate_scale[0];
    J[0] = -k1;
    J[1] = k3 * y[2];
    J[2] = k3 * y[1];
    J[6] = 0.0;
    J[7] = 2.0 * k2 * y[1];
    J[8] = 0.0;
    for (int j = 0; j < 3; ++j) J[3 + j] = -J[j] - J[6 + j];
  }
};

}  // namespace eagle::kernels
