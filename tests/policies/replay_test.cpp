// The replay of a run's policies, worked by hand on a small batch.

#include <eagle/replay.hpp>

#include <gtest/gtest.h>

namespace eagle {
namespace {

TEST(Replay, FixedKByHand) {
  ReplayInput in;
  in.finish_steps = {0, 1, 3, 5, 9};  // one terminated on entry, one the cap of 8 stops
  in.max_steps = 8;
  in.fixed_k = 4;
  const ReplayResult r = replay(in);
  // Launch 1: steps 1-4, four running, two left (5 and 9); launch 2: steps 5-8, the cap.
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].active_before, 4);
  EXPECT_EQ(r.history[0].active_after, 2);
  EXPECT_EQ(r.history[1].active_after, 0);
  EXPECT_EQ(r.steps, 8);
  EXPECT_EQ(r.sample_steps, 1 + 3 + 5 + 8);
  EXPECT_EQ(r.lane_steps, 4 * 4 + 2 * 4);
  EXPECT_EQ(r.launches_by_k, (std::map<std::int64_t, std::int64_t>{{4, 2}}));
}

TEST(Replay, WarpLaneStepsHoldAGroupUntilItsSlowestStops) {
  ReplayInput in;
  in.finish_steps = {1, 8, 2, 3};  // groups of two: [1, 8] and [2, 3]
  in.max_steps = 8;
  in.fixed_k = 4;
  in.warp = 2;
  const ReplayResult r = replay(in);
  // Launch 1 (steps 1-4): [1, 8] holds 2 lanes 4 steps, [2, 3] 2 lanes 3 steps; launch 2: [1, 8] 4.
  EXPECT_EQ(r.warp_lane_steps, 2 * 4 + 2 * 3 + 2 * 4);
  EXPECT_EQ(r.lane_steps, 4 * 4 + 1 * 4);  // every sample running at a launch's start, the whole launch
}

TEST(Replay, ForcedMapVisitsOnlyRunningSamples) {
  ReplayInput in;
  in.finish_steps = {2, 2, 2, 10};
  in.max_steps = 100;
  in.fixed_k = 2;
  in.compaction = Compaction::map;
  const ReplayResult r = replay(in);
  // After launch 1 three of four finished: the map scans the 4 slots; later launches visit only the
  // running one, and with nothing to drop there is no further map.
  EXPECT_EQ(r.history.size(), 5u);
  EXPECT_EQ(r.scanned_slots, 4);
  EXPECT_EQ(r.sample_steps, 2 + 2 + 2 + 10);
}

TEST(Replay, AutoWithoutCostsTakesTheWholeRunWhenTheBatchFitsInFlight) {
  ReplayInput in;
  in.finish_steps = {3, 7, 50};
  in.max_steps = 1000;
  in.concurrency = 4;
  const ReplayResult r = replay(in);
  EXPECT_EQ(r.launches_by_k, (std::map<std::int64_t, std::int64_t>{{1000, 1}}));
  EXPECT_EQ(r.lane_steps, 3 * 1000);
}

}  // namespace
}  // namespace eagle
