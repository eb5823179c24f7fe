#pragma once
// Baseline A: the model as a Kokkos user writes it first: one parallel_for per step, then a
// parallel_reduce for how many samples are still running. Each sample ends at its own t_end.

#include <eagle/model.hpp>

#include <Kokkos_Core.hpp>

#include <array>
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

namespace eagle::perf {

/// Baseline A for any model: the model's own step, one parallel_for per step over every sample
/// (finished ones skipped), then a parallel_reduce for how many still run. Returns the steps run.
template <class Model, std::size_t NS, std::size_t NI>
std::int64_t naive_model(const Model& model, const std::array<Kokkos::View<double*, Kokkos::HostSpace>, NS>& state,
                         const std::array<Kokkos::View<double*, Kokkos::HostSpace>, NI>& inputs,
                         std::int64_t max_steps) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  const auto n = static_cast<std::int64_t>(state[0].extent(0));
  const Kokkos::View<bool*, Kokkos::HostSpace> done("done", n);
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> range(0, n);
  std::int64_t steps = 0;
  std::int64_t running = n;
  while (running > 0 && steps < max_steps) {
    Kokkos::parallel_for(
        "baseline::naive_model_step", range, KOKKOS_LAMBDA(const std::int64_t i) {
          if (done(i)) return;
          eagle::Values<double, static_cast<int>(NS)> s;
          eagle::Values<double, static_cast<int>(NI)> in;
          for (std::size_t f = 0; f < NS; ++f) s[f] = state[f](i);
          for (std::size_t f = 0; f < NI; ++f) in[f] = inputs[f](i);
          const bool ended = model.step(s, static_cast<const decltype(in)&>(in));
          for (std::size_t f = 0; f < NS; ++f) state[f](i) = s[f];
          done(i) = ended;
        });
    Kokkos::parallel_reduce(
        "baseline::naive_model_count", range,
        KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) { sum += done(i) ? 0 : 1; }, running);
    ++steps;
  }
  return steps;
}

}  // namespace eagle::perf
