// The ETA behind the progress line, on synthetic clocks: runs whose launch costs and finishing
// curves are known exactly, so the true time left is known at every launch.

#include <eagle/kernels/spread_batches.hpp>
#include <eagle/progress.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace eagle {
namespace {

// --- A synthetic run: per-sample lengths, a K policy and a cost per launch -------------------

enum class Cost { per_step, per_running_sample };  // masked lanes cost (no compaction) / don't
enum class Policy { k1, k16, doubling };

struct SyntheticRun {
  std::vector<Progress> launches;  // what an observer is told
  double total_seconds = 0.0;
};

SyntheticRun synthesize(const std::vector<double>& lengths, Policy policy, Cost cost, std::int64_t max_steps) {
  SyntheticRun run;
  const auto n = static_cast<std::int64_t>(lengths.size());
  std::int64_t steps = 0, k = 1, launch = 0;
  double seconds = 0.0;
  const auto running_after = [&](std::int64_t s) {
    return static_cast<std::int64_t>(std::count_if(lengths.begin(), lengths.end(), [&](double l) { return l > s; }));
  };
  while (running_after(steps) > 0 && steps < max_steps) {
    k = policy == Policy::k1 ? 1 : policy == Policy::k16 ? 16 : (launch == 0 ? 1 : std::min<std::int64_t>(2 * k, 256));
    k = std::min(k, max_steps - steps);
    double work = 0.0;  // sample-steps of running samples in this launch
    for (double l : lengths) work += std::clamp(l - static_cast<double>(steps), 0.0, static_cast<double>(k));
    // 2 us per launch, 1 ns per lane-step: every lane, or only running ones.
    seconds += 2e-6 + 1e-9 * (cost == Cost::per_step ? static_cast<double>(k * n) : work);
    steps += k;
    ++launch;
    run.launches.push_back({launch, k, running_after(steps), n, steps, max_steps, seconds});
  }
  run.total_seconds = seconds;
  return run;
}

// Past 20 % of the run's time, every ETA the progress line would print is known and within 2x
// of the true time left, give or take 1 % of the run (the last few samples of a batch finish at
// steps no curve can foresee; the line shows whole seconds); returns how many launches were checked.
int expect_eta_within_2x(const SyntheticRun& run, const std::string& name) {
  ProgressHistory history;
  int checked = 0;
  for (const Progress& p : run.launches) {
    history.push(p);
    if (p.seconds < 0.2 * run.total_seconds || p.active == 0) continue;
    const Eta eta = estimate_time_left(history.points());
    const double left = run.total_seconds - p.seconds, slack = 0.01 * run.total_seconds;
    EXPECT_TRUE(eta.known) << name << " at launch " << p.launch;
    EXPECT_GE(eta.seconds, 0.5 * left - slack) << name << " at launch " << p.launch << ", step " << p.steps_done;
    EXPECT_LE(eta.seconds, 2.0 * left + slack) << name << " at launch " << p.launch << ", step " << p.steps_done;
    ++checked;
  }
  return checked;
}

TEST(Progress, EtaWithin2xOnSpreadBatchesPast20Percent) {
  // eagle-simulate's spread batches: log-uniform lengths over 100x and 1000x.
  for (kernels::Spread spread : {kernels::Spread::x100, kernels::Spread::x1000}) {
    const std::vector<double> lengths = kernels::sample_lengths(spread, 20000, 10.0, 7);
    for (Policy policy : {Policy::k1, Policy::k16, Policy::doubling}) {
      for (Cost cost : {Cost::per_step, Cost::per_running_sample}) {
        const std::string name = std::string(kernels::describe(spread)) + " policy " +
                                 std::to_string(static_cast<int>(policy)) + " cost " +
                                 std::to_string(static_cast<int>(cost));
        EXPECT_GT(expect_eta_within_2x(synthesize(lengths, policy, cost, 100000), name), 0) << name;
      }
    }
  }
}

TEST(Progress, EtaWithin2xOnLengthsSpreadLinearly) {
  std::vector<double> lengths;
  for (int i = 0; i < 5000; ++i) lengths.push_back(100.0 + 0.2 * i);  // 100 ... 1100 steps, evenly
  EXPECT_GT(expect_eta_within_2x(synthesize(lengths, Policy::k1, Cost::per_step, 100000), "linear"), 0);
}

TEST(Progress, UniformBatchSaysItDoesNotKnowUntilSamplesFinish) {
  // The demo's batch: every sample needs 1000 steps, the cap is 10000. The cap bound (9x the time
  // left) is shown as a bound, not as the estimate.
  const SyntheticRun run = synthesize(std::vector<double>(1000, 1000.0), Policy::k1, Cost::per_step, 10000);
  ProgressHistory history;
  for (const Progress& p : run.launches) {
    history.push(p);
    const Eta eta = estimate_time_left(history.points());
    if (p.active > 0) {
      EXPECT_FALSE(eta.known) << "launch " << p.launch;
      if (p.launch > 1) {
        EXPECT_NEAR(eta.at_most, 3e-6 * static_cast<double>(10000 - p.steps_done),
                    1e-9);  // 2 us + 1000 x 1 ns per step
      }
    } else {
      EXPECT_TRUE(eta.known);
      EXPECT_EQ(eta.seconds, 0.0);
    }
  }
}

TEST(Progress, HistoryStaysShortAndKeepsTheLatest) {
  ProgressHistory history;
  for (std::int64_t i = 1; i <= 100000; ++i) history.push({i, 1, 10, 10, i, 200000, 1e-3 * static_cast<double>(i)});
  EXPECT_LT(history.points().size(), 128u);
  EXPECT_EQ(history.points().front().launch, 1);
  EXPECT_EQ(history.points().back().launch, 100000);
}

std::string drawn(const std::vector<Progress>& launches, double quiet_for) {
  std::FILE* out = std::tmpfile();
  ProgressLine line("test", out, quiet_for, /*interval=*/0.0);
  for (const Progress& p : launches) line(p);
  std::rewind(out);
  char buffer[2048] = {};
  const std::size_t got = std::fread(buffer, 1, sizeof buffer - 1, out);
  std::fclose(out);
  return std::string(buffer, got);
}

TEST(Progress, LineGivesNoEtaFromTheCapAloneAndEndsWhenTheRunEnds) {
  const std::string text = drawn(
      {{1, 16, 1000, 1000, 500, 10000, 0.5}, {2, 16, 1000, 1000, 1000, 10000, 1.0}, {3, 16, 0, 1000, 1100, 10000, 1.1}},
      /*quiet_for=*/0.0);
  EXPECT_NE(text.find("[test] launch 2"), std::string::npos) << text;
  // The cap bound (0.5 s per 500 steps, 9000 left: 9 s) is no estimate of when samples finish.
  EXPECT_NE(text.find("ETA ? (no sample finished yet)"), std::string::npos) << text;
  EXPECT_EQ(text.find("at most"), std::string::npos) << text;
  EXPECT_NE(text.find("100.0% done"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(Progress, ShortRunsPrintNothing) {
  EXPECT_EQ(drawn({{1, 16, 1000, 1000, 500, 10000, 0.5}, {2, 16, 0, 1000, 1000, 10000, 0.9}}, /*quiet_for=*/1.0), "");
}

}  // namespace
}  // namespace eagle
