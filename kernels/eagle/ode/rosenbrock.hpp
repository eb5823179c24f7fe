#pragma once
// A stiff stepper: the Rosenbrock 2(3) method of Shampine and Reichelt (SIAM J. Sci. Comput. 18,
// 1997; MATLAB's ode23s), linearly implicit, L-stable, with an embedded third-order error estimate,
// on eagle's adaptive step control (eagle::ode::Adaptive in eagle/ode/steppers.hpp):
//
//   eagle::ode::Rosenbrock23<System> m;    // fields y[0..N-1], t, h; as Dopri5 and Tsit5
//   m.t_end = 4e10; m.rtol = 1e-6; m.atol = 1e-12;
//
// A step needs the Jacobian df/dy. A system that knows it says so with a member
//
//   KOKKOS_INLINE_FUNCTION void jacobian(double t, const eagle::Values<double, N>& y,
//                                        const eagle::Values<double, P>& p,
//                                        eagle::Values<double, N * N>& J) const;  // J[i N + j] = df_i/dy_j
//
// and one that does not gets forward differences, column j from y_j + d_j, d_j = sqrt(eps)
// max(|y_j|, atol): N more evaluations of f a step. df/dt is always a forward difference (exactly
// zero for a system that does not read t). The N x N system W x = b, W = I - h gamma J, is solved by
// Gaussian elimination with partial pivoting, in registers, the same on every execution space; a
// singular W gives a non-finite error estimate, so the step is retried with a smaller h.

#include <eagle/math.hpp>
#include <eagle/model.hpp>
#include <eagle/ode/steppers.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>

namespace eagle::ode {

namespace detail {

/// Whether System has jacobian(t, y, p, J) for doubles.
template <class System, class = void>
struct HasJacobian : std::false_type {};
template <class System>
struct HasJacobian<System, std::void_t<decltype(std::declval<const System&>().jacobian(
                               0.0, std::declval<const Values<double, System::state_count>&>(),
                               std::declval<const Values<double, System::parameter_count>&>(),
                               std::declval<Values<double, System::state_count * System::state_count>&>()))>>
    : std::true_type {};

/// An N x N matrix factored as P W = L U by Gaussian elimination with partial pivoting; solve()
/// then solves W x = b in place.
template <int N>
struct SmallLu {
  double a[N][N];  ///< W on entry to factor(); L below the diagonal (unit diagonal) and U on and above
  int swapped[N];  ///< row k was swapped with row swapped[k] at elimination step k

  /// Factors a in place.
  KOKKOS_INLINE_FUNCTION void factor() {
    for (int k = 0; k < N; ++k) {
      int pivot = k;
      for (int i = k + 1; i < N; ++i)
        if (math::fabs(a[i][k]) > math::fabs(a[pivot][k])) pivot = i;
      swapped[k] = pivot;
      if (pivot != k)
        for (int j = 0; j < N; ++j) {
          const double keep = a[k][j];
          a[k][j] = a[pivot][j];
          a[pivot][j] = keep;
        }
      for (int i = k + 1; i < N; ++i) {
        a[i][k] /= a[k][k];
        for (int j = k + 1; j < N; ++j) a[i][j] -= a[i][k] * a[k][j];
      }
    }
  }

  /// b := W^-1 b.
  KOKKOS_INLINE_FUNCTION void solve(Values<double, N>& b) const {
    for (int k = 0; k < N; ++k) {
      const double keep = b[k];
      b[k] = b[swapped[k]];
      b[swapped[k]] = keep;
    }
    for (int i = 1; i < N; ++i)
      for (int j = 0; j < i; ++j) b[i] -= a[i][j] * b[j];
    for (int i = N - 1; i >= 0; --i) {
      for (int j = i + 1; j < N; ++j) b[i] -= a[i][j] * b[j];
      b[i] /= a[i][i];
    }
  }
};

}  // namespace detail

/// Shampine and Reichelt's Rosenbrock 2(3), as the method of an Adaptive stepper (see the top of
/// this header). With gamma = 1 / (2 + sqrt 2), W = I - h gamma J, T = h gamma df/dt:
///   k1 = W^-1 (f0 + T),  f1 = f(t + h/2, y + h/2 k1),  k2 = W^-1 (f1 - k1) + k1,
///   y1 = y + h k2,       f2 = f(t + h, y1),
///   k3 = W^-1 (f2 - (6 + sqrt 2)(k2 - f1) - 2 (k1 - f0) + T),  error = h/6 (k1 - 2 k2 + k3).
struct Rosenbrock23Method {
  static constexpr int error_order = 2;      ///< the solution's local error is O(h^3)
  static constexpr int dense_order = 2;      ///< order of the dense output
  static constexpr bool lane_packs = false;  ///< its pivoting solve branches: single lanes on the tile

  /// A step's factors and stages: what the error stage and the dense output need of the first two.
  template <class V, int N>
  struct Stages {
    static_assert(std::is_same<V, double>::value, "eagle::ode::Rosenbrock23 runs on single lanes (double)");
    detail::SmallLu<N> w;  ///< W's factors
    Values<double, N> T;   ///< h gamma df/dt
    Values<double, N> k1;  ///< the first stage
    Values<double, N> f1;  ///< f at the second stage's point
    Values<double, N> k2;  ///< the second stage
  };

  /// A step of size h from (t0, y0), f0 = f(t0, y0): the solution y1, the error estimate e, and
  /// the stages into *keep unless it is null; `negligible` (atol) is the size below which a component's
  /// finite-difference step stops shrinking.
  template <int N, class System, class I>
  KOKKOS_INLINE_FUNCTION static void trial(const System& f, double t0, double h, const Values<double, N>& y0,
                                           const I& p, const Values<double, N>& f0, double negligible,
                                           Values<double, N>& y1, Values<double, N>& e, Stages<double, N>* keep) {
    Stages<double, N> s;
    first_stages(f, t0, h, y0, p, f0, negligible, s, y1);
    Values<double, N> f2, k3;
    f(t0 + h, y1, p, f2);
    for (int n = 0; n < N; ++n) k3[n] = f2[n] - e32 * (s.k2[n] - s.f1[n]) - 2.0 * (s.k1[n] - f0[n]) + s.T[n];
    s.w.solve(k3);
    for (int n = 0; n < N; ++n) e[n] = h / 6.0 * (s.k1[n] - 2.0 * s.k2[n] + k3[n]);
    if (keep != nullptr) *keep = s;
  }

  /// y at t0 + theta h, theta in [0, 1], from the stages of a step of size h from y0: Shampine and
  /// Reichelt's interpolant, y0 + h (theta (1 - theta) k1 + theta (theta - 2 gamma) k2) / (1 - 2 gamma).
  template <int N>
  KOKKOS_INLINE_FUNCTION static void interpolate(double theta, double h, const Values<double, N>& y0,
                                                 const Stages<double, N>& s, Values<double, N>& y) {
    const double w1 = theta * (1.0 - theta) / (1.0 - 2.0 * gamma),
                 w2 = theta * (theta - 2.0 * gamma) / (1.0 - 2.0 * gamma);
    for (int n = 0; n < N; ++n) y[n] = y0[n] + h * (w1 * s.k1[n] + w2 * s.k2[n]);
  }

 private:
  static constexpr double gamma = 0.29289321881345247560;     // 1 / (2 + sqrt 2)
  static constexpr double e32 = 7.41421356237309504880;       // 6 + sqrt 2
  static constexpr double root_eps = 1.4901161193847656e-08;  // sqrt(2^-52): forward differences' step

  /// The step's first two stages, and its solution y1.
  template <int N, class System, class I>
  KOKKOS_INLINE_FUNCTION static void first_stages(const System& f, double t0, double h, const Values<double, N>& y0,
                                                  const I& p, const Values<double, N>& f0, double negligible,
                                                  Stages<double, N>& s, Values<double, N>& y1) {
    jacobian(f, t0, y0, p, f0, negligible, s.w.a);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) s.w.a[i][j] = (i == j ? 1.0 : 0.0) - h * gamma * s.w.a[i][j];
    s.w.factor();
    const double dt = root_eps * math::fmax(math::fabs(t0), h);
    f(t0 + dt, y0, p, s.T);
    for (int n = 0; n < N; ++n) s.T[n] = h * gamma * ((s.T[n] - f0[n]) / dt);

    for (int n = 0; n < N; ++n) s.k1[n] = f0[n] + s.T[n];
    s.w.solve(s.k1);
    Values<double, N> y;
    for (int n = 0; n < N; ++n) y[n] = y0[n] + 0.5 * h * s.k1[n];
    f(t0 + 0.5 * h, y, p, s.f1);
    for (int n = 0; n < N; ++n) s.k2[n] = s.f1[n] - s.k1[n];
    s.w.solve(s.k2);
    for (int n = 0; n < N; ++n) {
      s.k2[n] += s.k1[n];
      y1[n] = y0[n] + h * s.k2[n];
    }
  }

  /// J = df/dy at (t0, y0) into J[i][j]: the system's own, or forward differences.
  template <int N, class System, class I>
  KOKKOS_INLINE_FUNCTION static void jacobian(const System& f, double t0, const Values<double, N>& y0, const I& p,
                                              const Values<double, N>& f0, double negligible, double (&J)[N][N]) {
    if constexpr (detail::HasJacobian<System>::value) {
      Values<double, N * N> flat;
      f.jacobian(t0, y0, p, flat);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) J[i][j] = flat[i * N + j];
    } else {
      for (int j = 0; j < N; ++j) {
        Values<double, N> y = y0, column;
        const double d = root_eps * math::fmax(math::fabs(y0[j]), negligible);
        y[j] = y0[j] + d;
        f(t0, y, p, column);
        const double taken = y[j] - y0[j];  // the step as represented
        for (int i = 0; i < N; ++i) J[i][j] = (column[i] - f0[i]) / taken;
      }
    }
  }
};

/// Shampine and Reichelt's Rosenbrock 2(3) for stiff systems, adaptive (see the top of this header).
template <class System>
using Rosenbrock23 = Adaptive<Rosenbrock23Method, System>;

}  // namespace eagle::ode
