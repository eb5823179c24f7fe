// The compaction rule, a pure function of the batch's shape and measured costs. Expected costs and
// savings are worked out by hand from the rule's formulas.

#include <eagle/compaction.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace eagle {
namespace {

using Action = CompactionDecision::Action;

CompactionCosts costs(double visit, double indirect, double scan, double move) {
  CompactionCosts c;
  c.visit_per_slot = visit;
  c.indirect_per_slot = indirect;
  c.scan_per_slot = scan;
  c.move_per_byte = move;
  c.source = "test";
  return c;
}

CompactionInput input(std::int64_t slots, std::int64_t active, double ahead, Compaction mode = Compaction::automatic) {
  CompactionInput in;
  in.mode = mode;
  in.slots = slots;
  in.active = active;
  in.bytes_per_row = 40;
  in.launches_ahead = ahead;
  return in;
}

TEST(Compaction, OffNeverActs) {
  const auto d = decide_compaction(input(1000, 1, 100, Compaction::off), costs(1, 0, 0, 0));
  EXPECT_EQ(d.action, Action::none);
  EXPECT_EQ(d.why, "compaction off");
}

TEST(Compaction, NothingFinishedNothingToDo) {
  for (auto mode : {Compaction::map, Compaction::reorder, Compaction::automatic}) {
    const auto d = decide_compaction(input(1000, 1000, 100, mode), costs(1, 0, 0, 0));
    EXPECT_EQ(d.action, Action::none);
    EXPECT_EQ(d.why, "no finished slot to drop");
  }
}

TEST(Compaction, FixedModesActWheneverASlotFinished) {
  const CompactionCosts dear = costs(0, 0, 1, 1);  // would never pay
  EXPECT_EQ(decide_compaction(input(1000, 999, 1, Compaction::map), dear).action, Action::map);
  EXPECT_EQ(decide_compaction(input(1000, 999, 1, Compaction::reorder), dear).action, Action::reorder);
}

TEST(Compaction, MapWhenVisitsCostMoreThanTheScan) {
  // 1000 slots, 100 active: 900 finished visits of 2 ns saved per launch over 3 launches = 5.4 us;
  // the scan costs 1000 x 1 ns = 1 us. Reorder would move 100 pairs of 40-byte rows (8000 B at
  // 1 ns/B = 8 us more), so the map wins.
  const auto d = decide_compaction(input(1000, 100, 3), costs(2e-9, 0, 1e-9, 1e-9));
  EXPECT_EQ(d.action, Action::map);
  EXPECT_NEAR(d.cost_seconds, 1e-6, 1e-15);
  EXPECT_NEAR(d.saving_seconds, 5.4e-6, 1e-15);
}

TEST(Compaction, ReorderWhenReadingThroughAMapIsDear) {
  // Same batch, cheap moves (8000 B x 1e-13 s), and a map read costs 5 ns per active slot per
  // launch: the map saves 3 x (900 x 2 - 100 x 5) ns = 3.9 us, the reorder 5.4 us for 1.0008 us.
  const auto d = decide_compaction(input(1000, 100, 3), costs(2e-9, 5e-9, 1e-9, 1e-13));
  EXPECT_EQ(d.action, Action::reorder);
  EXPECT_NEAR(d.cost_seconds, 1e-6 + 8000 * 1e-13, 1e-15);
  EXPECT_NEAR(d.saving_seconds, 5.4e-6, 1e-15);
}

TEST(Compaction, NoneWhenTheScanCostsMoreThanItSaves) {
  // 10 finished visits of 1 ns over one launch (10 ns) against a 1000-slot scan at 1 ns (1 us).
  const auto d = decide_compaction(input(1000, 990, 1), costs(1e-9, 0, 1e-9, 0));
  EXPECT_EQ(d.action, Action::none);
  EXPECT_EQ(d.cost_seconds, 0.0);
  EXPECT_NE(d.why.find("10 of 1000 slots finished"), std::string::npos);
}

TEST(Compaction, MoreLaunchesAheadTipTheBalance) {
  const CompactionCosts c = costs(1e-9, 0, 1e-9, 1e9);                        // reorder never: moves are dear
  EXPECT_EQ(decide_compaction(input(1000, 500, 1), c).action, Action::none);  // 0.5 us for 1 us
  EXPECT_EQ(decide_compaction(input(1000, 500, 3), c).action, Action::map);   // 1.5 us for 1 us
}

TEST(Compaction, TheFixedCostOfALaunchRulesOutSmallBatches) {
  // 900 of 1000 slots finished, 2 ns a visit over 3 launches saves 5.4 us; the scan is 1 us of
  // work, plus 10 us to launch: none. The same shape at 100 times the size pays.
  CompactionCosts c = costs(2e-9, 0, 1e-9, 1e9);
  c.launch_seconds = 10e-6;
  const auto small_batch = decide_compaction(input(1000, 100, 3), c);
  EXPECT_EQ(small_batch.action, Action::none);
  const auto large_batch = decide_compaction(input(100000, 10000, 3), c);
  EXPECT_EQ(large_batch.action, Action::map);
  EXPECT_NEAR(large_batch.cost_seconds, 10e-6 + 100e-6, 1e-15);
}

TEST(Compaction, IdleLanesBesideRunningOnesMakeCompactionPay) {
  // 500 of 1000 slots finished, 1 ns a visit, 1 launch ahead: 0.5 us saved for a 1 us scan: none.
  const CompactionCosts c = costs(1e-9, 0, 1e-9, 1e9);
  EXPECT_EQ(decide_compaction(input(1000, 500, 1), c).action, Action::none);
  // Where a finished lane idles through the next launch (16 steps at 1 ns) beside a running one in
  // its group of 32, with half the slots running nearly every group has one: 1 - 0.5^31 of them.
  CompactionInput lockstep = input(1000, 500, 1);
  lockstep.idle_lane_seconds = 16e-9;
  const auto d = decide_compaction(lockstep, c);
  EXPECT_EQ(d.action, Action::map);
  EXPECT_NEAR(d.saving_seconds, 500 * (1e-9 + (1.0 - std::pow(0.5, 31)) * 16e-9), 1e-18);
  // One running slot in 1000: a finished slot shares its group with it 3 % of the time
  // (1 - 0.999^31), and 999 slots save 999 * (1 + 0.0305 * 16) ns = 1.49 us for the 1 us scan.
  CompactionInput sparse = input(1000, 1, 1);
  sparse.idle_lane_seconds = 16e-9;
  const auto s = decide_compaction(sparse, c);
  EXPECT_NEAR(s.saving_seconds, 999 * (1e-9 + (1.0 - std::pow(0.999, 31)) * 16e-9), 1e-18);
  EXPECT_EQ(s.action, Action::map);
  // In an AMD wavefront of 64 the running slot is beside twice as many: 6.1 %, 1.97 us saved.
  CompactionInput wavefront = sparse;
  wavefront.lockstep_lanes = 64;
  EXPECT_NEAR(decide_compaction(wavefront, c).saving_seconds, 999 * (1e-9 + (1.0 - std::pow(0.999, 63)) * 16e-9),
              1e-18);
  // Where samples run on their own (a host thread's rows) nothing idles: 999 visits, 1 us: none.
  CompactionInput alone = sparse;
  alone.lockstep_lanes = 1;
  EXPECT_EQ(decide_compaction(alone, c).action, Action::none);
}

TEST(Compaction, LaunchesAheadFollowTheFinishRate) {
  EXPECT_EQ(expected_launches_ahead(1000, 100, 50), 10.0);  // 100 a launch: 10 more launches
  EXPECT_EQ(expected_launches_ahead(1000, 1, 50), 50.0);    // slower than the cap allows: the cap
  EXPECT_EQ(expected_launches_ahead(10, 100, 50), 1.0);     // at least the next launch
  EXPECT_EQ(expected_launches_ahead(10, 0, 7), 7.0);        // nobody finished: until the cap
}

}  // namespace
}  // namespace eagle
