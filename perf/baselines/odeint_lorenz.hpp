#pragma once
// The outside peer: Boost.Odeint integrating a Lorenz ensemble (rho swept per sample) with its
// fixed-step runge_kutta4 over OpenMP, as odeint's OpenMP examples set it up: one state vector of
// 3n values (x, y, z per sample), openmp_range_algebra for the stepper's vector operations and an
// OpenMP loop in the right-hand side. Its fastest honest configuration: odeint's loops use
// schedule(runtime), and libgomp's default runtime schedule is dynamic,1 (one index per grab), so
// the schedule is set to static here, as a user tuning odeint would.

#include <omp.h>
// Under nvcc (a CUDA build's host code) Boost.Fusion's defaulted constructors draw warning 20012
// ("__host__ annotation is ignored"), in Boost's code, not ours.
#if defined(__NVCC__)
#pragma nv_diagnostic push
#pragma nv_diag_suppress 20012
#endif
#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/openmp/openmp.hpp>
#if defined(__NVCC__)
#pragma nv_diagnostic pop
#endif

#include <cstdint>
#include <vector>

namespace eagle::perf {

struct OdeintLorenzEnsemble {
  const std::vector<double>* rho;
  double sigma = 10.0;
  double beta = 8.0 / 3.0;

  void operator()(const std::vector<double>& s, std::vector<double>& d, double /*t*/) const {
    const auto n = static_cast<std::int64_t>(rho->size());
    const std::vector<double>& r = *rho;
#pragma omp parallel for schedule(runtime)
    for (std::int64_t i = 0; i < n; ++i) {
      const double x = s[3 * i], y = s[3 * i + 1], z = s[3 * i + 2];
      d[3 * i] = sigma * (y - x);
      d[3 * i + 1] = x * (r[i] - z) - y;
      d[3 * i + 2] = x * y - beta * z;
    }
  }
};

/// Advances `state` (x, y, z per sample, interleaved) by `steps` RK4 steps of `dt`.
inline void odeint_lorenz(std::vector<double>& state, const std::vector<double>& rho, double dt, std::int64_t steps) {
  omp_set_schedule(omp_sched_static, 0);
  using namespace boost::numeric::odeint;
  runge_kutta4<std::vector<double>, double, std::vector<double>, double, openmp_range_algebra> stepper;
  const OdeintLorenzEnsemble system{&rho};
  double t = 0.0;
  for (std::int64_t k = 0; k < steps; ++k) {
    stepper.do_step(system, state, t, dt);
    t += dt;
  }
}

}  // namespace eagle::perf
