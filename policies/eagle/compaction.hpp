#pragma once
// Finished samples: after a launch, should the next one skip them, and how? A pure function of the
// batch's shape and of costs measured on the machine (eagle/compaction_costs.hpp measures them), so
// it is tested without Kokkos.
//
// A launch visits every slot it is given; a finished sample's slot still costs a visit (a flag read
// on a host, an idle thread on a GPU), and where lanes step in lockstep (a GPU's warp) its lane idles
// for the whole launch while a neighbour in its group still runs. Two remedies, each paid for up front:
//   - map:     one scan over the slots builds the list of unfinished samples (the active-set map);
//              (each extra kernel launch also has a fixed cost, which rules out small batches)
//              later launches visit only those, each through one extra indirect read;
//   - reorder: the same scan, then the unfinished samples' rows are swapped into a dense block at
//              the front of the planes, so later launches read them directly, contiguous.
// Saving per later launch: (slots - active) visits and the idle lanes among them, plus for reorder
// the indirect reads a map adds.
// The rule compares what each remedy costs now with what it saves over the launches it expects.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

namespace eagle {

/// What a run may do about finished samples.
enum class Compaction {
  off,       ///< nothing: every launch visits every slot; tiles keep finished lanes
  map,       ///< an active-set map whenever any sample finished; tiles refill freed lanes
  reorder,   ///< permute the planes whenever any sample finished; tiles refill freed lanes
  automatic  ///< per launch, whichever the cost model says pays (the default)
};

inline const char* describe(Compaction c) {
  switch (c) {
    case Compaction::off:
      return "off";
    case Compaction::map:
      return "map";
    case Compaction::reorder:
      return "reorder";
    case Compaction::automatic:
      return "auto";
  }
  return "?";
}

/// Seconds each unit of work costs on one execution space, for one model and loop nest.
struct CompactionCosts {
  double visit_per_slot = 0.0;     ///< a launch visiting one finished sample's slot
  double indirect_per_slot = 0.0;  ///< extra per slot when a launch reads through a map
  double scan_per_slot = 0.0;      ///< building the active-set map, per slot scanned
  double move_per_byte = 0.0;      ///< swapping pairs of rows of the planes, per byte of the rows
  double launch_seconds = 0.0;     ///< the fixed cost of one extra kernel launch (a scan, a swap)
  std::string source = "given";    ///< where the figures come from
};

/// What the rule sees after a launch.
struct CompactionInput {
  /// What the run asked for.
  Compaction mode = Compaction::automatic;
  std::int64_t slots = 0;          ///< slots the next launch would visit as things stand
  std::int64_t active = 0;         ///< unfinished samples among them
  std::int64_t bytes_per_row = 0;  ///< bytes one sample's row of planes holds (swapped by reorder)
  double launches_ahead = 1.0;     ///< launches the rule expects the savings to last
  /// A finished slot's lane idling through the next launch beside a running one: the launch's steps
  /// at a masked step's price (LaunchCosts; 0 where not measured, and near 0 on a host).
  double idle_lane_seconds = 0.0;
  /// Lanes that step in lockstep, a finished one idling beside a running one: a warp on NVIDIA
  /// (32), a wavefront on AMD's MI200/MI300 class (64); 1 where each sample runs on its own (a host
  /// thread visits rows one by one). The run sets it from the execution space.
  int lockstep_lanes = 32;
};

/// The rule's choice after a launch: what to do about finished slots, its cost and saving, and why.
struct CompactionDecision {
  /// What is done before the next launch: nothing, an active-set map that later launches visit the
  /// unfinished samples through, or the unfinished samples' rows swapped into a dense block at the front.
  enum class Action { none, map, reorder };
  /// The chosen action.
  Action action = Action::none;
  double cost_seconds = 0.0;    ///< what the chosen action costs now
  double saving_seconds = 0.0;  ///< what it is expected to save
  std::string why;              ///< the reasoning in words (costs and savings in microseconds)
};

inline const char* describe(CompactionDecision::Action a) {
  switch (a) {
    case CompactionDecision::Action::none:
      return "none";
    case CompactionDecision::Action::map:
      return "map";
    case CompactionDecision::Action::reorder:
      return "reorder";
  }
  return "?";
}

/// The next launch's choice. Fixed modes act whenever there is a finished slot to drop; automatic
/// takes the remedy with the largest net saving, or none when neither saves more than it costs.
inline CompactionDecision decide_compaction(const CompactionInput& in, const CompactionCosts& c) {
  using Action = CompactionDecision::Action;
  CompactionDecision d;
  const std::int64_t dead = std::max<std::int64_t>(0, in.slots - in.active);
  if (in.mode == Compaction::off) {
    d.why = "compaction off";
    return d;
  }
  if (dead == 0) {
    d.why = "no finished slot to drop";
    return d;
  }
  const auto slots = static_cast<double>(in.slots);
  const auto active = static_cast<double>(in.active);
  const double ahead = std::max(1.0, in.launches_ahead);
  // A finished slot idles a lane when any other of its group runs: slots in random order.
  const double beside_running = 1.0 - std::pow(1.0 - active / slots, std::max(1, in.lockstep_lanes) - 1);
  const double per_dead_slot = c.visit_per_slot + beside_running * in.idle_lane_seconds;
  // A map costs one scan launch; a reorder four (a count, two scans, the swaps).
  const double scan = c.launch_seconds + slots * c.scan_per_slot;
  // A reorder swaps at most min(active, dead) pairs of rows.
  const double moved_bytes =
      2.0 * static_cast<double>(std::min<std::int64_t>(in.active, dead)) * static_cast<double>(in.bytes_per_row);
  const double map_cost = scan;
  const double map_saving = ahead * (static_cast<double>(dead) * per_dead_slot - active * c.indirect_per_slot);
  const double reorder_cost = scan + 3.0 * c.launch_seconds + moved_bytes * c.move_per_byte;
  const double reorder_saving = ahead * static_cast<double>(dead) * per_dead_slot;

  if (in.mode == Compaction::map) {
    d.action = Action::map;
  } else if (in.mode == Compaction::reorder) {
    d.action = Action::reorder;
  } else {
    const double map_net = map_saving - map_cost;
    const double reorder_net = reorder_saving - reorder_cost;
    if (map_net > 0.0 || reorder_net > 0.0) d.action = reorder_net >= map_net ? Action::reorder : Action::map;
  }
  d.cost_seconds = d.action == Action::reorder ? reorder_cost : d.action == Action::map ? map_cost : 0.0;
  d.saving_seconds = d.action == Action::reorder ? reorder_saving : d.action == Action::map ? map_saving : 0.0;

  std::ostringstream why;
  why.precision(3);
  why << dead << " of " << in.slots << " slots finished, " << ahead << " launches ahead: map saves " << map_saving * 1e6
      << " us for " << map_cost * 1e6 << " us, reorder saves " << reorder_saving * 1e6 << " us for "
      << reorder_cost * 1e6 << " us";
  if (in.mode != Compaction::automatic) why << " (" << describe(in.mode) << " asked)";
  d.why = why.str();
  return d;
}

/// Launches the remaining samples are expected to need, from how fast they finished last launch:
/// at least 1, at most the launches left before the cap.
inline double expected_launches_ahead(std::int64_t active, std::int64_t finished_last_launch,
                                      std::int64_t launches_left_before_cap) {
  const double by_rate = finished_last_launch > 0
                             ? static_cast<double>(active) / static_cast<double>(finished_last_launch)
                             : static_cast<double>(launches_left_before_cap);
  return std::clamp(by_rate, 1.0, std::max(1.0, static_cast<double>(launches_left_before_cap)));
}

}  // namespace eagle
