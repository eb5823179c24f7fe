// The steps = auto rule, a pure function of the launch history.

#include <eagle/auto_steps.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace eagle {
namespace {

std::int64_t next(const std::vector<LaunchRecord>& history, std::int64_t batch = 100000, std::int64_t done = 0,
                  std::int64_t max_steps = 100000, std::int64_t concurrency = 1000) {
  return AutoSteps{}.next_k({history, batch, concurrency, done, max_steps});
}

TEST(AutoSteps, FirstLaunchProbesWithOneStep) { EXPECT_EQ(next({}), 1); }

TEST(AutoSteps, DoublesWhileNobodyFinishes) {
  std::vector<LaunchRecord> history;
  std::int64_t done = 0;
  std::vector<std::int64_t> ks;
  for (int launch = 0; launch < 12; ++launch) {
    const std::int64_t k = next(history, 100000, done);
    ks.push_back(k);
    history.push_back({k, 100000, 100000});
    done += k;
  }
  EXPECT_EQ(ks, (std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 256, 256, 256}));
}

TEST(AutoSteps, SmallBatchTakesTheWholeRunInOneLaunch) {
  EXPECT_EQ(next({}, /*batch=*/1000, /*done=*/0, /*max_steps=*/10000, /*concurrency=*/4096), 10000);
  EXPECT_EQ(next({}, 1000, 9000, 10000, 1000), 1000);
}

TEST(AutoSteps, NeverPassesTheCap) {
  EXPECT_EQ(next({{128, 1000, 1000}}, 100000, 990, 1000), 10);  // would be 256, only 10 left: cut
  EXPECT_EQ(next({{128, 1000, 1000}}, 100000, 999, 1000), 1);
  EXPECT_EQ(next({{128, 1000, 1000}}, 100000, 1000, 1000), 0);
}

TEST(AutoSteps, ShrinksWhenManyFinish) {
  // 64 steps, 6400 of 100000 finished: rate 100 per step, 93600 active, budget 5%:
  // K <= 2 * 0.05 * 93600 / 100 = 93.6 -> rung 64 (holds).
  EXPECT_EQ(next({{64, 100000, 93600}}), 64);
  // A thin tail: 1000 left, 500 finished in 64 steps: K <= 2 * 0.05 * 1000 / 7.8 = 12.8 -> 8.
  EXPECT_EQ(next({{64, 1500, 1000}}), 8);
  // Nearly everyone finished in one step: K stays at 1.
  EXPECT_EQ(next({{1, 100000, 10}}), 1);
}

TEST(AutoSteps, MaskedBudgetTunesTheRule) {
  AutoSteps loose{0.5};
  const std::vector<LaunchRecord> history{{64, 1500, 1000}};
  EXPECT_EQ(loose.next_k({history, 100000, 1000, 0, 100000}), 128);  // 2 * 0.5 * 1000 / 7.8 = 128
}

}  // namespace
}  // namespace eagle
