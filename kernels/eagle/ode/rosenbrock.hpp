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
//   template <class V>  // double, or a lane pack on the tile (a Jacobian for double alone runs single lanes)
//   KOKKOS_INLINE_FUNCTION void jacobian(const V& t, const eagle::Values<V, N>& y,
//                                        const eagle::Values<V, P>& p,
//                                        eagle::Values<V, N * N>& J) const;  // J[i N + j] = df_i/dy_j
//
// and one that does not gets forward differences, column j from y_j + d_j, d_j = sqrt(eps)
// max(|y_j|, atol): N more evaluations of f a step. df/dt is always a forward difference (exactly
// zero for a system that does not read t). The N x N system W x = b, W = I - h gamma J, is solved by
// Gaussian elimination with partial pivoting, in registers, the same on every execution space and
// branch-free (rows trade places by selects), so the host tile runs it on lane packs; a singular W
// gives a non-finite error estimate, so the step is retried with a smaller h.

#include <eagle/math.hpp>
#include <eagle/model.hpp>
#include <eagle/ode/steppers.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>

namespace eagle::ode {

namespace detail {

/// Whether System has jacobian(t, y, p, J) for values of type V.
template <class System, class V, class = void>
struct HasJacobian : std::false_type {};
template <class System, class V>
struct HasJacobian<System, V,
                   std::void_t<decltype(std::declval<const System&>().jacobian(
                       std::declval<const V&>(), std::declval<const Values<V, System::state_count>&>(),
                       std::declval<const Values<V, System::parameter_count>&>(),
                       std::declval<Values<V, System::state_count * System::state_count>&>()))>> : std::true_type {};

/// Whether System's Jacobian, where it has one, runs on lane packs (false where there are none).
template <class System>
constexpr bool jacobian_on_packs() {
#if defined(EAGLE_HAS_LANE_PACKS)
  return !HasJacobian<System, double>::value || HasJacobian<System, Pack<double>>::value;
#else
  return false;
#endif
}

/// An N x N matrix of V (double, or a lane pack: each lane its own matrix) factored as P W = L U by
/// Gaussian elimination with partial pivoting; solve() then solves W x = b in place. Branch-free:
/// at elimination step k each row below k whose entry in column k is larger in magnitude than row
/// k's trades places with row k, so row k ends with the largest (the first of equals), as a
/// pivot search would pick it; the trades are kept as masks and replayed on b.
template <class V, int N>
struct SmallLu {
  using Mask = decltype(std::declval<V>() > std::declval<V>());  ///< bool, or a pack's lane mask
  V a[N][N];          ///< W on entry to factor(); L below the diagonal (unit diagonal) and U on and above
  Mask traded[N][N];  ///< traded[k][i], i > k: rows k and i traded places at elimination step k

  /// Factors a in place.
  KOKKOS_INLINE_FUNCTION void factor() {
    for (int k = 0; k < N; ++k) {
      for (int i = k + 1; i < N; ++i) {
        const Mask larger = math::fabs(a[i][k]) > math::fabs(a[k][k]);
        traded[k][i] = larger;
        for (int j = 0; j < N; ++j) trade(larger, a[k][j], a[i][j]);
      }
      for (int i = k + 1; i < N; ++i) {
        a[i][k] /= a[k][k];
        for (int j = k + 1; j < N; ++j) a[i][j] -= a[i][k] * a[k][j];
      }
    }
  }

  /// b := W^-1 b.
  KOKKOS_INLINE_FUNCTION void solve(Values<V, N>& b) const {
    for (int k = 0; k < N; ++k)
      for (int i = k + 1; i < N; ++i) trade(traded[k][i], b[k], b[i]);
    for (int i = 1; i < N; ++i)
      for (int j = 0; j < i; ++j) b[i] -= a[i][j] * b[j];
    for (int i = N - 1; i >= 0; --i) {
      for (int j = i + 1; j < N; ++j) b[i] -= a[i][j] * b[j];
      b[i] /= a[i][i];
    }
  }

 private:
  /// x and y trade values where `where` holds.
  KOKKOS_INLINE_FUNCTION static void trade(const Mask& where, V& x, V& y) {
    const V x0 = x;
    x = select(where, y, x0);
    y = select(where, x0, y);
  }
};

}  // namespace detail

/// Shampine and Reichelt's Rosenbrock 2(3), as the method of an Adaptive stepper (see the top of
/// this header). With gamma = 1 / (2 + sqrt 2), W = I - h gamma J, T = h gamma df/dt:
///   k1 = W^-1 (f0 + T),  f1 = f(t + h/2, y + h/2 k1),  k2 = W^-1 (f1 - k1) + k1,
///   y1 = y + h k2,       f2 = f(t + h, y1),
///   k3 = W^-1 (f2 - (6 + sqrt 2)(k2 - f1) - 2 (k1 - f0) + T),  error = h/6 (k1 - 2 k2 + k3).
struct Rosenbrock23Method {
  static constexpr int error_order = 2;  ///< the solution's local error is O(h^3)
  static constexpr int dense_order = 2;  ///< order of the dense output
  /// Runs on lane packs where System's right-hand side and its Jacobian (if it has one) take them.
  template <class System>
  static constexpr bool lane_packs_for = detail::rhs_on_packs<System>() && detail::jacobian_on_packs<System>();

  /// A step's first two stages: what its dense output interpolates from.
  template <class V, int N>
  struct Stages {
    Values<V, N> k1;  ///< the first stage
    Values<V, N> k2;  ///< the second stage
  };

  /// A step of size h from (t0, y0), f0 = f(t0, y0): the solution y1, the error estimate e, and
  /// the stages into *keep unless it is null; `negligible` (atol) is the size below which a
  /// component's finite-difference step stops shrinking.
  template <int N, class System, class V, class I>
  KOKKOS_INLINE_FUNCTION static void trial(const System& f, const V& t0, const V& h, const Values<V, N>& y0, const I& p,
                                           const Values<V, N>& f0, double negligible, Values<V, N>& y1, Values<V, N>& e,
                                           Stages<V, N>* keep) {
    detail::SmallLu<V, N> w;
    Values<V, N> T, k1, f1, k2;
    // W's factors and T = h gamma df/dt.
    jacobian(f, t0, y0, p, f0, negligible, w.a);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) w.a[i][j] = (i == j ? 1.0 : 0.0) - h * gamma * w.a[i][j];
    w.factor();
    const V dt = root_eps * math::fmax(math::fabs(t0), h);
    f(V(t0 + dt), y0, p, T);
    for (int n = 0; n < N; ++n) T[n] = h * gamma * ((T[n] - f0[n]) / dt);
    // The stages and the solution.
    for (int n = 0; n < N; ++n) k1[n] = f0[n] + T[n];
    w.solve(k1);
    Values<V, N> y;
    for (int n = 0; n < N; ++n) y[n] = y0[n] + 0.5 * h * k1[n];
    f(V(t0 + 0.5 * h), y, p, f1);
    for (int n = 0; n < N; ++n) k2[n] = f1[n] - k1[n];
    w.solve(k2);
    for (int n = 0; n < N; ++n) {
      k2[n] += k1[n];
      y1[n] = y0[n] + h * k2[n];
    }
    // The error estimate, from a third stage at the solution.
    Values<V, N> f2, k3;
    f(V(t0 + h), y1, p, f2);
    for (int n = 0; n < N; ++n) k3[n] = f2[n] - e32 * (k2[n] - f1[n]) - 2.0 * (k1[n] - f0[n]) + T[n];
    w.solve(k3);
    for (int n = 0; n < N; ++n) e[n] = h / 6.0 * (k1[n] - 2.0 * k2[n] + k3[n]);
    if (keep != nullptr) {
      keep->k1 = k1;
      keep->k2 = k2;
    }
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

  /// J = df/dy at (t0, y0) into J[i][j]: the system's own, or forward differences.
  template <int N, class System, class V, class I>
  KOKKOS_INLINE_FUNCTION static void jacobian(const System& f, const V& t0, const Values<V, N>& y0, const I& p,
                                              const Values<V, N>& f0, double negligible, V (&J)[N][N]) {
    if constexpr (detail::HasJacobian<System, V>::value) {
      Values<V, N * N> flat;
      f.jacobian(t0, y0, p, flat);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) J[i][j] = flat[i * N + j];
    } else {
      for (int j = 0; j < N; ++j) {
        Values<V, N> y = y0, column;
        const V d = root_eps * math::fmax(math::fabs(y0[j]), negligible);
        y[j] = y0[j] + d;
        f(t0, y, p, column);
        const V taken = y[j] - y0[j];  // the step as represented
        for (int i = 0; i < N; ++i) J[i][j] = (column[i] - f0[i]) / taken;
      }
    }
  }
};

/// Shampine and Reichelt's Rosenbrock 2(3) for stiff systems, adaptive (see the top of this header).
template <class System>
using Rosenbrock23 = Adaptive<Rosenbrock23Method, System>;

}  // namespace eagle::ode
