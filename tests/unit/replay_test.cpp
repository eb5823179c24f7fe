// The replay of a run's policies (eagle/replay.hpp) against real runs of one sample per work item
// on TestSpace: the same launches by K, steps, sample- and lane-steps and scanned slots, for fixed K
// and auto, with compaction off, forced and automatic (costs given, so the run and the replay weigh
// the same figures), on a spread batch with samples terminated on entry and samples capped.

#include "eagle_test_space.hpp"
#include "spin_batch.hpp"

#include <eagle/eagle.hpp>
#include <eagle/replay.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace eagle::test {
namespace {

/// Steps each Spin sample takes to finish: its length rounded up (at least one step), 0 when it
/// arrives terminated. Counted independently of eagle, from the model's rule.
std::vector<std::int64_t> finish_steps(const HostBatch& b) {
  std::vector<std::int64_t> steps(b.terminated.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const double length = b.inputs[Spin::length][i];
    steps[i] = b.terminated[i] ? 0 : std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(length)));
  }
  return steps;
}

TEST(Replay, MatchesRealRunsOfOneSamplePerWorkItem) {
  const std::int64_t n = 3000;
  const std::int64_t max_steps = 300;  // lengths run from 5 to 500: some samples are capped
  const HostBatch batch = spin_batch(kernels::Spread::x100, n);

  LaunchCosts launch;  // device-like: a launch dear, a finished lane idling at a step's price
  launch.fixed_seconds = 1e-5;
  for (int i = 0; i < rung_count; ++i) launch.per_sample_seconds[i] = 1e-8 + static_cast<double>(1 << i) * 1e-9;
  launch.masked_step_seconds = 1e-9;
  launch.finished_sample_seconds = 1e-10;
  launch.measured = true;
  CompactionCosts compaction;
  compaction.visit_per_slot = 2e-9;
  compaction.indirect_per_slot = 5e-10;
  compaction.scan_per_slot = 1e-9;
  compaction.move_per_byte = 1e-10;
  compaction.launch_seconds = 5e-6;
  compaction.source = "given by the test";

  ReplayInput in;
  in.finish_steps = finish_steps(batch);
  in.max_steps = max_steps;
  in.concurrency = static_cast<std::int64_t>(TestSpace().concurrency());
  in.launch_costs = launch;
  in.compaction_costs = compaction;
  in.bytes_per_row = detail::RowPlanes<double, Spin::state_count, SpinPlanes::Mem>::bytes_per_row;

  for (const std::int64_t k : {std::int64_t(7), std::int64_t(0)}) {
    for (const Compaction mode : {Compaction::off, Compaction::map, Compaction::reorder, Compaction::automatic}) {
      SCOPED_TRACE("k " + std::to_string(k) + ", compaction " + std::to_string(static_cast<int>(mode)));
      RunOptions options;
      options.launch_costs = launch;
      options.compaction = mode;
      options.compaction_costs = compaction;
      const SpinPlanes planes(batch);
      const Steps steps = k > 0 ? Steps::fixed(k) : Steps::automatic();
      const Report run = planes.run(deploy(Spin{}, steps, LoopNest::per_sample), max_steps, options);

      in.fixed_k = k;
      in.compaction = mode;
      const ReplayResult replayed = replay(in);
      EXPECT_EQ(replayed.launches_by_k, run.launches_by_k);
      EXPECT_EQ(replayed.steps, run.steps);
      EXPECT_EQ(replayed.sample_steps, run.sample_steps);
      EXPECT_EQ(replayed.lane_steps, run.lane_steps);
      EXPECT_EQ(replayed.scanned_slots, run.scanned_slots);
      EXPECT_GT(run.launches, 1);
    }
  }
}

}  // namespace
}  // namespace eagle::test
