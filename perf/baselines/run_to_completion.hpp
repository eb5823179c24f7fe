#pragma once
// Baseline C: the loop a user writes in five minutes, and the way GPU ensemble codes are written by
// hand (one thread per sample): one parallel_for over the samples, each work item running its
// sample's scalar step to completion with the state in registers. No launches between steps, no
// bookkeeping; on a GPU its threads idle once their sample is done until the slowest of their warp is.

#include <eagle/model.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>

namespace eagle::perf {

/// Runs every sample until its step says done or it has taken max_steps steps.
template <class Space, class Model, class T, std::size_t NS, std::size_t NI>
void run_to_completion(const Space& exec, const Model& model,
                       const std::array<Kokkos::View<T*, typename Space::memory_space>, NS>& state,
                       const std::array<Kokkos::View<T*, typename Space::memory_space>, NI>& inputs,
                       std::int64_t max_steps) {
  const auto n = static_cast<std::int64_t>(state[0].extent(0));
  // Kokkos::Array: a std::array's operator[] is host-only under nvcc.
  Kokkos::Array<Kokkos::View<T*, typename Space::memory_space>, NS> state_fields;
  Kokkos::Array<Kokkos::View<T*, typename Space::memory_space>, NI> input_fields;
  for (std::size_t f = 0; f < NS; ++f) state_fields[f] = state[f];
  for (std::size_t f = 0; f < NI; ++f) input_fields[f] = inputs[f];
  Kokkos::parallel_for(
      "baseline::run_to_completion", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        eagle::Values<T, static_cast<int>(NS)> s;
        eagle::Values<T, static_cast<int>(NI)> in;
        for (std::size_t f = 0; f < NS; ++f) s[f] = state_fields[f](i);
        for (std::size_t f = 0; f < NI; ++f) in[f] = input_fields[f](i);
        for (std::int64_t k = 0; k < max_steps; ++k) {
          if (model.step(s, static_cast<const decltype(in)&>(in))) break;
        }
        for (std::size_t f = 0; f < NS; ++f) state_fields[f](i) = s[f];
      });
}

}  // namespace eagle::perf
