#pragma once
// Baseline A: a model as a Kokkos user writes it first: the model's own step in one parallel_for
// per step over every sample (finished ones skipped), then a parallel_reduce for how many samples
// still run.

#include <eagle/model.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>

namespace eagle::perf {

/// Runs until every sample is done or max_steps; `done` holds each sample's flag (false on entry).
/// Returns the steps run.
template <class Space, class Model, class T, std::size_t NS, std::size_t NI>
std::int64_t naive_model(const Space& exec, const Model& model,
                         const std::array<Kokkos::View<T*, typename Space::memory_space>, NS>& state,
                         const std::array<Kokkos::View<T*, typename Space::memory_space>, NI>& inputs,
                         const Kokkos::View<bool*, typename Space::memory_space>& done, std::int64_t max_steps) {
  const auto n = static_cast<std::int64_t>(state[0].extent(0));
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> range(exec, 0, n);
  // Kokkos::Array: a std::array's operator[] is host-only under nvcc.
  Kokkos::Array<Kokkos::View<T*, typename Space::memory_space>, NS> state_fields;
  Kokkos::Array<Kokkos::View<T*, typename Space::memory_space>, NI> input_fields;
  for (std::size_t f = 0; f < NS; ++f) state_fields[f] = state[f];
  for (std::size_t f = 0; f < NI; ++f) input_fields[f] = inputs[f];
  std::int64_t steps = 0;
  std::int64_t running = n;
  while (running > 0 && steps < max_steps) {
    Kokkos::parallel_for(
        "baseline::naive_step", range, KOKKOS_LAMBDA(const std::int64_t i) {
          if (done(i)) return;
          eagle::Values<T, static_cast<int>(NS)> s;
          eagle::Values<T, static_cast<int>(NI)> in;
          for (std::size_t f = 0; f < NS; ++f) s[f] = state_fields[f](i);
          for (std::size_t f = 0; f < NI; ++f) in[f] = input_fields[f](i);
          const bool ended = model.step(s, static_cast<const decltype(in)&>(in));
          for (std::size_t f = 0; f < NS; ++f) state_fields[f](i) = s[f];
          done(i) = ended;
        });
    Kokkos::parallel_reduce(
        "baseline::naive_count", range,
        KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) { sum += done(i) ? 0 : 1; }, running);
    ++steps;
  }
  return steps;
}

}  // namespace eagle::perf
