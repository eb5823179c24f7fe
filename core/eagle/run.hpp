#pragma once
// run_until_done: launch until every sample is terminated or max_steps is reached.

#include <eagle/deploy.hpp>
#include <eagle/detail/checks.hpp>
#include <eagle/detail/dispatch.hpp>
#include <eagle/detail/fused_steps.hpp>
#include <eagle/detail/tiled_steps.hpp>
#include <eagle/fields.hpp>
#include <eagle/auto_steps.hpp>
#include <eagle/host_caches.hpp>
#include <eagle/host_tile.hpp>
#include <eagle/ladder.hpp>
#include <eagle/model.hpp>
#include <eagle/progress.hpp>
#include <eagle/report.hpp>
#include <eagle/status.hpp>
#include <eagle/steps.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>
#include <type_traits>

namespace eagle {
namespace detail {

/// Keeps a parameter out of template deduction, so a View that converts is accepted.
template <class X>
struct NonDeduced {
  using type = X;
};

inline void require_positive_max_steps(const char* function, std::int64_t max_steps) {
  if (max_steps <= 0) {
    throw std::invalid_argument(std::string(function) + ": max_steps must be positive, got " +
                                std::to_string(max_steps));
  }
}

/// Host execution spaces run the tile; others one sample per work item.
template <class ExecSpace>
inline constexpr bool is_host_space = std::is_same<typename ExecSpace::memory_space, Kokkos::HostSpace>::value;

template <class ExecSpace>
LoopNest resolve_nest(const char* function, LoopNest asked) {
  if (asked == LoopNest::space_default) return is_host_space<ExecSpace> ? LoopNest::tile : LoopNest::per_sample;
  if (asked == LoopNest::tile && !is_host_space<ExecSpace>) {
    throw std::invalid_argument(std::string(function) + ": the tile loop nest needs a host execution space, got " +
                                ExecSpace::name());
  }
  return asked;
}

/// Samples terminated on entry count as finished, the others start running; returns how many run.
template <class ExecSpace, class Mem>
std::int64_t initialise_status(const ExecSpace& exec, const Kokkos::View<bool*, Mem>& terminated,
                               const Kokkos::View<std::uint8_t*, Mem>& codes) {
  std::int64_t running = 0;
  Kokkos::parallel_reduce(
      "eagle::initial_status",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, terminated.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) {
        codes(i) = terminated(i) ? status::finished : status::running;
        sum += terminated(i) ? 0 : 1;
      },
      running);
  return running;
}

/// Fills the report from the per-sample bookkeeping in one pass on the host: counts by status,
/// the first failing samples, the longest sample and the work done.
template <class Mem>
void summarise(const Bookkeeping<Mem>& book, Report& report) {
  const auto codes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), book.status);
  const auto taken = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), book.steps_taken);
  report.finished = report.unfinished = report.failed = 0;
  report.longest_sample_steps = report.sample_steps = 0;
  for (std::size_t i = 0; i < codes.extent(0); ++i) {
    report.longest_sample_steps = std::max(report.longest_sample_steps, taken(i));
    report.sample_steps += taken(i);
    const std::uint8_t code = codes(i);
    if (code == status::running) ++report.unfinished;
    else if (code == status::finished) ++report.finished;
    else {
      ++report.failed;
      ++report.failures[code];
      if (report.first_failures.size() < Report::failures_named) {
        report.first_failures.push_back({static_cast<std::int64_t>(i), code});
      }
    }
  }
}

}  // namespace detail

/// Optional settings of a run.
struct RunOptions {
  Observer observer;            ///< called after every launch (e.g. eagle::ProgressLine)
  std::int64_t tile_lanes = 0;  ///< host tile size; 0: from the caches (or EAGLE_TILE_LANES)
  TileRule tile_rule;           ///< how the tile is sized from the caches
  AutoSteps auto_steps;         ///< how steps = auto picks K on device-style loop nests
};

/// Advances every sample until it terminates or has taken `max_steps` steps, on `exec`.
///
/// `state` (eagle::state(...)) is updated in place; `inputs` (eagle::inputs(...) or
/// eagle::no_inputs) is read; `terminated` holds each sample's flag on entry (samples already
/// terminated are not stepped) and on exit. Input errors throw std::invalid_argument before
/// anything is written.
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs,
                      const typename detail::NonDeduced<Kokkos::View<bool*, Mem>>::type& terminated,
                      std::int64_t max_steps, const RunOptions& options = {}) {
  using Traits = ModelTraits<Model>;
  // Dynamic: samples of a spread batch take very different numbers of steps, and a static split
  // leaves one thread with all the long ones (ignored where a space has no such choice).
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>;
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "eagle::run_until_done: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, Mem>::accessible,
                "eagle::run_until_done: the planes live in a memory space this execution space cannot access");
  static_assert(std::is_same<T, typename Traits::scalar_type>::value,
                "eagle::run_until_done: state planes must hold the model's scalar_type (non-const)");
  static_assert(NS == Traits::state_count,
                "eagle::run_until_done: eagle::state(...) must pass exactly Model::state_count planes");
  constexpr const char* function = "eagle::run_until_done";

  const auto in = detail::input_fields<T, Traits::input_count, Mem>(inputs);
  const auto n = static_cast<std::int64_t>(state.planes[0].extent(0));
  detail::require_positive_max_steps(function, max_steps);
  detail::check_extents(function, "state", state, n);
  detail::check_extents(function, "input", in, n);
  if (static_cast<std::int64_t>(terminated.extent(0)) != n) {
    throw std::invalid_argument(std::string(function) + ": the terminated plane has " +
                                std::to_string(terminated.extent(0)) + " samples, expected " + std::to_string(n));
  }
  const LoopNest nest = detail::resolve_nest<ExecSpace>(function, deployed.nest);
  TilePlan tiles;
  if (nest == LoopNest::tile) {
    // A lane's working set in the tile: its state, its inputs and its finish step.
    constexpr std::int64_t bytes_per_sample =
        sizeof(T) * (Traits::state_count + Traits::input_count) + sizeof(std::int32_t);
    tiles = host_tile_plan(Partition(0, n, n), bytes_per_sample, options.tile_lanes, options.tile_rule);
  }
  detail::require_finite(exec, function, "state", state, n);
  detail::require_finite(exec, function, "input", in, n);

  Report report;
  report.model = Traits::name();
  report.execution_space = ExecSpace::name();
  report.steps_setting = deployed.steps.describe();
  report.loop_nest = describe(nest);
  report.samples = n;
  report.tile_lanes = tiles.lanes;
  report.tiles = tiles.tiles;
  report.tile_reason = tiles.why;

  Kokkos::Timer timer;
  const detail::Bookkeeping<Mem> book{
      terminated, Kokkos::View<std::uint8_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::status"), n),
      Kokkos::View<std::int64_t*, Mem>("eagle::steps_taken", n)};
  std::int64_t active = detail::initialise_status(exec, terminated, book.status);
  if (n == 0) report.note = "no samples: no launch";
  else if (active == 0) report.note = "every sample was already terminated: no launch";

  std::vector<LaunchRecord> history;
  const std::string label = std::string("eagle::") + Traits::name() + "[K=";
  while (active > 0 && report.steps < max_steps) {
    const std::int64_t remaining = max_steps - report.steps;
    std::int64_t k = 0;
    if (deployed.steps.kind() == Steps::Kind::fixed) k = std::min<std::int64_t>(deployed.steps.k(), remaining);
    else if (nest == LoopNest::tile) k = std::min(tile_steps_per_launch, remaining);
    else k = options.auto_steps.next_k({history, n, exec.concurrency(), report.steps, max_steps});

    const std::int64_t before = active;
    if constexpr (detail::is_host_space<ExecSpace>) {
      if (nest == LoopNest::tile) {
        // A tile launch's steps are a runtime loop; long runs are split so the counter fits.
        k = std::min<std::int64_t>(k, std::numeric_limits<std::int32_t>::max() - 1);
        detail::with_tile(tiles.lanes, [&](auto lanes) {
          constexpr int Lanes = decltype(lanes)::value;
          const detail::TiledSteps<Model, Lanes, Mem> launch{deployed.model, state, in, book, n,
                                                            static_cast<std::int32_t>(k)};
          Kokkos::parallel_reduce(label + std::to_string(k) + ",tile=" + std::to_string(Lanes) + "]",
                                  Range(exec, 0, tiles.tiles), launch, active);
        });
      }
    }
    if (nest == LoopNest::per_sample) {
      detail::with_rung(k, [&](auto rung) {
        constexpr int K = decltype(rung)::value;
        const detail::FusedSteps<Model, K, Mem> launch{deployed.model, state, in, book, k};
        Kokkos::parallel_reduce(label + std::to_string(K) + "]", Range(exec, 0, n), launch, active);
      });
    }
    history.push_back({k, before, active});
    ++report.launches;
    report.steps += k;
    ++report.launches_by_k[k];
    if (options.observer) {
      options.observer({report.launches, k, active, n, report.steps, max_steps, timer.seconds()});
    }
  }

  detail::summarise(book, report);
  report.exact_steps = report.longest_sample_steps == report.steps;
  report.capped = active > 0;
  report.seconds = timer.seconds();
  return report;
}

/// As above, with every sample starting unterminated (a flag plane eagle allocates).
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value>>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs, std::int64_t max_steps, const RunOptions& options = {}) {
  const Kokkos::View<bool*, Mem> terminated("eagle::terminated", state.planes[0].extent(0));
  return run_until_done(exec, deployed, state, inputs, terminated, max_steps, options);
}

/// As above, on Kokkos::DefaultExecutionSpace.
template <class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state, const Inputs& inputs,
                      std::int64_t max_steps, const RunOptions& options = {}) {
  return run_until_done(Kokkos::DefaultExecutionSpace(), deployed, state, inputs, max_steps, options);
}

}  // namespace eagle
