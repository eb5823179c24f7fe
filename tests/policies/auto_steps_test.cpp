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

TEST(AutoSteps, SmallBatchTakesTheWholeRunInOneLaunchWithoutMeasuredCosts) {
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

// Costs with a rung's cost linear in its steps: a sample's load and store, and `step` each step.
LaunchCosts linear(double fixed_seconds, double load_store, double step, double masked) {
  LaunchCosts c;
  c.fixed_seconds = fixed_seconds;
  for (int i = 0; i < rung_count; ++i) c.per_sample_seconds[i] = load_store + static_cast<double>(1 << i) * step;
  c.masked_step_seconds = masked;
  c.measured = true;
  return c;
}

// Costs as measured on a device-like space: a finished lane idles at the price of a step.
LaunchCosts device_like(double fixed_seconds = 1e-5) { return linear(fixed_seconds, 1e-8, 1e-9, 1e-9); }

std::int64_t next_measured(const std::vector<LaunchRecord>& history, const LaunchCosts& costs,
                           std::int64_t batch = 100000, std::int64_t done = 0, std::int64_t max_steps = 100000) {
  return AutoSteps{}.next_k({history, batch, 1000, done, max_steps, costs});
}

TEST(AutoStepsMeasured, FirstLaunchRisksNoMoreMaskedWorkThanAOneStepLaunch) {
  // (F + A C(1)) / (A M) = (1e-5 + 1e5 * 1.1e-8) / (1e5 * 1e-9) = 11.1 -> 11 steps, between rungs
  // (launched on rung 16, cut at 11).
  EXPECT_EQ(next_measured({}, device_like()), 11);
  // A dearer launch buys a longer first one: (1e-2 + 1.1e-3) / 1e-4 = 111.
  EXPECT_EQ(next_measured({}, device_like(1e-2)), 111);
}

TEST(AutoStepsMeasured, TakesTheStepCountWithTheLeastCostPerStep) {
  // 500 of 1500 finished in 64 steps: r = 7.8125 a step, 1000 active.
  const std::vector<LaunchRecord> history{{64, 1500, 1000}};
  const LaunchCosts c = device_like();
  const double r = 500.0 / 64.0;
  const double a = 1000.0;
  // Independent reference: scan every k for the least (overhead + masked work) per step advanced.
  double least = 1e300;
  std::int64_t best = 0;
  for (std::int64_t k = 1; k <= 100000; ++k) {
    const double kd = static_cast<double>(k);
    const double per_step = (c.fixed_seconds + a * 1e-8) / (a * kd) + c.masked_step_seconds * r * kd / (2.0 * a);
    if (per_step < least) {
      least = per_step;
      best = k;
    }
  }
  EXPECT_NEAR(static_cast<double>(best), 71.55, 1.0);  // sqrt(2 * 2e-5 / (1e-9 * 7.8125))
  EXPECT_EQ(next_measured(history, c), 64);            // the nearer of the rungs around it
  // The masked budget alone (unmeasured) would have cut it to 8.
  EXPECT_EQ(next(history), 8);
}

TEST(AutoStepsMeasured, WeighsBatchesThatFitInFlightToo) {
  // 1000 samples on a space that holds 4096 at once: the costs decide, as for a larger batch. The
  // first launch risks (1e-5 + 1000 * 1.1e-8) / (1000 * 1e-9) = 21 steps at most, and with no rate
  // yet the longest launch within it costs least a step.
  EXPECT_EQ(AutoSteps{}.next_k({{}, 1000, 4096, 0, 10000, device_like()}), 21);
}

TEST(AutoStepsMeasured, TrustsAsLongALaunchAsRisksNoMoreMaskedWorkThanAOneStepLaunch) {
  // 500 of 1500 finished in one step: twice the last is 2, but a launch of up to
  // (F + A C(1)) / (A M) = (1e-5 + 1000 * 1.1e-8) / (1000 * 1e-9) = 21 steps risks no more masked
  // work than a one-step launch costs. Cost per step: (1e-5 + 1000 * 1e-8) / (1000 k) + 1e-9 +
  // 1e-9 * 500 * k / 2000 = 2e-8 / k + 1e-9 + 2.5e-10 k, least at k = 8.9 -> rung 8.
  EXPECT_EQ(next_measured({{1, 1500, 1000}}, device_like()), 8);
}

TEST(AutoStepsMeasured, GrowsTwofoldOrFourfoldWhenNobodyFinishedAndPastTheTopRungInWholeBlocks) {
  // One of 1500 finished in 16 steps: masked work is cheap (a rate of 1/16 a step), longer is
  // cheaper a step, but at most twice the last (the first-launch bound, 17.7 steps for 1499 samples,
  // is shorter); nobody finished: at most four times.
  EXPECT_EQ(next_measured({{16, 1500, 1499}}, device_like()), 32);
  EXPECT_EQ(next_measured({{16, 1500, 1500}}, device_like()), 64);
  // Growth passes the top rung in whole blocks of it.
  EXPECT_EQ(next_measured({{256, 100000, 100000}}, device_like()), 1024);
  EXPECT_EQ(next_measured({{4096, 100000, 100000}}, device_like()), 8192);
  EXPECT_EQ(next_measured({{8192, 100000, 100000}}, device_like()), 8192);  // the longest launch
  // A dear launch (1 ms over 1000 samples) trusts longer launches than twice the last: up to
  // (1e-3 + 1000 * 1.1e-8) / (1000 * 1e-9) = 1011 steps, whose masked work costs no more than a
  // one-step launch. The least cost per step is near 508 steps: rung 512.
  EXPECT_EQ(next_measured({{64, 1500, 1000}}, device_like(1e-3)), 512);
  // Nobody finished (no rate to weigh): the longest trusted, (1e-3 + 1.65e-5) / 1.5e-6 = 677.
  EXPECT_EQ(next_measured({{64, 1500, 1500}}, device_like(1e-3)), 677);
  // Unmeasured, the top rung is the limit.
  EXPECT_EQ(next({{256, 100000, 100000}}), 256);
}

TEST(AutoStepsMeasured, LanesThatIdleForFreeTakeTheLongestLaunchAtOnce) {
  const LaunchCosts host = linear(1e-5, 1e-8, 1e-9, 0.0);  // a host: a finished sample's work item just ends
  EXPECT_EQ(next_measured({}, host), 8192);
  EXPECT_EQ(next_measured({{8192, 100000, 50000}}, host), 8192);
  EXPECT_EQ(next_measured({}, host, 100000, 0, 1000), 1000);  // still never past the cap
}

TEST(AutoStepsMeasured, TakesTheRungWhoseStepsAreCheapest) {
  // As on a host where the compiler vectorises short rungs and not long ones: a step costs 1 ns on
  // rungs up to 8 and 1.5 ns past them. Longer launches save only the launch's fixed cost, spread
  // over 1e5 samples (1e-5 / 1e5 / 8 = 1.25e-11 a step on rung 8), so rung 8 wins.
  LaunchCosts host = linear(1e-5, 0.0, 1e-9, 0.0);
  for (int i = rung_index(16); i < rung_count; ++i) host.per_sample_seconds[i] *= 1.5;
  EXPECT_EQ(next_measured({}, host), 8);
  EXPECT_EQ(next_measured({{8, 100000, 90000}}, host), 8);
  // One step a launch cheapest of all (a launch per step vectorised, fused ones not): K = 1.
  LaunchCosts lorenz = linear(1e-6, 0.0, 2e-9, 0.0);
  lorenz.per_sample_seconds[0] = 1e-9;
  EXPECT_EQ(next_measured({}, lorenz), 1);
  // With a dear launch (1 ms over 1e5 samples, 1e-8 a sample) the longer rungs pay again.
  lorenz.fixed_seconds = 1e-3;
  EXPECT_EQ(next_measured({}, lorenz), 8192);
}

TEST(AutoStepsMeasured, FinishedSamplesStillVisitedFavourLongerLaunches) {
  // 90000 of 100000 visited samples finished in the last 16-step launch; steps cost 1 ns on rungs up
  // to 16 and 1.25 ns past them. Free visits: rung 16 (6.3e-11 + 1e-9 a step against 1.25e-9).
  LaunchCosts host = linear(1e-5, 0.0, 1e-9, 0.0);
  for (int i = rung_index(32); i < rung_count; ++i) host.per_sample_seconds[i] *= 1.25;
  const std::vector<LaunchRecord> history{{16, 100000, 10000}};
  EXPECT_EQ(AutoSteps{}.next_k({history, 100000, 1000, 16, 100000, host}), 16);
  // Each finished sample visited costs 1e-7 s: 9e4 of them, 9e-3 s a launch over 1e4 active samples,
  // 0.9 us a step advanced at K = 1: longer launches pay, and with no masked work to risk the
  // longest pays most (8192: 1.25e-9 + 9e-3 / 8.2e7 = 1.36e-9 a step against 16's 5.7e-8).
  host.finished_sample_seconds = 1e-7;
  EXPECT_EQ(AutoSteps{}.next_k({history, 100000, 1000, 16, 100000, host}), 8192);
  // After compaction the next launch visits only the running samples: rung 16 again.
  EXPECT_EQ(AutoSteps{}.next_k({history, 10000, 1000, 16, 100000, host}), 16);
}

TEST(LaunchCosts, WhatATimedLaunchCostBeyondTheCosts) {
  LaunchCosts c = linear(1e-5, 1e-8, 1e-9, 1e-9);
  c.finished_sample_seconds = 1e-10;
  // 16 steps, 1000 of 5000 visited slots running, 100 of them finishing: 1e-5 + 4000 * 1e-10 +
  // 1000 * (1e-8 + 16e-9) + 1e-9 * 100 * 16 / 2 = 3.72e-5 s explained.
  LaunchRecord timed{16, 1000, 900, 5000, 5.72e-5};
  EXPECT_NEAR(c.unexplained_per_sample(timed), 2e-8, 1e-20);  // 2e-5 s over 1000 samples
  timed.seconds = 3e-5;                                       // cheaper than the costs say: nothing
  EXPECT_EQ(c.unexplained_per_sample(timed), 0.0);
  EXPECT_EQ(c.unexplained_per_sample({16, 1000, 900}), 0.0);  // not timed
}

TEST(AutoStepsMeasured, LaunchesDearerThanTheCostsSayFavourLongerOnes) {
  // Steps cost 1 ns on rungs up to 16 and 1.25 ns past them; 1e4 samples, none finished.
  LaunchCosts host = linear(1e-5, 0.0, 1e-9, 0.0);
  for (int i = rung_index(32); i < rung_count; ++i) host.per_sample_seconds[i] *= 1.25;
  const double explained = 1e-5 + 1e4 * 16e-9;
  const std::vector<LaunchRecord> as_costed{{16, 10000, 10000, 10000, explained}};
  EXPECT_EQ(AutoSteps{}.next_k({as_costed, 10000, 1000, 16, 100000, host}), 16);
  // The last launch took 100 ns a sample more than the costs say (its rows out of cache, scattered
  // among finished ones): 7.25 ns a step at K = 16 against 1.26 ns for the longest launch.
  const std::vector<LaunchRecord> dearer{{16, 10000, 10000, 10000, explained + 1e4 * 1e-7}};
  EXPECT_EQ(AutoSteps{}.next_k({dearer, 10000, 1000, 16, 100000, host}), 8192);
  // Only the last of two launches slowed: noise, K stays; both: the longest launch.
  const std::vector<LaunchRecord> once{as_costed[0], dearer[0]};
  EXPECT_EQ(AutoSteps{}.next_k({once, 10000, 1000, 32, 100000, host}), 16);
  const std::vector<LaunchRecord> twice{dearer[0], dearer[0]};
  EXPECT_EQ(AutoSteps{}.next_k({twice, 10000, 1000, 32, 100000, host}), 8192);
}

TEST(AutoStepsMeasured, BetweenRungsAndPastTheTopEachStepCostsOneOfItsRungs) {
  LaunchCosts c = device_like();                     // C(k) = 1e-8 + k * 1e-9 on every rung
  EXPECT_NEAR(c.per_sample(5), 1e-8 + 5e-9, 1e-20);  // on rung 8, five of its steps
  EXPECT_DOUBLE_EQ(c.per_sample(256), 1e-8 + 256e-9);
  EXPECT_NEAR(c.per_sample(512), 1e-8 + 512e-9, 1e-20);  // the state loaded once
  EXPECT_NEAR(c.per_sample(600), 1e-8 + 600e-9, 1e-20);
  // A rung dearer than its neighbours (8 steps for 3e-8, a step 2e-8 / 7 beyond the first): five of
  // its steps cost three fewer than its eight.
  c.per_sample_seconds[rung_index(8)] = 3e-8;
  EXPECT_NEAR(c.per_sample(5), 3e-8 - 3.0 * (3e-8 - 1.1e-8) / 7.0, 1e-20);
}

}  // namespace
}  // namespace eagle
