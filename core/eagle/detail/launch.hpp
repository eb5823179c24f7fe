#pragma once
// One launch of a model over the slots `rows` names, with the loop nest of the run: the single
// place the fused functors are instantiated, for the run and for measuring compaction costs.

#include <eagle/detail/dispatch.hpp>
#include <eagle/detail/fused_steps.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/detail/sample_blocks.hpp>
#include <eagle/detail/tiled_steps.hpp>
#include <eagle/fields.hpp>
#include <eagle/model.hpp>
#include <eagle/steps.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace eagle::detail {

/// Lanes of ExecSpace that step in lockstep: its widest team vector on a device (a warp, a
/// wavefront: Kokkos says which), 1 on a host, where each thread visits its rows one by one.
template <class ExecSpace>
int lockstep_lanes() {
  if constexpr (is_host_space<ExecSpace>) {
    return 1;
  } else {
    return Kokkos::TeamPolicy<ExecSpace>::vector_length_max();
  }
}

/// Everything a launch needs that stays fixed over a run.
template <class ExecSpace, class Model, class Mem>
struct Launcher {
  using T = typename ModelTraits<Model>::scalar_type;
  static constexpr int NS = ModelTraits<Model>::state_count;
  static constexpr int NI = ModelTraits<Model>::input_count;
  // Dynamic: samples of a spread batch take very different numbers of steps, and a static split
  // leaves one thread with all the long ones (ignored where a space has no such choice).
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>;

  ExecSpace exec;
  Model model;
  Fields<T, NS, Mem> state;
  Fields<const T, NI, Mem> inputs;
  Bookkeeping<Mem> book;
  LoopNest nest;            ///< per_sample or tile (resolved)
  std::int64_t tile_lanes;  ///< samples per tile, for the tile nest
  std::int64_t max_steps;
  std::int64_t first_sample = 0;  ///< the batch's first sample in the caller's whole batch (MPI)

  /// This launcher with its steps' contexts marked rehearsals (StepContext::rehearsal(): sample
  /// indices negative), for the probes that time copies of samples.
  Launcher rehearsal() const {
    Launcher copy = *this;
    // Below any probe's rows, and small enough that a model's index arithmetic cannot overflow.
    copy.first_sample = -(std::int64_t(1) << 31);
    return copy;
  }

  /// Runs up to k steps of every slot that steps on; `refill`: see TiledSteps; `counts`: see
  /// StepCounts (one sample per work item only: the tile keeps every count exact). Returns how
  /// many samples still step.
  std::int64_t operator()(const Rows<Mem>& rows, std::int64_t k, bool refill, StepCounts counts = {}) const {
    std::int64_t active = 0;
    const std::string label = std::string("eagle::") + ModelTraits<Model>::name() + "[K=" + std::to_string(k);
    if constexpr (is_host_space<ExecSpace>) {
      if (nest == LoopNest::tile) {
        with_rung(k, [&](auto rung) {
          constexpr int K = decltype(rung)::value;
          const TiledSteps<Model, K, Mem> launch{model,      state, inputs,    book,   rows,
                                                 tile_lanes, k,     max_steps, refill, first_sample};
          Kokkos::parallel_reduce(label + ",tile=" + std::to_string(tile_lanes) + "]",
                                  Range(exec, 0, (rows.count + tile_lanes - 1) / tile_lanes), launch, active);
        });
        return active;
      }
    }
    const bool plain = rows.identity() && counts.deferred && k >= 1;
    with_rung(k, [&](auto rung) {
      constexpr int K = decltype(rung)::value;
      const FusedSteps<Model, K, Mem> launch{model, state,     inputs, book,         rows,
                                             k,     max_steps, counts, first_sample, plain};
      Kokkos::parallel_reduce(label + "]", Range(exec, 0, rows.count), launch, active);
    });
    return active;
  }

  /// The most steps one tile launch may take: a float pack counts a lane's steps in 32 bits.
  static constexpr std::int64_t tile_step_limit = std::numeric_limits<std::int32_t>::max() - 1;
};

}  // namespace eagle::detail
