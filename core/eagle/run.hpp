#pragma once
// run_until_done: launch until every sample is terminated or max_steps is reached.

#include <eagle/auto_steps.hpp>
#include <eagle/checkpoint.hpp>
#include <eagle/compaction.hpp>
#include <eagle/compaction_costs.hpp>
#include <eagle/deploy.hpp>
#include <eagle/detail/active_set.hpp>
#include <eagle/detail/checkpoint_io.hpp>
#include <eagle/detail/checks.hpp>
#include <eagle/detail/fused_steps.hpp>
#include <eagle/detail/launch.hpp>
#include <eagle/detail/region.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/fields.hpp>
#include <eagle/host_caches.hpp>
#include <eagle/host_tile.hpp>
#include <eagle/ladder.hpp>
#include <eagle/launch_costs.hpp>
#include <eagle/model.hpp>
#include <eagle/progress.hpp>
#include <eagle/report.hpp>
#include <eagle/status.hpp>
#include <eagle/steps.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

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

/// Fills the report from the per-sample bookkeeping: counts by status, the longest sample and the
/// work done as reductions on the run's space; the first failing samples and the failures by code
/// on the host, only when some failed.
template <class ExecSpace, class Mem>
void summarise(const ExecSpace& exec, const Bookkeeping<Mem>& book, Report& report) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const auto n = static_cast<std::int64_t>(book.status.extent(0));
  const auto codes = book.status;
  const auto taken = book.steps_taken;
  std::int64_t running = 0, finished = 0, longest = 0, sample_steps = 0;
  Kokkos::parallel_reduce(
      "eagle::summary_counts", Range(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& r, std::int64_t& f) {
        r += codes(i) == status::running ? 1 : 0;
        f += codes(i) == status::finished ? 1 : 0;
      },
      running, finished);
  Kokkos::parallel_reduce(
      "eagle::summary_steps", Range(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) { sum += taken(i); }, sample_steps);
  Kokkos::parallel_reduce(
      "eagle::summary_longest", Range(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& m) { m = taken(i) > m ? taken(i) : m; },
      Kokkos::Max<std::int64_t>(longest));
  report.unfinished = running;
  report.finished = finished;
  report.failed = n - running - finished;
  report.sample_steps = sample_steps;
  report.longest_sample_steps = n > 0 ? longest : 0;
  if (report.failed == 0) return;
  const std::vector<std::uint8_t> host_codes = host_values<std::uint8_t>(exec, codes);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint8_t code = host_codes[static_cast<std::size_t>(i)];
    if (code == status::running || code == status::finished) continue;
    ++report.failures[code];
    if (report.first_failures.size() < Report::failures_named) report.first_failures.push_back({i, code});
  }
}

}  // namespace detail

/// Optional settings of a run.
struct RunOptions {
  Observer observer;            ///< called after every launch (e.g. eagle::ProgressLine)
  std::int64_t tile_lanes = 0;  ///< host tile size; 0: from the caches (or EAGLE_TILE_LANES)
  TileRule tile_rule;           ///< how the tile is sized from the caches
  AutoSteps auto_steps;         ///< how steps = auto picks K on device-style loop nests
  /// The auto rule's launch costs; empty: measured on first use (launch_costs.hpp). A value with
  /// `measured` false makes the rule keep to its masked-work budget instead.
  std::optional<LaunchCosts> launch_costs;
  /// What to do about finished samples (eagle/compaction.hpp); automatic weighs measured costs.
  Compaction compaction = Compaction::automatic;
  /// The automatic rule's constants; empty: measured on first use (compaction_costs.hpp).
  std::optional<CompactionCosts> compaction_costs;
  /// Revival: at most this many samples in flight, unstarted ones streaming into finished samples'
  /// slots; 0: the whole batch at once.
  std::int64_t in_flight = 0;
  /// Write checkpoints of the run in flight (eagle/checkpoint.hpp).
  CheckpointSettings checkpoint;
  /// Continue the run saved in this checkpoint instead of starting from `state` (whose values are
  /// replaced); the model, planes, inputs, max_steps, steps and loop nest must match.
  std::string resume_from;
};

/// Advances every sample until it terminates or has taken `max_steps` steps, on `exec`.
///
/// `state` (eagle::state(...)) is updated in place; `inputs` (eagle::inputs(...) or
/// eagle::no_inputs) is read; `terminated` holds each sample's flag on entry (samples already
/// terminated are not stepped) and on exit. Input errors throw std::invalid_argument before
/// anything is written. Compaction may permute the planes' rows while the run goes; they are back
/// in the caller's order when it returns or throws.
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs,
                      const typename detail::NonDeduced<Kokkos::View<bool*, Mem>>::type& terminated,
                      std::int64_t max_steps, const RunOptions& options = {}) {
  using Traits = ModelTraits<Model>;
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "eagle::run_until_done: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, Mem>::accessible,
                "eagle::run_until_done: the planes live in a memory space this execution space cannot access");
  static_assert(std::is_same<T, typename Traits::scalar_type>::value,
                "eagle::run_until_done: state planes must hold the model's scalar_type (non-const)");
  static_assert(NS == Traits::state_count,
                "eagle::run_until_done: eagle::state(...) must pass exactly Model::state_count planes");
  constexpr const char* function = "eagle::run_until_done";
  using detail::RowIndex;

  const auto in = detail::input_fields<T, Traits::input_count, Mem>(inputs);
  const auto n = static_cast<std::int64_t>(state.planes[0].extent(0));
  detail::require_positive_max_steps(function, max_steps);
  detail::check_extents(function, "state", state, n);
  detail::check_extents(function, "input", in, n);
  if (static_cast<std::int64_t>(terminated.extent(0)) != n) {
    throw std::invalid_argument(std::string(function) + ": the terminated plane has " +
                                std::to_string(terminated.extent(0)) + " samples, expected " + std::to_string(n));
  }
  if (options.in_flight < 0) {
    throw std::invalid_argument(std::string(function) + ": in_flight must be 0 (all) or positive, got " +
                                std::to_string(options.in_flight));
  }
  if (options.tile_lanes < 0) {
    throw std::invalid_argument(std::string(function) +
                                ": tile_lanes must be 0 (sized from the caches) or positive, got " +
                                std::to_string(options.tile_lanes));
  }
  const bool compacting = options.compaction != Compaction::off;
  const bool rows_fit = n <= std::numeric_limits<RowIndex>::max();
  if ((compacting || options.in_flight > 0) && !rows_fit && options.compaction != Compaction::automatic) {
    throw std::invalid_argument(std::string(function) + ": compaction and in_flight index rows in 32 bits; " +
                                std::to_string(n) + " samples is too many, run the batch in parts");
  }
  const LoopNest nest = detail::resolve_nest<ExecSpace>(function, deployed.nest);
  TilePlan tiles;
  if (nest == LoopNest::tile) {
    // A lane's working set in the tile: its state, its inputs and its finish step.
    constexpr std::int64_t bytes_per_sample =
        sizeof(T) * (Traits::state_count + Traits::input_count) + sizeof(std::int32_t);
    tiles = host_tile_plan(Partition(0, n, n), bytes_per_sample, options.tile_lanes, options.tile_rule);
  }
  const CheckpointSettings& every = options.checkpoint;
  if (!every.path.empty() && !(every.every_launches > 0 || every.every_seconds > 0.0)) {
    throw std::invalid_argument(std::string(function) + ": checkpoint.path is set, but neither every_launches (" +
                                std::to_string(every.every_launches) + ") nor every_seconds (" +
                                std::to_string(every.every_seconds) + ") is positive");
  }
  if (!every.path.empty()) probe_checkpoint_path(every.path);
  if (options.resume_from.empty()) detail::require_finite(exec, function, "state", state, n);
  detail::require_finite(exec, function, "input", in, n);

  const detail::Region run_region("eagle::run_until_done");
  Report report;
  report.model = Traits::name();
  report.execution_space = ExecSpace::name();
  report.steps_setting = deployed.steps.describe();
  report.loop_nest = describe(nest);
  report.samples = n;
  report.tile_lanes = tiles.lanes;
  report.tiles = tiles.tiles;
  report.tile_reason = tiles.why;
  report.compaction = describe(rows_fit ? options.compaction : Compaction::off);

  // A resume's checkpoint is read and checked before anything is written.
  const bool resuming = !options.resume_from.empty();
  const bool checkpointing = !options.checkpoint.path.empty();
  Checkpoint saved;
  if (resuming || checkpointing) {
    saved.model = Traits::name();
    saved.scalar_bytes = sizeof(T);
    saved.state_count = NS;
    saved.input_count = Traits::input_count;
    saved.samples = n;
    saved.max_steps = max_steps;
    saved.steps_setting = report.steps_setting;
    saved.loop_nest = report.loop_nest;
    saved.part = options.checkpoint.part;
    saved.in_flight = options.in_flight;
    saved.inputs_crc = detail::planes_crc(exec, in);
    saved.parameters_crc = detail::parameters_crc(deployed.model);
  }
  if (resuming) {
    const detail::Region region("eagle::restore");
    Checkpoint found = read_checkpoint_file(options.resume_from);
    detail::require_same_run(function, options.resume_from, found, saved);
    saved = std::move(found);
    report.resumed_from = options.resume_from;
  }

  Kokkos::Timer timer;
  const double seconds_before = saved.seconds;
  const detail::Bookkeeping<Mem> book{
      terminated, Kokkos::View<std::uint8_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::status"), n),
      Kokkos::View<std::int64_t*, Mem>("eagle::steps_taken", n)};
  std::int64_t active = resuming ? saved.active : detail::initialise_status(exec, terminated, book.status);
  if (n == 0)
    report.note = "no samples: no launch";
  else if (active == 0)
    report.note = "every sample was already terminated: no launch";

  const detail::Launcher<ExecSpace, Model, Mem> launch{exec, deployed.model, state,       in,
                                                       book, nest,           tiles.lanes, max_steps};
  // Rows [0, span) hold every sample still to step; the launch visits `rows`; revival streams the
  // unstarted rows [next_pending, end_pending) into the window [0, in_flight).
  detail::Rows<Mem> rows{{}, {}, n};
  detail::RowPlanes<T, NS, Mem> planes{state, book, {}};
  std::int64_t span = n;
  std::int64_t next_pending = 0;
  std::int64_t end_pending = 0;
  std::vector<LaunchRecord> history;
  detail::IndexBuffers<Mem> buffers;
  std::int64_t rows_moved_before = 0;  // by the run a checkpoint resumes; this run's are on the device
  const auto track_extra_bytes = [&](std::int64_t transient) {
    const auto held = buffers.bytes() + static_cast<std::int64_t>(sizeof(RowIndex) * planes.origin.extent(0));
    report.extra_bytes_peak = std::max(report.extra_bytes_peak, held + transient);
  };
  const auto count_rows_moved = [&] { report.rows_moved = rows_moved_before + buffers.rows_moved(); };
  const auto permute_rows = [&] {
    if (planes.origin.extent(0) > 0) return;
    planes.origin = detail::identity_rows<ExecSpace, Mem>(exec, n);
    rows.origin = planes.origin;
  };
  const auto restore_order = [&] {
    if (planes.origin.extent(0) == 0) return;
    const Kokkos::View<const RowIndex*, Mem> origin = planes.origin;
    for (int f = 0; f < NS; ++f) detail::restore_plane(exec, state.planes[f], origin);
    detail::restore_plane(exec, book.terminated, origin);
    detail::restore_plane(exec, book.status, origin);
    detail::restore_plane(exec, book.steps_taken, origin);
    track_extra_bytes(static_cast<std::int64_t>(sizeof(std::int64_t)) * n);
    planes.origin = {};
  };
  const auto record_launch = [&](const LaunchRecord& l) {
    history.push_back(l);
    ++report.launches;
    report.steps += l.k;
    report.lane_steps += l.active_before * l.k;
    ++report.launches_by_k[l.k];
  };

  if (resuming) {  // the rows exactly as they lay when the checkpoint was taken
    const detail::Region region("eagle::restore");
    for (int f = 0; f < NS; ++f) detail::load_values(exec, state.planes[f], saved.state_planes[f]);
    detail::load_values(exec, book.terminated, saved.terminated);
    detail::load_values(exec, book.status, saved.status);
    detail::load_values(exec, book.steps_taken, saved.steps_taken);
    if (!saved.origin.empty()) {
      planes.origin = Kokkos::View<RowIndex*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::origin"), n);
      detail::load_values(exec, planes.origin, saved.origin);
      rows.origin = planes.origin;
    }
    if (!saved.map.empty()) {
      const Kokkos::View<RowIndex*, Mem> map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::active_map"),
                                             saved.map.size());
      detail::load_values(exec, map, saved.map);
      rows.map = buffers.maps[buffers.map_in_use] = map;
    }
    rows.count = saved.slots;
    span = saved.span;
    next_pending = saved.next_pending;
    end_pending = saved.end_pending;
    for (const auto& h : saved.history) record_launch({h[0], h[1], h[2]});
    report.compaction_actions = saved.compaction_actions;
    report.rows_moved = rows_moved_before = saved.rows_moved;
    report.revived = saved.revived;
    report.extra_bytes_peak = saved.extra_bytes_peak;
    report.scanned_slots = saved.scanned_slots;
    report.in_flight = end_pending > 0 ? options.in_flight : 0;
    report.note = "resumed after launch " + std::to_string(report.launches);
  }
  const auto write_checkpoint = [&] {
    const detail::Region region("eagle::checkpoint_write");
    Checkpoint& c = saved;
    count_rows_moved();
    c.history.clear();
    for (const LaunchRecord& l : history) c.history.push_back({l.k, l.active_before, l.active_after});
    c.seconds = seconds_before + timer.seconds();
    c.active = active;
    c.compaction_actions = report.compaction_actions;
    c.rows_moved = report.rows_moved;
    c.revived = report.revived;
    c.extra_bytes_peak = report.extra_bytes_peak;
    c.scanned_slots = report.scanned_slots;
    c.span = span;
    c.slots = rows.count;
    c.next_pending = next_pending;
    c.end_pending = end_pending;
    c.state_planes.clear();
    for (int f = 0; f < NS; ++f) c.state_planes.push_back(detail::host_values<unsigned char>(exec, state.planes[f]));
    c.terminated = detail::host_values<unsigned char>(exec, book.terminated);
    c.status = detail::host_values<std::uint8_t>(exec, book.status);
    c.steps_taken = detail::host_values<std::int64_t>(exec, book.steps_taken);
    c.origin =
        planes.origin.extent(0) > 0 ? detail::host_values<RowIndex>(exec, planes.origin) : std::vector<RowIndex>{};
    c.map = rows.map.extent(0) > 0 ? detail::host_values<RowIndex>(exec, rows.map) : std::vector<RowIndex>{};
    write_checkpoint_file(options.checkpoint.path, c);
    ++report.checkpoints_written;
  };

  LaunchCosts weighed;  // what steps = auto weighs; a finished lane's idling also weighs on compaction

  // After a launch: stream unstarted samples into freed slots, or drop finished ones as the rule says.
  const auto drop_finished = [&](const LaunchRecord& last) {
    if (end_pending > next_pending) {
      const detail::Region region("eagle::revival");
      const std::int64_t revived = detail::revive_rows(exec, planes, rows.count, rows.count - last.active_after,
                                                       next_pending, end_pending, max_steps, buffers);
      next_pending += revived;
      report.revived += revived;
      track_extra_bytes(0);
      if (next_pending == end_pending) span = rows.count;  // every sample still to step is in the window
      return;
    }
    if (!compacting) return;
    const detail::Region region("eagle::compaction");
    const std::int64_t launches_left = end_pending > 0 ? max_steps : (max_steps - report.steps + last.k - 1) / last.k;
    const bool weighs = options.compaction == Compaction::automatic;  // map and reorder act regardless
    static const CompactionCosts unweighed{};
    const CompactionCosts& costs = options.compaction_costs ? *options.compaction_costs
                                   : weighs                 ? compaction_costs(launch)
                                                            : unweighed;  // a reference: no copy per launch
    if (weighs) report.compaction_costs = costs.source;
    const CompactionDecision decision = decide_compaction(
        {options.compaction, rows.count, last.active_after, detail::RowPlanes<T, NS, Mem>::bytes_per_row,
         expected_launches_ahead(last.active_after, last.active_before - last.active_after, launches_left),
         static_cast<double>(last.k) * weighed.masked_step_seconds},
        costs);
    ++report.compaction_actions[describe(decision.action)];
    report.compaction_why[describe(decision.action)] = decision.why;
    if (decision.action == CompactionDecision::Action::map) {
      report.scanned_slots += rows.count;
      rows.map =
          detail::active_map(exec, book, rows, last.active_after, max_steps, buffers.next_map(last.active_after));
      rows.count = last.active_after;
      track_extra_bytes(0);
    } else if (decision.action == CompactionDecision::Action::reorder) {
      permute_rows();
      report.scanned_slots += span;
      detail::reorder_rows(exec, planes, span, last.active_after, max_steps, buffers);
      track_extra_bytes(0);
      rows.map = {};
      span = rows.count = last.active_after;
    }
  };

  try {
    if (!resuming && rows_fit && options.in_flight > 0 && options.in_flight < active) {
      permute_rows();  // the samples to run first, in order, then the window over them
      detail::reorder_rows(exec, planes, n, active, max_steps, buffers);
      span = end_pending = active;
      next_pending = rows.count = options.in_flight;
      report.in_flight = options.in_flight;
      track_extra_bytes(0);
    }
    double last_checkpoint = timer.seconds();
    while (active > 0) {
      // With revival, samples start at different launches: each is capped on its own steps.
      const std::int64_t remaining = end_pending > 0 ? max_steps : max_steps - report.steps;
      std::int64_t k = 0;
      if (deployed.steps.kind() == Steps::Kind::fixed)
        k = std::min<std::int64_t>(deployed.steps.k(), remaining);
      else if (nest == LoopNest::tile)
        k = std::min(tile_steps_per_launch, remaining);
      else {
        const bool in_flight_at_once = rows.count <= exec.concurrency();  // the rule needs no costs
        weighed = options.launch_costs ? *options.launch_costs
                  : in_flight_at_once  ? LaunchCosts{}
                                       : launch_costs(launch);
        if (report.launch_costs.empty()) report.launch_costs = describe(weighed);
        const AutoStepsInput seen{history, rows.count, exec.concurrency(), max_steps - remaining, max_steps, weighed};
        k = options.auto_steps.next_k(seen);
      }
      if (nest == LoopNest::tile) k = std::min(k, launch.tile_step_limit);

      const std::int64_t waiting = end_pending - next_pending;
      const std::int64_t before = active - waiting;
      const std::int64_t after = launch(rows, k, rows_fit && compacting);
      record_launch({k, before, after});
      active = after + waiting;
      if (options.observer) {
        options.observer({report.launches, k, active, n, report.steps, max_steps, seconds_before + timer.seconds()});
      }
      if (active == 0) break;
      if (rows_fit) drop_finished(history.back());
      if (checkpointing && ((every.every_launches > 0 && report.launches % every.every_launches == 0) ||
                            (every.every_seconds > 0.0 && timer.seconds() - last_checkpoint >= every.every_seconds))) {
        write_checkpoint();
        last_checkpoint = timer.seconds();
      }
    }
  } catch (...) {
    restore_order();  // the caller's rows back in their order, whatever went wrong
    throw;
  }
  const detail::Region region("eagle::summary");
  restore_order();
  count_rows_moved();
  detail::summarise(exec, book, report);
  report.exact_steps = report.longest_sample_steps == report.steps;
  report.capped = report.unfinished > 0;
  report.seconds = seconds_before + timer.seconds();
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
