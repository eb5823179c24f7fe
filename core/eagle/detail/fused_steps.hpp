#pragma once
// The fused launch for device-style execution: one sample per work item, its state in registers
// for the launch's steps, the unfinished count reduced in the same launch.

#include <eagle/fields.hpp>
#include <eagle/model.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::detail {

/// Per-sample bookkeeping the launch loop owns: the terminated flag and the steps taken.
template <class Mem>
struct SampleStatus {
  Kokkos::View<bool*, Mem> terminated;
  Kokkos::View<std::int64_t*, Mem> steps_taken;
};

/// Runs `limit` steps of every unterminated sample, in blocks of K steps unrolled with the state
/// in registers (limit <= K except on the top rung); reduces how many remain active.
template <class Model, int K, class Mem>
struct FusedSteps {
  using T = typename ModelTraits<Model>::scalar_type;
  static constexpr int NS = ModelTraits<Model>::state_count;
  static constexpr int NI = ModelTraits<Model>::input_count;

  Model model;
  Fields<T, NS, Mem> state;
  Fields<const T, NI, Mem> inputs;
  SampleStatus<Mem> status;
  std::int64_t limit;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& active) const {
    if (status.terminated(i)) return;
    Values<T, NS> s;
    for (int f = 0; f < NS; ++f) s[f] = state[f](i);
    Values<T, NI> in;
    for (int f = 0; f < NI; ++f) in[f] = inputs[f](i);

    bool done = false;
    std::int64_t taken = 0;
    while (taken < limit && !done) {
      for (int k = 0; k < K; ++k) {
        if (taken == limit || done) break;
        done = model.step(s, static_cast<const Values<T, NI>&>(in));
        ++taken;
      }
    }

    for (int f = 0; f < NS; ++f) state[f](i) = s[f];
    status.terminated(i) = done;
    status.steps_taken(i) += taken;
    if (!done) ++active;
  }
};

}  // namespace eagle::detail
