#pragma once
// What a run did, for people and for the policies' tests.

#include <eagle/auto_steps.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace eagle {

/// The outcome of `run_until_done`.
struct Report {
  std::string model;            ///< the model's name
  std::string execution_space;  ///< where it ran, e.g. "OpenMP"
  std::string steps_setting;    ///< "k=16", "auto"
  std::string loop_nest;        ///< "per-sample" or "tile"

  std::int64_t samples = 0;              ///< samples in the batch
  std::int64_t finished = 0;             ///< samples the model terminated (or terminated on entry)
  std::int64_t unfinished = 0;           ///< samples still running when the cap stopped the run
  std::int64_t failed = 0;               ///< samples stopped by a failure (see status.hpp)
  std::map<int, std::int64_t> failures;  ///< failed samples by status code
  /// The most failed samples `first_failures` names.
  static constexpr std::size_t failures_named = 8;
  std::vector<std::pair<std::int64_t, int>> first_failures;  ///< (sample, code), the first few

  // What ran: the work done, then the launches and the steps they asked for.
  std::int64_t sample_steps = 0;          ///< steps taken, summed over samples (the work done)
  std::int64_t longest_sample_steps = 0;  ///< the most steps any one sample took
  std::int64_t launches = 0;              ///< kernel launches
  /// Launch steps asked for, summed over launches (the seed's `steps`): a launch of K counts K
  /// even when its samples all finished sooner (the host tile's long launches under auto).
  std::int64_t steps = 0;
  /// True when `steps` is exactly what the longest-running sample took: always with K = 1; with
  /// K > 1 the last launch may be partly masked, and `steps` then counts it whole.
  bool exact_steps = true;
  /// Lane-steps: one sample per work item, each sample that starts a launch of K steps counted
  /// for K, as a GPU warp holds a finished lane until the launch ends; lane_steps - sample_steps
  /// is that masked work. The host tile refills a lane as its sample stops: lane_steps is
  /// sample_steps there (the at most 32 masked steps a sample idles until the next look uncounted).
  std::int64_t lane_steps = 0;
  bool capped = false;  ///< the run stopped at max_steps with samples unfinished
  /// The run stopped early on CheckpointSettings::on_signal, after its checkpoint was written:
  /// `unfinished` samples are still running, and resuming from the checkpoint continues them.
  bool interrupted = false;

  /// Launch history by the number of steps each launch ran (the cut-short last launch under its
  /// own count).
  std::map<std::int64_t, std::int64_t> launches_by_k;

  std::int64_t tile_lanes = 0;  ///< samples per host tile (tile loop nest only)
  std::int64_t tiles = 0;       ///< host tiles covering the batch
  std::string tile_reason;      ///< how the tile was sized: caches and source, or an override
  /// steps = auto on one sample per work item: the costs it weighed (describe() prints them). Pass
  /// them back as RunOptions::launch_costs and the same batch gets the same launches.
  std::optional<LaunchCosts> launch_costs;

  /// Finished samples (eagle/compaction.hpp): the mode ("off", "map", "reorder" or "auto"; "off"
  /// also where the batch has too many rows to compact).
  std::string compaction;
  /// What was done after each launch ("none", "map", "reorder"): how often.
  std::map<std::string, std::int64_t> compaction_actions;
  /// Each action taken ("none", "map", "reorder"): the rule's reasoning the last time it was taken.
  std::map<std::string, std::string> compaction_why;
  std::string compaction_costs;       ///< where the automatic rule's constants came from
  std::int64_t rows_moved = 0;        ///< rows swapped by reorders (and revival)
  std::int64_t scanned_slots = 0;     ///< slots the compaction scans went over
  std::int64_t in_flight = 0;         ///< revival's window; 0: the whole batch was in flight
  std::int64_t revived = 0;           ///< samples streamed into finished samples' slots
  std::int64_t extra_bytes_peak = 0;  ///< most bytes of maps and scratch held at once, beyond the planes

  std::int64_t checkpoints_written = 0;  ///< checkpoints this call wrote
  std::string resumed_from;              ///< the checkpoint this call continued, if any

  double seconds = 0.0;  ///< wall time of the launch loop (over every call, when resumed), probes apart
  /// Wall time this call spent measuring the costs auto and compaction weigh, not in `seconds`:
  /// once per model, space and process; 0 when given or already measured.
  double probe_seconds = 0.0;
  std::string note;  ///< why the run made no launch, when it made none

  /// One line in the seed's style: "k=16: 63 launches, 1008 steps, exact_steps=false" (steps: the
  /// launch steps asked for; work() says what the samples ran).
  std::string summary() const {
    std::ostringstream out;
    out << steps_setting << ": " << launches << " launches, " << steps
        << " steps, exact_steps=" << (exact_steps ? "true" : "false");
    if (capped) out << ", capped with " << unfinished << " unfinished";
    if (interrupted) out << ", interrupted with " << unfinished << " unfinished (checkpoint written)";
    if (failed > 0) out << ", " << failed << " failed";
    if (!note.empty()) out << " (" << note << ")";
    return out.str();
  }

  /// What the samples ran: "1000 samples, 612345 sample-steps, the longest 2000 steps".
  std::string work() const {
    std::ostringstream out;
    out << samples << " samples, " << sample_steps << " sample-steps, the longest " << longest_sample_steps << " steps";
    return out.str();
  }
};

/// The report's counters, listed once for every merge of reports (eagle::mpi's reduction over
/// ranks, run_balanced's over the chunks a rank ran).
namespace report_fields {
/// A pointer to one of the report's counters.
using Counter = std::int64_t Report::*;
/// Counts over samples or work: the sum over the parts of a batch.
inline constexpr Counter summed[] = {
    &Report::samples,    &Report::finished,      &Report::unfinished, &Report::failed,  &Report::sample_steps,
    &Report::lane_steps, &Report::scanned_slots, &Report::rows_moved, &Report::revived, &Report::checkpoints_written};
/// Counts over launches: summed over runs one after another, the maximum over runs side by side.
inline constexpr Counter sequential[] = {&Report::launches, &Report::steps};
/// Extremes: the maximum over the parts.
inline constexpr Counter largest[] = {&Report::longest_sample_steps, &Report::extra_bytes_peak};
}  // namespace report_fields

}  // namespace eagle
