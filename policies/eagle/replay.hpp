#pragma once
// A run of one sample per work item replayed without the model: given the step at which each
// sample finishes, the same policies a run applies (steps per launch, fixed or the auto rule with
// the costs it weighs; the compaction rule; the cap) give the launches a run on a space of that
// concurrency would make. eagle-simulate costs such a history on a GPU profile, so its GPU rows are
// what eagle would do there, not what it did on the host. Pure: tested against real runs.

#include <eagle/auto_steps.hpp>
#include <eagle/compaction.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace eagle {

/// What a replay needs: each sample's finish step, the space's concurrency and the policies a run
/// would apply.
struct ReplayInput {
  /// Per sample, the steps it takes to finish: 0 for one terminated on entry; above max_steps for
  /// one the cap stops.
  std::vector<std::int64_t> finish_steps;
  /// The cap, in steps.
  std::int64_t max_steps = 0;
  std::int64_t concurrency = 1;  ///< samples the space advances at once
  std::int64_t fixed_k = 0;      ///< steps per launch; 0: steps = auto
  AutoSteps rule{};              ///< the auto rule
  LaunchCosts launch_costs{};    ///< what the auto rule weighs (the run's RunOptions::launch_costs)
  /// The compaction mode the replay applies.
  Compaction compaction = Compaction::off;
  CompactionCosts compaction_costs{};  ///< what the automatic compaction rule weighs
  std::int64_t bytes_per_row = 0;      ///< a sample's row of planes, for the compaction rule
  /// Lanes that advance in lockstep (a GPU warp: 32) for `warp_lane_steps` and the compaction
  /// rule; 0: each sample on its own, as on a host (lane-steps not counted).
  std::int64_t warp = 0;
};

/// The launches a replay made and the work they did, counted as a run's report counts them.
struct ReplayResult {
  /// Every launch, oldest first, untimed (no slots visited, no seconds).
  std::vector<LaunchRecord> history;
  /// Launches by the steps each asked for.
  std::map<std::int64_t, std::int64_t> launches_by_k;
  std::int64_t steps = 0;          ///< steps asked for, launch by launch
  std::int64_t sample_steps = 0;   ///< steps the samples took
  std::int64_t lane_steps = 0;     ///< each launch's K times the samples running at its start
  std::int64_t scanned_slots = 0;  ///< slots compaction scanned
  /// Lane-steps in lockstep groups of `warp` consecutive slots: a group holds all its lanes until
  /// its slowest sample stops or the launch ends (a finished sample's work item ends early, its
  /// lane idles beside the others). After a reorder the slots are taken in sample order.
  std::int64_t warp_lane_steps = 0;
};

namespace detail {

/// Samples still running after `done` steps, from the finish steps sorted ascending.
inline std::int64_t running_after(const std::vector<std::int64_t>& sorted, std::int64_t done, std::int64_t max_steps) {
  if (done >= max_steps) return 0;  // the cap stops every sample: none is counted running
  return static_cast<std::int64_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), done));
}

}  // namespace detail

inline ReplayResult replay(const ReplayInput& in) {
  std::vector<std::int64_t> sorted = in.finish_steps;
  std::sort(sorted.begin(), sorted.end());
  const auto n = static_cast<std::int64_t>(sorted.size());
  // Steps a sample takes in a launch from `done` to `done + k`: prefix sums of the finish steps.
  std::vector<std::int64_t> prefix(sorted.size() + 1, 0);
  for (std::size_t i = 0; i < sorted.size(); ++i) prefix[i + 1] = prefix[i] + sorted[i];
  const auto steps_between = [&](std::int64_t done, std::int64_t end) {  // samples running at `done`
    const auto first = std::upper_bound(sorted.begin(), sorted.end(), done) - sorted.begin();
    const auto past = std::upper_bound(sorted.begin(), sorted.end(), end) - sorted.begin();
    const std::int64_t within = prefix[past] - prefix[first] - (past - first) * done;  // finish inside
    return within + (n - past) * (end - done);
  };

  // The finish steps of the visited slots, in slot order, and each lockstep group's slowest.
  std::vector<std::int64_t> slot_finish = in.finish_steps;
  std::vector<std::int64_t> slowest;
  const auto group_slots = [&] {
    slowest.clear();
    if (in.warp <= 0) return;
    for (std::size_t g = 0; g < slot_finish.size(); g += static_cast<std::size_t>(in.warp)) {
      const auto last = std::min(slot_finish.size(), g + static_cast<std::size_t>(in.warp));
      slowest.push_back(*std::max_element(slot_finish.begin() + static_cast<std::ptrdiff_t>(g),
                                          slot_finish.begin() + static_cast<std::ptrdiff_t>(last)));
    }
  };
  const auto keep_running_slots = [&](std::int64_t done) {
    if (in.warp <= 0) return;
    slot_finish.erase(std::remove_if(slot_finish.begin(), slot_finish.end(), [&](std::int64_t f) { return f <= done; }),
                      slot_finish.end());
    group_slots();
  };
  group_slots();

  ReplayResult r;
  std::int64_t slots = n;  // rows the next launch visits
  std::int64_t span = n;   // rows holding every sample still to step
  std::int64_t active = detail::running_after(sorted, 0, in.max_steps);
  while (active > 0) {
    const std::int64_t remaining = in.max_steps - r.steps;
    std::int64_t k = 0;
    if (in.fixed_k > 0) {
      k = std::min(in.fixed_k, remaining);
    } else {
      k = in.rule.next_k({r.history, slots, in.concurrency, r.steps, in.max_steps, in.launch_costs});
    }
    const std::int64_t after = detail::running_after(sorted, r.steps + k, in.max_steps);
    r.sample_steps += steps_between(r.steps, std::min(r.steps + k, in.max_steps));
    r.lane_steps += active * k;
    const std::int64_t end = std::min(r.steps + k, in.max_steps);
    for (const std::int64_t f : slowest)
      r.warp_lane_steps += in.warp * std::max<std::int64_t>(0, std::min(f, end) - r.steps);
    r.history.push_back({k, active, after});
    ++r.launches_by_k[k];
    r.steps += k;
    active = after;
    if (active == 0 || in.compaction == Compaction::off) continue;
    const std::int64_t launches_left = (in.max_steps - r.steps + k - 1) / k;
    const CompactionDecision decision =
        decide_compaction({in.compaction, slots, after, in.bytes_per_row,
                           expected_launches_ahead(after, r.history.back().active_before - after, launches_left),
                           in.fixed_k > 0 ? 0.0 : static_cast<double>(k) * in.launch_costs.masked_step_seconds,
                           static_cast<int>(in.warp > 0 ? in.warp : 1)},
                          in.compaction_costs);
    if (decision.action == CompactionDecision::Action::map) {
      r.scanned_slots += slots;
      slots = after;
      keep_running_slots(r.steps);
    } else if (decision.action == CompactionDecision::Action::reorder) {
      r.scanned_slots += span;
      span = slots = after;
      keep_running_slots(r.steps);
    }
  }
  return r;
}

}  // namespace eagle
