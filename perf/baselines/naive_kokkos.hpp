#pragma once
// Baseline A: the oscillator as a Kokkos user writes it first: one parallel_for per step, then a
// parallel_reduce for how many samples are still running. Each sample ends at its own t_end.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::perf {

/// Returns the number of steps run.
template <class Space>
std::int64_t naive_oscillator(const Space& exec, const Kokkos::View<double*, typename Space::memory_space>& x,
                              const Kokkos::View<double*, typename Space::memory_space>& v,
                              const Kokkos::View<double*, typename Space::memory_space>& t,
                              const Kokkos::View<const double*, typename Space::memory_space>& omega,
                              const Kokkos::View<const double*, typename Space::memory_space>& t_end,
                              const Kokkos::View<bool*, typename Space::memory_space>& done, double dt,
                              std::int64_t max_steps) {
  const auto n = static_cast<std::int64_t>(x.extent(0));
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> range(exec, 0, n);
  std::int64_t steps = 0;
  std::int64_t running = n;
  while (running > 0 && steps < max_steps) {
    Kokkos::parallel_for(
        "baseline::naive_step", range, KOKKOS_LAMBDA(const std::int64_t i) {
          if (done(i)) return;
          const double x0 = x(i), v0 = v(i);
          x(i) = x0 + dt * v0;
          v(i) = v0 - dt * omega(i) * omega(i) * x0;
          t(i) += dt;
          done(i) = t(i) >= t_end(i);
        });
    Kokkos::parallel_reduce(
        "baseline::naive_count", range,
        KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) { sum += done(i) ? 0 : 1; }, running);
    ++steps;
  }
  return steps;
}

}  // namespace eagle::perf
