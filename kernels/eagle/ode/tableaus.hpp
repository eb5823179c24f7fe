#pragma once
// Butcher tableaus of the explicit Runge-Kutta methods eagle's steppers run. A tableau says, as
// constant expressions: its stage count; a(i, j), the weight of stage j in stage i's argument
// (j < i); c(i), stage i's time as a fraction of the step; b(j), the solution's weights; and for an
// embedded pair e(j) = b(j) - b̂(j), the weights of the error estimate, with the order of the
// estimate (the step-size controller's exponent is -1 / (error_order + 1)).
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
};

}  // namespace eagle::ode
