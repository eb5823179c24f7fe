#pragma once
// Robertson's stiff chemical kinetics (eagle/kernels/robertson_kinetics.hpp: rate_scale per
// sample scales k1) with backward Euler, each step's Newton system solved per sample with Kokkos
// Kernels' KokkosBatched serial LU and triangular solves; from y(0) = (1, 0, 0).
// Step: solve Y - y - h f(Y) = 0 by Newton (Jacobian I - h df/dy at every iterate), converged when
// max |dY| <= newton_tolerance (1 + max |Y|); more than max_newton iterations fails the sample
// (status newton_failed). The step size h (state) grows by `growth` per step up to h_max and
// stops at t_end. Needs Kokkos Kernels (link Eagle::kokkoskernels).

#include <eagle/kernels/robertson_kinetics.hpp>
#include <eagle/math.hpp>
#include <eagle/status.hpp>

#include <KokkosBatched_LU_Decl.hpp>
#include <KokkosBatched_LU_Serial_Impl.hpp>
#include <KokkosBatched_Trsv_Decl.hpp>
#include <KokkosBatched_Trsv_Serial_Impl.hpp>
#include <Kokkos_Core.hpp>

namespace eagle::kernels {

/// Robertson's stiff chemical kinetics, backward Euler with a Newton solve per step (see the top of
/// this header).
struct Robertson {
  static constexpr const char* name = "robertson";  ///< kernel labels, reports, checkpoints
  using scalar_type = double;                       ///< every state and input plane holds double
  /// State fields.
  enum State : int {
    y1,          ///< first species (start: 1)
    y2,          ///< second species (start: 0)
    y3,          ///< third species (start: 0)
    t,           ///< time
    h,           ///< the next step's size (the caller sets the first, > 0)
    state_count  ///< state fields per sample
  };
  /// Input fields.
  enum Input : int {
    rate_scale,  ///< scales k1: k1 = 0.04 rate_scale
    input_count  ///< input fields per sample
  };
  /// The status of a sample whose Newton iteration did not converge within max_newton iterations.
  static constexpr std::uint8_t newton_failed = status::first_model_failure;

  RobertsonKinetics kinetics{};     ///< the right-hand side and its Jacobian, with k2 and k3
  double t_end = 40.0;              ///< each sample is done once its t reaches t_end
  double h_max = 5e-3;              ///< the largest step size
  double growth = 1.05;             ///< the factor h grows by each step, up to h_max
  double newton_tolerance = 1e-12;  ///< converged once max |dY| <= newton_tolerance (1 + max |Y|)
  int max_newton = 10;              ///< Newton iterations a step may take before the sample fails

  /// One backward Euler step of min(h, t_end - t): done at t_end, newton_failed where Newton does not
  /// converge (the state then as before the step).
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION StepStatus step(S& s, const I& in) const {
    using Matrix = Kokkos::View<double[3][3], Kokkos::LayoutRight, Kokkos::AnonymousSpace,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    using Vector =
        Kokkos::View<double[3], Kokkos::LayoutRight, Kokkos::AnonymousSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const Values<double, 1> p{in[rate_scale]};
    const double hh = math::fmin(s[h], t_end - s[t]);
    const Values<double, 3> y{s[y1], s[y2], s[y3]};
    Values<double, 3> Y = y, f;
    Values<double, 9> df;
    double a[9], b[3];
    const Matrix J(a);
    const Vector r(b);
    bool converged = false;
    for (int iteration = 0; iteration < max_newton && !converged; ++iteration) {
      // Residual F = Y - y - h f(Y), and J = I - h df/dY, both at the iterate.
      kinetics(0.0, Y, p, f);
      kinetics.jacobian(0.0, Y, p, df);
      for (int i = 0; i < 3; ++i) {
        r(i) = -(Y[i] - y[i] - hh * f[i]);
        for (int j = 0; j < 3; ++j) J(i, j) = (i == j ? 1.0 : 0.0) - hh * df[i * 3 + j];
      }
      KokkosBatched::SerialLU<KokkosBatched::Algo::LU::Unblocked>::invoke(J);
      KokkosBatched::SerialTrsv<KokkosBatched::Uplo::Lower, KokkosBatched::Trans::NoTranspose,
                                KokkosBatched::Diag::Unit, KokkosBatched::Algo::Trsv::Unblocked>::invoke(1.0, J, r);
      KokkosBatched::SerialTrsv<KokkosBatched::Uplo::Upper, KokkosBatched::Trans::NoTranspose,
                                KokkosBatched::Diag::NonUnit, KokkosBatched::Algo::Trsv::Unblocked>::invoke(1.0, J, r);
      double change = 0.0, size = 0.0;
      for (int c = 0; c < 3; ++c) {
        Y[c] += r(c);
        change = math::fmax(change, math::fabs(r(c)));
        size = math::fmax(size, math::fabs(Y[c]));
      }
      converged = change <= newton_tolerance * (1.0 + size);
    }
    if (!converged) return StepStatus::failed(newton_failed);
    s[y1] = Y[0];
    s[y2] = Y[1];
    s[y3] = Y[2];
    s[t] = hh == t_end - s[t] ? t_end : s[t] + hh;
    s[h] = math::fmin(hh * growth, h_max);
    return s[t] >= t_end ? StepStatus::done() : StepStatus::carry_on();
  }
};

}  // namespace eagle::kernels
