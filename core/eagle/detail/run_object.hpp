#pragma once
// One call of run_until_done as an object: its phases are member functions and what they share
// are members, so one launch reads top to bottom in `go`:
//   check the call (run.hpp, before anything is built)  ->  plan (nest, tile)  ->  start or resume
//   ->  per launch: pick K, launch, record, act on finished samples, checkpoint  ->  finish.

#include <eagle/auto_steps.hpp>
#include <eagle/checkpoint.hpp>
#include <eagle/compaction.hpp>
#include <eagle/compaction_costs.hpp>
#include <eagle/deploy.hpp>
#include <eagle/detail/active_set.hpp>
#include <eagle/detail/checkpoint_io.hpp>
#include <eagle/detail/fused_steps.hpp>
#include <eagle/detail/launch.hpp>
#include <eagle/detail/region.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/detail/sample_blocks.hpp>
#include <eagle/detail/saturating.hpp>
#include <eagle/detail/signal_watch.hpp>
#include <eagle/fields.hpp>
#include <eagle/host_caches.hpp>
#include <eagle/host_tile.hpp>
#include <eagle/launch_costs.hpp>
#include <eagle/model.hpp>
#include <eagle/report.hpp>
#include <eagle/run_options.hpp>
#include <eagle/run_stopped.hpp>
#include <eagle/status.hpp>
#include <eagle/steps.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace eagle::detail {

/// Samples terminated on entry count as finished, the others start running; no sample has taken
/// a step. Returns how many run.
template <class ExecSpace, class Mem>
std::int64_t initialise_status(const ExecSpace& exec, const Bookkeeping<Mem>& book) {
  const auto n = static_cast<std::int64_t>(book.terminated.extent(0));
  const std::int64_t block = pass_block<ExecSpace>;
  std::int64_t running = 0;
  Kokkos::parallel_reduce(
      "eagle::initial_status",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, pass_blocks<ExecSpace>(n)),
      KOKKOS_LAMBDA(const std::int64_t b, std::int64_t& sum) {
        const SampleBlock samples(b, block, n);
        // Through pointers held in registers: a byte store may alias a View's own pointer, which
        // would then be read again at every sample and keep the loop off SIMD lanes. The flags are
        // read as bytes, and a loop per width: GCC 12 keeps a loop that widens bools, or mixes
        // bytes with 64-bit steps, off SIMD lanes.
        const auto* const terminated = reinterpret_cast<const std::uint8_t*>(book.terminated.data());
        std::uint8_t* const code = book.status.data();
        std::int64_t* const steps = book.steps_taken.data();
        std::int32_t runs = 0;  // a block's count fits
        for (std::int64_t i = samples.begin; i < samples.end; ++i) {
          code[i] = terminated[i] != 0 ? status::finished : status::running;
          runs += terminated[i] == 0 ? 1 : 0;
        }
        for (std::int64_t i = samples.begin; i < samples.end; ++i) steps[i] = 0;
        sum += runs;
      },
      running);
  return running;
}

/// When the run ends: samples still running at their cap are capped, and the report gets the counts
/// by status, the longest sample and the work done, in one pass on the run's space; the first
/// failing samples and the failures by code on the host, only when some failed.
template <class ExecSpace, class Mem>
void summarise(const ExecSpace& exec, const Bookkeeping<Mem>& book, std::int64_t max_steps, Report& report) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const auto n = static_cast<std::int64_t>(book.status.extent(0));
  const std::int64_t block = pass_block<ExecSpace>;
  const auto codes = book.status;
  const auto taken = book.steps_taken;
  std::int64_t running = 0, finished = 0, longest = 0, sample_steps = 0;
  Kokkos::parallel_reduce(
      "eagle::summary", Range(exec, 0, pass_blocks<ExecSpace>(n)),
      KOKKOS_LAMBDA(const std::int64_t b, std::int64_t& r, std::int64_t& f, std::int64_t& sum, std::int64_t& most) {
        const SampleBlock samples(b, block, n);
        // Pointers and the cap in registers, as in initialise_status. Three loops of one width
        // each run on SIMD lanes (one loop over bytes and 64-bit steps together ran scalar, 5
        // cycles a sample); codes are written only in a block where a sample reached the cap.
        std::uint8_t* const code_of = codes.data();
        const std::int64_t* const steps_of = taken.data();
        const std::int64_t cap = max_steps;
        std::int64_t steps_sum = 0, steps_most = 0;
        for (std::int64_t i = samples.begin; i < samples.end; ++i) {
          steps_sum += steps_of[i];
          steps_most = steps_of[i] > steps_most ? steps_of[i] : steps_most;
        }
        if (steps_most >= cap) {
          for (std::int64_t i = samples.begin; i < samples.end; ++i) {
            if (code_of[i] == status::running && steps_of[i] >= cap) code_of[i] = status::capped;
          }
        }
        std::int32_t runs = 0, done = 0;  // a block's counts fit
        for (std::int64_t i = samples.begin; i < samples.end; ++i) {
          const std::uint8_t code = code_of[i];
          runs += code == status::running || code == status::capped ? 1 : 0;
          done += status::is_finished(code) ? 1 : 0;
        }
        r += runs;
        f += done;
        sum += steps_sum;
        if (steps_most > most) most = steps_most;
      },
      running, finished, sample_steps, Kokkos::Max<std::int64_t>(longest));
  report.unfinished = running;
  report.finished = finished;
  report.failed = n - running - finished;
  report.sample_steps = sample_steps;
  report.longest_sample_steps = n > 0 ? longest : 0;
  if (report.failed == 0) return;
  const std::vector<std::uint8_t> host_codes = host_values<std::uint8_t>(exec, codes);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint8_t code = host_codes[static_cast<std::size_t>(i)];
    if (code == status::running || code == status::capped || status::is_finished(code)) continue;
    ++report.failures[code];
    if (report.first_failures.size() < Report::failures_named) report.first_failures.push_back({i, code});
  }
}

/// A run already checked (run.hpp): its plan, its rows and its report, phase by phase.
template <class ExecSpace, class Model, class Mem>
class Run {
  using Traits = ModelTraits<Model>;
  using T = typename Traits::scalar_type;
  static constexpr int NS = Traits::state_count;

 public:
  Run(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
      const Fields<const T, Traits::input_count, Mem>& inputs, const Bookkeeping<Mem>& book, std::int64_t max_steps,
      LoopNest nest, const RunOptions& options, const SignalWatch& watch)
      : steps_(deployed.steps),
        options_(options),
        watch_(watch),
        n_(static_cast<std::int64_t>(state.planes[0].extent(0))),
        launch_{exec, deployed.model, state, inputs, book, nest, 0, max_steps, options.first_sample},
        rows_fit_(n_ <= std::numeric_limits<RowIndex>::max()),
        compacting_(options.compaction != Compaction::off),
        rows_{{}, {}, n_},
        planes_{state, launch_.book, {}},
        span_(n_) {
    plan(deployed);
  }

  /// Starts (or resumes), launches until no sample runs, and finishes; the caller's rows are back
  /// in their order however it ends.
  Report go() {
    const Region region("eagle::run_until_done");
    try {
      start_or_resume();
      while (active_ > 0) {
        const std::int64_t k = next_k();
        launch_and_record(k);
        if (active_ == 0) break;
        between_launches();
        if (report_.interrupted) break;
      }
    } catch (...) {
      restore_order();
      throw;
    }
    return finish();
  }

 private:
  const ExecSpace& exec() const { return launch_.exec; }
  std::int64_t max_steps() const { return launch_.max_steps; }

  /// Plan: what the report says about the run before it starts, and the host tile's size.
  void plan(const Deployed<Model>& deployed) {
    report_.model = Traits::name();
    report_.execution_space = ExecSpace::name();
    report_.steps_setting = deployed.steps.describe();
    report_.loop_nest = describe(launch_.nest);
    report_.samples = n_;
    report_.compaction = describe(rows_fit_ ? options_.compaction : Compaction::off);
    if (launch_.nest != LoopNest::tile) return;
    // A lane's working set in the tile: its state, its inputs and its finish step.
    constexpr std::int64_t bytes_per_sample = sizeof(T) * (NS + Traits::input_count) + sizeof(std::int32_t);
    std::int64_t group = 1;  // lanes the tile steps together
    if constexpr (is_host_space<ExecSpace>) group = TiledSteps<Model, 1, Mem>::group;
    const TilePlan tiles =
        host_tile_plan(Partition(0, n_, n_), bytes_per_sample, options_.tile_lanes, options_.tile_rule, group);
    launch_.tile_lanes = tiles.lanes;
    report_.tile_lanes = tiles.lanes;
    report_.tiles = tiles.tiles;
    report_.tile_reason = tiles.why;
  }

  /// Start: every sample's status from its flag, and the first window when samples stream in.
  /// Resume: the checkpoint read and checked before anything is written, then its rows loaded.
  void start_or_resume() {
    const bool resuming = !options_.resume_from.empty();
    if (resuming || checkpointing()) saved_ = run_identity();
    if (resuming) {
      resume();
    } else {
      active_ = initialise_status(exec(), launch_.book);
      if (n_ == 0)
        report_.note = "no samples: no launch";
      else if (active_ == 0)
        report_.note = "every sample was already terminated: no launch";
      if (rows_fit_ && options_.in_flight > 0 && options_.in_flight < active_) start_window();
    }
    last_checkpoint_ = timer_.seconds();
  }

  /// What a checkpoint of this run must match to be resumed by it.
  Checkpoint run_identity() const {
    Checkpoint c;
    c.model = Traits::name();
    c.model_type = model_type_of<Model>();
    c.scalar_bytes = sizeof(T);
    c.state_count = NS;
    c.input_count = Traits::input_count;
    c.samples = n_;
    c.max_steps = max_steps();
    c.steps_setting = report_.steps_setting;
    c.loop_nest = report_.loop_nest;
    c.part = options_.checkpoint.part;
    c.in_flight = options_.in_flight;
    c.inputs_crc = planes_crc(exec(), launch_.inputs);
    c.parameters_crc = parameters_crc(launch_.model);
    return c;
  }

  void resume() {
    const Region region("eagle::restore");
    Checkpoint found = read_checkpoint_file(options_.resume_from);
    require_same_run("eagle::run_until_done", options_.resume_from, found, saved_);
    std::size_t memory_bytes = 0;
    if constexpr (WritesMemory<Model>::value) memory_bytes = model_memory().extent(0);
    if (found.model_memory.size() != memory_bytes) {
      throw std::invalid_argument("eagle::run_until_done: checkpoint '" + options_.resume_from +
                                  "' was written for a model writing " + std::to_string(found.model_memory.size()) +
                                  " bytes of its own memory, this run's model writes " + std::to_string(memory_bytes));
    }
    saved_ = std::move(found);
    report_.resumed_from = options_.resume_from;
    seconds_before_ = saved_.seconds;
    visit_carried([](auto& member, const auto& saved) { member = saved; });
    visit_planes([&](const auto& plane, const auto& saved) { load_values(exec(), plane, saved); });
    if (!saved_.origin.empty()) {
      const Kokkos::View<RowIndex*, Mem> origin(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::origin"), n_);
      load_values(exec(), origin, saved_.origin);
      hold_origin(origin);
    }
    if (!saved_.map.empty()) {
      const Kokkos::View<RowIndex*, Mem> map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::active_map"),
                                             saved_.map.size());
      load_values(exec(), map, saved_.map);
      rows_.map = buffers_.maps[buffers_.map_in_use] = map;
    }
    if constexpr (WritesMemory<Model>::value) load_values(exec(), model_memory(), saved_.model_memory);
    for (const auto& h : saved_.history) record({h[0], h[1], h[2]});
    report_.rows_moved = rows_moved_before_ = saved_.rows_moved;
    report_.in_flight = end_pending_ > 0 ? options_.in_flight : 0;
    report_.note = "resumed after launch " + std::to_string(report_.launches);
  }

  /// Revival's start: the samples to run first, in order, then the window over the first of them.
  void start_window() {
    permute_rows();
    reorder_rows(exec(), planes_, n_, active_, max_steps(), buffers_);
    span_ = end_pending_ = active_;
    next_pending_ = rows_.count = options_.in_flight;
    report_.in_flight = options_.in_flight;
    track_extra_bytes();
  }

  /// K for the next launch: fixed, the tile's largest, or the auto rule's from the costs it weighs.
  std::int64_t next_k() {
    // With revival, samples start at different launches: each is capped on its own steps.
    const std::int64_t remaining = end_pending_ > 0 ? max_steps() : max_steps() - report_.steps;
    std::int64_t k = 0;
    if (steps_.kind() == Steps::Kind::fixed) {
      k = std::min<std::int64_t>(steps_.k(), remaining);
    } else if (launch_.nest == LoopNest::tile) {
      k = std::min(tile_steps_per_launch, remaining);
    } else {
      weighed_ = options_.launch_costs ? *options_.launch_costs : probed([&] { return launch_costs(launch_); });
      if (!report_.launch_costs) report_.launch_costs = weighed_;
      const AutoStepsInput seen{history_,    rows_.count, exec().concurrency(), max_steps() - remaining,
                                max_steps(), weighed_};
      k = options_.auto_steps.next_k(seen);
    }
    if (steps_.kind() != Steps::Kind::fixed) k = std::min(k, steps_within_launch_bound());
    return launch_.nest == LoopNest::tile ? std::min(k, launch_.tile_step_limit) : k;
  }

  /// The most steps a launch the run picks may take while something waits on launches ending (a
  /// watched signal, a checkpoint cadence, an observer): a short first launch, then as many steps
  /// as fit the bound at the last launch's time per step (samples only finish, so that time per
  /// step does not grow).
  std::int64_t steps_within_launch_bound() const {
    const CheckpointSettings& c = options_.checkpoint;
    double bound = std::numeric_limits<double>::infinity();
    if (c.on_signal != 0 || c.every_launches > 0) bound = c.longest_launch_seconds;
    if (c.every_seconds > 0.0) bound = std::min(c.longest_launch_seconds, c.every_seconds);
    if (options_.observer) bound = std::min(bound, options_.observer_seconds);
    if (bound == std::numeric_limits<double>::infinity()) return counter_limit;
    constexpr std::int64_t first_launch_steps = 16;
    if (history_.empty() || last_launch_seconds_ <= 0.0) return first_launch_steps;
    const double fit = bound / (last_launch_seconds_ / static_cast<double>(history_.back().k));
    return fit >= static_cast<double>(counter_limit) ? counter_limit : std::max<std::int64_t>(1, std::llround(fit));
  }

  void launch_and_record(std::int64_t k) {
    const std::int64_t waiting = end_pending_ - next_pending_;
    // Counts deferred only where no row can reach the cap in the launch: no row has taken more
    // steps than the run has launched. Revival's rows start at different launches: exact counts.
    const bool deferred = launch_.nest == LoopNest::per_sample && end_pending_ == 0 && report_.steps + k < max_steps();
    if (!deferred) write_owed_steps();
    const Kokkos::Timer launch_timer;
    const std::int64_t after = launch_(rows_, k, rows_fit_ && compacting_, {deferred, owed_steps_});
    if (deferred) owed_steps_ += k;
    last_launch_seconds_ = launch_timer.seconds();
    // Taught to the rule only where it measured its costs: given costs are a model that replays exactly.
    const double seconds = options_.launch_costs ? 0.0 : last_launch_seconds_;
    record({k, active_ - waiting, after, rows_.count, seconds});
    active_ = after + waiting;
    if (options_.observer) {
      options_.observer({report_.launches, k, active_, n_, report_.steps, max_steps(), run_seconds()});
    }
  }

  /// The step counts deferred launches left unwritten, settled: before anything reads them or
  /// the rows they are owed to change.
  void write_owed_steps() {
    if (owed_steps_ == 0) return;
    detail::write_owed_steps(exec(), launch_.book, rows_, owed_steps_);
    owed_steps_ = 0;
  }

  void record(const LaunchRecord& l) {
    history_.push_back(l);
    ++report_.launches;
    report_.steps = saturating_add(report_.steps, l.k);
    report_.lane_steps = saturating_add_product(report_.lane_steps, l.active_before, l.k);
    ++report_.launches_by_k[l.k];
  }

  /// After a launch that left samples running: finished samples acted on, a checkpoint when due
  /// or when the watched signal came (the run then stops). A failure of eagle's own here (memory,
  /// a write) stops the run with every row as the launch left it.
  void between_launches() {
    try {
      if (rows_fit_) act_on_finished(history_.back());
      if (watch_.seen()) {
        write_checkpoint();
        report_.interrupted = true;
        report_.note = "interrupted by signal " + std::to_string(watch_.signal()) + " after launch " +
                       std::to_string(report_.launches) + ": checkpoint written to " + options_.checkpoint.path;
        return;
      }
      checkpoint_if_due();
    } catch (const std::exception& e) {
      throw RunStopped(std::string(e.what()) + "; the run stopped after launch " + std::to_string(report_.launches) +
                           ": every sample's state and terminated flag are as that launch left them, in the "
                           "caller's order",
                       report_.launches, report_.steps);
    }
  }

  /// Stream unstarted samples into freed slots, or drop finished ones as the rule says.
  void act_on_finished(const LaunchRecord& last) {
    if (end_pending_ > next_pending_)
      revive(last);
    else if (compacting_)
      compact(last);
  }

  void revive(const LaunchRecord& last) {
    const Region region("eagle::revival");
    const std::int64_t revived = revive_rows(exec(), planes_, rows_.count, rows_.count - last.active_after,
                                             next_pending_, end_pending_, max_steps(), buffers_);
    next_pending_ += revived;
    report_.revived += revived;
    track_extra_bytes();
    if (next_pending_ == end_pending_) span_ = rows_.count;  // every sample still to step is in the window
  }

  void compact(const LaunchRecord& last) {
    const Region region("eagle::compaction");
    const CompactionDecision decision = decide(last);
    ++report_.compaction_actions[describe(decision.action)];
    report_.compaction_why[describe(decision.action)] = decision.why;
    if (decision.action != CompactionDecision::Action::none) write_owed_steps();
    if (decision.action == CompactionDecision::Action::map) {
      report_.scanned_slots += rows_.count;
      rows_.map =
          active_map(exec(), launch_.book, rows_, last.active_after, max_steps(), buffers_.next_map(last.active_after));
      rows_.count = last.active_after;
      track_extra_bytes();
    } else if (decision.action == CompactionDecision::Action::reorder) {
      permute_rows();
      report_.scanned_slots += span_;
      reorder_rows(exec(), planes_, span_, last.active_after, max_steps(), buffers_);
      track_extra_bytes();
      rows_.map = {};
      span_ = rows_.count = last.active_after;
    }
  }

  /// The compaction rule's call: the costs it weighs (given, or measured once), and what the
  /// launch just showed.
  CompactionDecision decide(const LaunchRecord& last) {
    const std::int64_t launches_left =
        end_pending_ > 0 ? max_steps() : (max_steps() - report_.steps + last.k - 1) / last.k;
    const bool weighs = options_.compaction == Compaction::automatic;  // map and reorder act regardless
    static const CompactionCosts unweighed{};
    const CompactionCosts& costs = options_.compaction_costs ? *options_.compaction_costs
                                   : weighs
                                       ? probed([&]() -> const CompactionCosts& { return compaction_costs(launch_); })
                                       : unweighed;  // a reference: no copy per launch
    if (weighs && report_.compaction_costs.empty()) report_.compaction_costs = costs.source;  // once, not per launch
    return decide_compaction(
        {options_.compaction, rows_.count, last.active_after, RowPlanes<T, NS, Mem>::bytes_per_row,
         expected_launches_ahead(last.active_after, last.active_before - last.active_after, launches_left),
         static_cast<double>(last.k) * weighed_.masked_step_seconds, lockstep_lanes<ExecSpace>()},
        costs);
  }

  /// `measure()`, its wall time (a probe's, the first time) kept out of the run's seconds.
  template <class Measure>
  decltype(auto) probed(const Measure& measure) {
    const Kokkos::Timer probe;
    decltype(auto) measured = measure();
    probe_seconds_ += probe.seconds();
    return measured;
  }

  /// The run's wall time so far, over every call when resumed, probes apart.
  double run_seconds() const { return seconds_before_ + timer_.seconds() - probe_seconds_; }

  bool checkpointing() const { return !options_.checkpoint.path.empty(); }

  void checkpoint_if_due() {
    const CheckpointSettings& every = options_.checkpoint;
    if (!checkpointing()) return;
    const bool by_launches = every.every_launches > 0 && report_.launches % every.every_launches == 0;
    const bool by_time = every.every_seconds > 0.0 && timer_.seconds() - last_checkpoint_ >= every.every_seconds;
    if (!by_launches && !by_time) return;
    write_checkpoint();
    last_checkpoint_ = timer_.seconds();
  }

  void write_checkpoint() {
    const Region region("eagle::checkpoint_write");
    Checkpoint& c = saved_;
    write_owed_steps();
    count_rows_moved();
    c.history.clear();
    for (const LaunchRecord& l : history_) c.history.push_back({l.k, l.active_before, l.active_after});
    c.seconds = run_seconds();
    c.rows_moved = report_.rows_moved;
    visit_carried([](const auto& member, auto& saved) { saved = member; });
    c.state_planes.resize(NS);
    visit_planes([&](const auto& plane, auto& saved) {
      saved = host_values<typename std::decay_t<decltype(saved)>::value_type>(exec(), plane);
    });
    c.origin = planes_.origin.extent(0) > 0 ? host_values<RowIndex>(exec(), planes_.origin) : std::vector<RowIndex>{};
    c.map = rows_.map.extent(0) > 0 ? host_values<RowIndex>(exec(), rows_.map) : std::vector<RowIndex>{};
    if constexpr (WritesMemory<Model>::value) c.model_memory = host_values<unsigned char>(exec(), model_memory());
    write_checkpoint_file(options_.checkpoint.path, c);
    ++report_.checkpoints_written;
  }

  /// What a checkpoint carries of the run beside its planes, each member with its field: snapshot
  /// copies one way, restore the other (the file's own fields: checkpoint_format.hpp).
  template <class Visit>
  void visit_carried(Visit&& visit) {
    visit(active_, saved_.active);
    visit(span_, saved_.span);
    visit(rows_.count, saved_.slots);
    visit(next_pending_, saved_.next_pending);
    visit(end_pending_, saved_.end_pending);
    visit(report_.compaction_actions, saved_.compaction_actions);
    visit(report_.revived, saved_.revived);
    visit(report_.extra_bytes_peak, saved_.extra_bytes_peak);
    visit(report_.scanned_slots, saved_.scanned_slots);
  }

  /// The memory the model writes, as bytes in the run's memory space.
  Kokkos::View<unsigned char*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> model_memory() const {
    const WrittenMemory m = launch_.model.written_memory();
    return Kokkos::View<unsigned char*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        static_cast<unsigned char*>(m.data), m.bytes);
  }

  /// The planes a checkpoint holds, each with its field (state planes as bytes).
  template <class Visit>
  void visit_planes(Visit&& visit) {
    for (int f = 0; f < NS; ++f) visit(launch_.state.planes[f], saved_.state_planes[static_cast<std::size_t>(f)]);
    visit(launch_.book.terminated, saved_.terminated);
    visit(launch_.book.status, saved_.status);
    visit(launch_.book.steps_taken, saved_.steps_taken);
  }

  /// Finish: the caller's rows in their order, and the report's totals.
  Report finish() {
    const Region region("eagle::summary");
    write_owed_steps();
    restore_order();
    count_rows_moved();
    summarise(exec(), launch_.book, max_steps(), report_);
    if (launch_.nest == LoopNest::tile) report_.lane_steps = report_.sample_steps;  // lanes refill
    report_.exact_steps = report_.longest_sample_steps == report_.steps;
    report_.capped = report_.unfinished > 0 && !report_.interrupted;
    report_.probe_seconds = probe_seconds_;
    report_.seconds = run_seconds();
    return report_;
  }

  /// Before rows first move: the map from each row to the caller's, so they can go back.
  void permute_rows() {
    if (planes_.origin.extent(0) == 0) hold_origin(identity_rows<ExecSpace, Mem>(exec(), n_));
  }

  /// Rows out of the caller's order from now on, `origin` naming each row's sample; the scratch
  /// plane that puts them back is taken now and held: the way back must not need memory it may
  /// not get.
  void hold_origin(const Kokkos::View<RowIndex*, Mem>& origin) {
    restore_scratch_ = RestoreScratch<T, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::restore"), n_);
    planes_.origin = origin;
    rows_.origin = origin;
  }

  void restore_order() {
    if (planes_.origin.extent(0) == 0) return;
    const Kokkos::View<const RowIndex*, Mem> origin = planes_.origin;
    const Bookkeeping<Mem>& book = launch_.book;
    for (int f = 0; f < NS; ++f) restore_plane(exec(), launch_.state.planes[f], origin, restore_scratch_);
    restore_plane(exec(), book.terminated, origin, restore_scratch_);
    restore_plane(exec(), book.status, origin, restore_scratch_);
    restore_plane(exec(), book.steps_taken, origin, restore_scratch_);
    planes_.origin = {};
    restore_scratch_ = {};
  }

  /// The most bytes held beyond the planes: index buffers, origin and the restore scratch.
  void track_extra_bytes() {
    const auto held =
        buffers_.bytes() + static_cast<std::int64_t>(sizeof(RowIndex) * planes_.origin.extent(0)) +
        static_cast<std::int64_t>(restore_scratch_.span() * sizeof(typename RestoreScratch<T, Mem>::value_type));
    report_.extra_bytes_peak = std::max(report_.extra_bytes_peak, held);
  }

  void count_rows_moved() { report_.rows_moved = rows_moved_before_ + buffers_.rows_moved(); }

  const Steps steps_;
  const RunOptions& options_;
  const SignalWatch& watch_;
  const std::int64_t n_;
  Launcher<ExecSpace, Model, Mem> launch_;
  const bool rows_fit_;    // row indices fit in 32 bits: compaction and revival can act
  const bool compacting_;  // compaction is not off
  Report report_;
  Checkpoint saved_;  // the run's identity, and the checkpoint resumed from or last written
  Kokkos::Timer timer_;
  double seconds_before_ = 0.0;  // by the run a checkpoint resumes
  double last_checkpoint_ = 0.0;
  double last_launch_seconds_ = 0.0;  // wall time of the last launch, for the launch bound
  double probe_seconds_ = 0.0;        // measuring costs, kept out of the run's seconds
  std::int64_t active_ = 0;           // samples still to step, unstarted ones included
  std::int64_t owed_steps_ = 0;       // by deferred launches to every running row (StepCounts)
  // Rows [0, span) hold every sample still to step; the launch visits `rows`; revival streams the
  // unstarted rows [next_pending, end_pending) into the window [0, in_flight).
  Rows<Mem> rows_;
  RowPlanes<T, NS, Mem> planes_;
  std::int64_t span_;
  std::int64_t next_pending_ = 0;
  std::int64_t end_pending_ = 0;
  std::vector<LaunchRecord> history_;
  IndexBuffers<Mem> buffers_;
  RestoreScratch<T, Mem> restore_scratch_;  // held while rows are out of the caller's order
  std::int64_t rows_moved_before_ = 0;      // by the run a checkpoint resumes; this run's are on the device
  LaunchCosts weighed_;  // what steps = auto weighs; a finished lane's idling also weighs on compaction
};

}  // namespace eagle::detail
