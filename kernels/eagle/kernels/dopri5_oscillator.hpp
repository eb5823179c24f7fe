#pragma once
// Per-sample adaptive time steps: the Dormand-Prince 5(4) embedded Runge-Kutta pair with error
// control per sample, on x'' = -omega^2 x (omega per sample), whose solution from x = 1, v = 0 is
// x = cos(omega t), v = -omega sin(omega t). One kernel step is one attempted step: accepted when
// the scaled error norm sqrt(mean((err_i / (atol + rtol max(|y_i|, |y_new_i|)))^2)) <= 1, then t
// advances; either way h becomes h min(5, max(0.2, 0.9 err^(-1/5))), and h never passes t_end.
// Samples take different numbers of steps. A step size below h_min fails the sample
// (status step_size_underflow). The caller sets each sample's initial h in the state.

#include <eagle/math.hpp>
#include <eagle/status.hpp>

#include <Kokkos_Core.hpp>

namespace eagle::kernels {

struct Dopri5Oscillator {
  static constexpr const char* name = "dopri5_oscillator";
  using scalar_type = double;
  enum State : int { x, v, t, h, state_count };
  enum Input : int { omega, input_count };
  static constexpr std::uint8_t step_size_underflow = status::first_model_failure;

  double t_end = 10.0;
  double rtol = 1e-8;
  double atol = 1e-10;
  double h_min = 1e-12;

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION StepStatus step(S& s, const I& in) const {
    const double w2 = in[omega] * in[omega];
    const double x0 = s[x], v0 = s[v], t0 = s[t];
    const double hh = math::fmin(s[h], t_end - t0);
    if (hh < h_min) return StepStatus::failed(step_size_underflow);

    // Stages of y' = (v, -w2 x); kx_i = v_i, kv_i = -w2 x_i.
    double kx[7], kv[7];
    kx[0] = v0;
    kv[0] = -w2 * x0;
    auto stage = [&](int i, double a0, double a1, double a2, double a3, double a4, double a5) {
      const double xi = x0 + hh * (a0 * kx[0] + a1 * kx[1] + a2 * kx[2] + a3 * kx[3] + a4 * kx[4] + a5 * kx[5]);
      const double vi = v0 + hh * (a0 * kv[0] + a1 * kv[1] + a2 * kv[2] + a3 * kv[3] + a4 * kv[4] + a5 * kv[5]);
      kx[i] = vi;
      kv[i] = -w2 * xi;
    };
    kx[1] = kx[2] = kx[3] = kx[4] = kx[5] = kx[6] = 0.0;
    kv[1] = kv[2] = kv[3] = kv[4] = kv[5] = kv[6] = 0.0;
    stage(1, 1.0 / 5, 0, 0, 0, 0, 0);
    stage(2, 3.0 / 40, 9.0 / 40, 0, 0, 0, 0);
    stage(3, 44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0);
    stage(4, 19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0);
    stage(5, 9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0);
    const double b[6] = {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84};
    double x1 = x0, v1 = v0;
    for (int i = 0; i < 6; ++i) {
      x1 += hh * b[i] * kx[i];
      v1 += hh * b[i] * kv[i];
    }
    kx[6] = v1;
    kv[6] = -w2 * x1;
    // 5th minus 4th order weights.
    const double e[7] = {35.0 / 384 - 5179.0 / 57600,
                         0.0,
                         500.0 / 1113 - 7571.0 / 16695,
                         125.0 / 192 - 393.0 / 640,
                         -2187.0 / 6784 + 92097.0 / 339200,
                         11.0 / 84 - 187.0 / 2100,
                         -1.0 / 40};
    double ex = 0.0, ev = 0.0;
    for (int i = 0; i < 7; ++i) {
      ex += hh * e[i] * kx[i];
      ev += hh * e[i] * kv[i];
    }
    const double sx = atol + rtol * math::fmax(math::fabs(x0), math::fabs(x1));
    const double sv = atol + rtol * math::fmax(math::fabs(v0), math::fabs(v1));
    const double err = math::sqrt(0.5 * ((ex / sx) * (ex / sx) + (ev / sv) * (ev / sv)));
    const double factor = err == 0.0 ? 5.0 : math::fmin(5.0, math::fmax(0.2, 0.9 * math::pow(err, -0.2)));
    s[h] = hh * factor;
    if (err > 1.0) return StepStatus::carry_on();  // rejected: same t, smaller h
    s[x] = x1;
    s[v] = v1;
    s[t] = hh == t_end - t0 ? t_end : t0 + hh;
    return s[t] >= t_end ? StepStatus::done() : StepStatus::carry_on();
  }
};

}  // namespace eagle::kernels
