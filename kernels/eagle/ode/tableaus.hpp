#pragma once
// Butcher tableaus of the explicit Runge-Kutta methods eagle's steppers run. A tableau says, as
// constant expressions: its stage count; a(i, j), the weight of stage j in stage i's argument
// (j < i); c(i), stage i's time as a fraction of the step; b(j), the solution's weights; and for an
// embedded pair e(j) = b(j) - b̂(j), the weights of the error estimate, with the order of the
// estimate (the step-size controller's exponent is -1 / (error_order + 1)); and for a pair with a
// continuous extension (dense output), dense(j, theta), the weight of stage j in the solution at
// t0 + theta h: y(theta) = y0 + h sum_j dense(j, theta) k_j, of order dense_order.
// The last stage of Dormand-Prince and Tsitouras is evaluated at the new solution (first same as
// last): its a-row equals b, so the stage engine computes it from the same sums.

#include <Kokkos_Core.hpp>

namespace eagle::ode {

/// The classical fourth-order Runge-Kutta method (fixed steps).
struct Rk4Tableau {
  static constexpr int stages = 4;  ///< stages a step evaluates
  static constexpr int order = 4;   ///< order of the solution
  /// Weight of stage j in stage i's argument (j < i).
  KOKKOS_INLINE_FUNCTION static constexpr double a(int i, int j) {
    constexpr double t[4][4] = {{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1, 0}};
    return t[i][j];
  }
  /// Stage i's time, as a fraction of the step.
  KOKKOS_INLINE_FUNCTION static constexpr double c(int i) {
    constexpr double t[4] = {0, 0.5, 0.5, 1};
    return t[i];
  }
  /// The solution's weight of stage j.
  KOKKOS_INLINE_FUNCTION static constexpr double b(int j) {
    constexpr double t[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
    return t[j];
  }
};

/// Dormand and Prince's 5(4) pair (J. Comput. Appl. Math. 6, 1980), as in Hairer's DOPRI5.
struct Dopri5Tableau {
  static constexpr int stages = 7;       ///< stages a step evaluates
  static constexpr int order = 5;        ///< order of the solution
  static constexpr int error_order = 4;  ///< order of the embedded error estimate
  /// Weight of stage j in stage i's argument (j < i).
  KOKKOS_INLINE_FUNCTION static constexpr double a(int i, int j) {
    constexpr double t[7][6] = {{0, 0, 0, 0, 0, 0},
                                {1.0 / 5, 0, 0, 0, 0, 0},
                                {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
                                {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0},
                                {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0},
                                {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0},
                                {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
    return j < 6 ? t[i][j] : 0.0;
  }
  /// Stage i's time, as a fraction of the step.
  KOKKOS_INLINE_FUNCTION static constexpr double c(int i) {
    constexpr double t[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
    return t[i];
  }
  /// The solution's weight of stage j: the last stage's a-row.
  KOKKOS_INLINE_FUNCTION static constexpr double b(int j) { return a(6, j); }
  /// The error estimate's weight of stage j, b(j) - b̂(j).
  KOKKOS_INLINE_FUNCTION static constexpr double e(int j) {
    constexpr double t[7] = {35.0 / 384 - 5179.0 / 57600,
                             0.0,
                             500.0 / 1113 - 7571.0 / 16695,
                             125.0 / 192 - 393.0 / 640,
                             -2187.0 / 6784 + 92097.0 / 339200,
                             11.0 / 84 - 187.0 / 2100,
                             -1.0 / 40};
    return t[j];
  }
  static constexpr int dense_order = 4;  ///< order of the continuous extension
  /// Stage j's weight in the solution at theta in [0, 1]: Hairer's DOPRI5 extension, the Hermite
  /// cubic through (y0, f0, y1, f1) plus a fourth-order correction d(j) theta^2 (1 - theta)^2.
  KOKKOS_INLINE_FUNCTION static constexpr double dense(int j, double theta) {
    constexpr double d[7] = {-12715105075.0 / 11282082432,  0.0,
                             87487479700.0 / 32700410799,   -10690763975.0 / 1880347072,
                             701980252875.0 / 199316789632, -1453857185.0 / 822651844,
                             69997945.0 / 29380423};
    const double first = j == 0 ? 1.0 : 0.0, last = j == 6 ? 1.0 : 0.0, rest = 1.0 - theta;
    return theta * (b(j) + rest * (first - b(j) + theta * (2.0 * b(j) - first - last + rest * d[j])));
  }
};

/// Tsitouras' 5(4) pair (Comput. Math. Appl. 62, 2011): the same cost as Dormand-Prince, a smaller
/// error constant. Coefficients as the paper's double-precision table.
struct Tsit5Tableau {
  static constexpr int stages = 7;       ///< stages a step evaluates
  static constexpr int order = 5;        ///< order of the solution
  static constexpr int error_order = 4;  ///< order of the embedded error estimate
  /// Weight of stage j in stage i's argument (j < i).
  KOKKOS_INLINE_FUNCTION static constexpr double a(int i, int j) {
    constexpr double t[7][6] = {
        {0, 0, 0, 0, 0, 0},
        {0.161, 0, 0, 0, 0, 0},
        {-0.008480655492356989, 0.335480655492357, 0, 0, 0, 0},
        {2.897153057105493, -6.359448489975075, 4.3622954328695815, 0, 0, 0},
        {5.325864828439257, -11.748883564062828, 7.4955393428898365, -0.09249506636175525, 0, 0},
        {5.86145544294642, -12.92096931784711, 8.159367898576159, -0.071584973281401, -0.028269050394068383, 0},
        {0.09646076681806523, 0.01, 0.4798896504144996, 1.379008574103742, -3.290069515436081, 2.324710524099774}};
    return j < 6 ? t[i][j] : 0.0;
  }
  /// Stage i's time, as a fraction of the step.
  KOKKOS_INLINE_FUNCTION static constexpr double c(int i) {
    constexpr double t[7] = {0, 0.161, 0.327, 0.9, 0.9800255409045097, 1, 1};
    return t[i];
  }
  /// The solution's weight of stage j: the last stage's a-row.
  KOKKOS_INLINE_FUNCTION static constexpr double b(int j) { return a(6, j); }
  /// The error estimate's weight of stage j, b(j) - b̂(j).
  KOKKOS_INLINE_FUNCTION static constexpr double e(int j) {
    constexpr double t[7] = {-0.00178001105222577714, -0.0008164344596567469, 0.007880878010261995, -0.1447110071732629,
                             0.5823571654525552,      -0.45808210592918697,   0.015151515151515152};
    return t[j];
  }
  static constexpr int dense_order = 4;  ///< order of the continuous extension
  /// Stage j's weight in the solution at theta in [0, 1]: the paper's fourth-order interpolant.
  KOKKOS_INLINE_FUNCTION static constexpr double dense(int j, double theta) {
    const double t = theta, tt = theta * theta;
    switch (j) {
      case 0:
        return -1.0530884977290216 * t * (t - 1.3299890189751412) * (tt - 1.4364028541716351 * t + 0.7139816917074209);
      case 1:
        return 0.1017 * tt * (tt - 2.1966568338249754 * t + 1.2949852507374631);
      case 2:
        return 2.490627285651252793 * tt * (tt - 2.38535645472061657 * t + 1.57803468208092486);
      case 3:
        return -16.54810288924490272 * (t - 1.21712927295533244) * (t - 0.61620406037800089) * tt;
      case 4:
        return 47.37952196281928122 * (t - 1.203071208372362603) * (t - 0.658047292653547382) * tt;
      case 5:
        return -34.87065786149660974 * (t - 1.2) * (t - 0.666666666666666667) * tt;
      default:
        return 2.5 * (t - 1.0) * (t - 0.6) * tt;
    }
  }
};

}  // namespace eagle::ode
