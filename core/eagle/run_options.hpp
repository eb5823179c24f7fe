#pragma once
// What a caller may set on a run beyond its planes and its cap.

#include <eagle/auto_steps.hpp>
#include <eagle/checkpoint.hpp>
#include <eagle/compaction.hpp>
#include <eagle/host_tile.hpp>
#include <eagle/progress.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace eagle {

/// Optional settings of a run.
struct RunOptions {
  Observer observer;  ///< called after every launch (e.g. eagle::ProgressLine)
  /// While an observer is set, launches eagle picks (steps = auto) last at most this long, so it
  /// hears from the run (checkpoint.longest_launch_seconds bounds them the same way).
  double observer_seconds = 1.0;
  std::int64_t tile_lanes = 0;  ///< host tile size; 0: from the caches (or EAGLE_TILE_LANES)
  TileRule tile_rule;           ///< how the tile is sized from the caches
  AutoSteps auto_steps;         ///< how steps = auto picks K on device-style loop nests
  /// The auto rule's launch costs; empty: measured on first use (launch_costs.hpp), and each launch
  /// timed so the rule learns what this batch costs beyond them. A value is used as it is, nothing
  /// learned (a model replays exactly: replay.hpp); one with `measured` false makes the rule keep to
  /// its masked-work budget instead.
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
  /// The index of the batch's first sample in a larger batch it is part of (an MPI rank's part, a
  /// chunk): added to the sample index a step body's eagle::StepContext reads. eagle::mpi sets it.
  std::int64_t first_sample = 0;
  /// Continue the run saved in this checkpoint instead of starting from `state` (whose values are
  /// replaced); the model, planes, inputs, max_steps, steps and loop nest must match.
  std::string resume_from;
};

}  // namespace eagle
