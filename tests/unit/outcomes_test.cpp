// What a run tells a caller per sample (outcome planes), what a step body may know of where it is
// (eagle::StepContext), and the run's defaults: steps = auto, launches bounded while something
// waits on them, plans pinned by passing measured costs back. Every run against a serial loop.

#include "batch.hpp"
#include "countdown_model.hpp"
#include "eagle_test_space.hpp"
#include "walk_model.hpp"

#include <eagle/eagle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace eagle::test {
namespace {

using Mem = TestSpace::memory_space;

static_assert(takes_context<Walk>, "the walk's step body takes its context");
static_assert(!takes_context<Countdown>, "a step body of two arguments takes none");

struct WalkArm {
  std::string name;
  Steps steps;
  LoopNest nest;
  Compaction compaction;
  std::int64_t in_flight;
};

std::vector<WalkArm> walk_arms() {
  std::vector<WalkArm> all;
  for (LoopNest nest : {LoopNest::per_sample, LoopNest::tile}) {
    if (nest == LoopNest::tile && !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) continue;
    const std::string nest_name = nest == LoopNest::tile ? "tile" : "per_sample";
    all.push_back({nest_name + "_k1", Steps::fixed(1), nest, Compaction::off, 0});
    all.push_back({nest_name + "_k16_map", Steps::fixed(16), nest, Compaction::map, 0});
    all.push_back({nest_name + "_k16_reorder", Steps::fixed(16), nest, Compaction::reorder, 0});
    all.push_back({nest_name + "_auto_revival", Steps::automatic(), nest, Compaction::automatic, 100});
    all.push_back({nest_name + "_auto", Steps::automatic(), nest, Compaction::automatic, 0});
  }
  return all;
}

class Context : public ::testing::TestWithParam<WalkArm> {
 protected:
  static constexpr std::size_t n = 700;
  static constexpr std::int64_t max_steps = 250;  // samples longer than this are capped

  RunOptions options() const {
    RunOptions o;
    o.compaction = GetParam().compaction;
    o.in_flight = GetParam().in_flight;
    return o;
  }
  Deployed<Walk> walk() const { return deploy(Walk{}, GetParam().steps, GetParam().nest); }

  /// The serial walk of samples [first, first + n): states, steps and status.
  static std::pair<HostBatch, ReferenceOutcome> reference(std::int64_t first) {
    const std::size_t all_samples = static_cast<std::size_t>(first) + n;
    HostBatch expected{{std::vector<double>(all_samples, 0.0)}, {}, std::vector<bool>(all_samples, false)};
    const ReferenceOutcome all = reference_run(Walk{}, expected, max_steps);
    const auto from = static_cast<std::ptrdiff_t>(first);
    HostBatch part{{std::vector<double>(expected.state[0].begin() + from, expected.state[0].end())}, {}, {}};
    ReferenceOutcome out{{all.steps.begin() + from, all.steps.end()}, {all.status.begin() + from, all.status.end()}};
    return {part, out};
  }
};

TEST_P(Context, EachStepSeesItsSampleAndStepOnEveryArm) {
  const auto [expected, outcome] = reference(0);
  auto x = plane<TestSpace>("x", std::vector<double>(n, 0.0));
  const Outcomes<Mem> out = outcomes<Mem>(n);
  const Report report = run_until_done(TestSpace(), walk(), state(x), no_inputs, out, max_steps, options());
  EXPECT_EQ(bits({to_host(x)}), bits(expected.state));
  EXPECT_EQ(to_host(out.steps_taken), outcome.steps);
  EXPECT_EQ(to_host(out.status), outcome.status);
  EXPECT_GT(report.unfinished, 0);
}

TEST_P(Context, ThePartOfALargerBatchSeesItsGlobalIndices) {
  constexpr std::int64_t first = 1234;
  const auto [expected, outcome] = reference(first);
  auto x = plane<TestSpace>("x", std::vector<double>(n, 0.0));
  RunOptions o = options();
  o.first_sample = first;
  const Outcomes<Mem> out = outcomes<Mem>(n);
  run_until_done(TestSpace(), walk(), state(x), no_inputs, out, max_steps, o);
  EXPECT_EQ(bits({to_host(x)}), bits(expected.state));
  EXPECT_EQ(to_host(out.steps_taken), outcome.steps);
}

TEST_P(Context, AResumedRunContinuesEachSampleAtItsStep) {
  const auto [expected, outcome] = reference(0);
  const std::string path = scratch_folder() + "/walk.ckpt";
  RunOptions o = options();
  o.checkpoint.path = path;
  o.checkpoint.every_launches = 2;
  o.checkpoint.longest_launch_seconds = 1e-4;  // auto: many short launches, so checkpoints mid-run
  auto x = plane<TestSpace>("x", std::vector<double>(n, 0.0));
  const Report whole = run_until_done(TestSpace(), walk(), state(x), no_inputs, max_steps, o);
  ASSERT_GT(whole.checkpoints_written, 0) << whole.summary();

  auto resumed_x = plane<TestSpace>("x", std::vector<double>(n, 0.0));
  RunOptions resume = options();
  resume.resume_from = path;
  const Outcomes<Mem> out = outcomes<Mem>(n);
  run_until_done(TestSpace(), walk(), state(resumed_x), no_inputs, out, max_steps, resume);
  EXPECT_EQ(bits({to_host(resumed_x)}), bits(expected.state));
  EXPECT_EQ(to_host(out.steps_taken), outcome.steps);
  EXPECT_EQ(to_host(out.status), outcome.status);
}

INSTANTIATE_TEST_SUITE_P(Arms, Context, ::testing::ValuesIn(walk_arms()),
                         [](const ::testing::TestParamInfo<WalkArm>& info) { return info.param.name; });

// --- Outcome planes -------------------------------------------------------------------------

class OutcomePlanes : public ::testing::TestWithParam<WalkArm> {};

TEST_P(OutcomePlanes, SayHowEachSampleEndedAndHowManyStepsItTook) {
  // Lengths 1..120 against a cap of 100; two model failures, one NaN, every ninth sample
  // terminated before the run.
  constexpr std::size_t n = 300;
  constexpr std::int64_t max_steps = 100;
  HostBatch start{{std::vector<double>(n, 0.0), std::vector<double>(n, 1.0)},
                  {std::vector<double>(n), std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)},
                  std::vector<bool>(n, false)};
  for (std::size_t i = 0; i < n; ++i) {
    start.inputs[0][i] = static_cast<double>(1 + (i * 53) % 120);
    start.terminated[i] = i % 9 == 4;
  }
  start.inputs[1][17] = 5;   // fails at its fifth step
  start.inputs[1][200] = 1;  // at its first
  start.inputs[2][32] = 3;   // NaN from its third
  HostBatch expected = start;
  const ReferenceOutcome reference = reference_run(Fragile{}, expected, max_steps);

  auto count = plane<TestSpace>("count", start.state[0]);
  auto value = plane<TestSpace>("value", start.state[1]);
  auto length = plane<TestSpace>("length", start.inputs[0]);
  auto fail = plane<TestSpace>("fail_at", start.inputs[1]);
  auto nan = plane<TestSpace>("nan_at", start.inputs[2]);
  const Outcomes<Mem> out = outcomes<Mem>(n);
  auto flags = Kokkos::create_mirror_view(out.terminated);
  for (std::size_t i = 0; i < n; ++i) flags(i) = start.terminated[i];
  Kokkos::deep_copy(out.terminated, flags);
  RunOptions o;
  o.compaction = GetParam().compaction;
  o.in_flight = GetParam().in_flight;
  const Report report = run_until_done(TestSpace(), deploy(Fragile{}, GetParam().steps, GetParam().nest),
                                       state(count, value), inputs(length, fail, nan), out, max_steps, o);

  // The NaN sample stops at the end of the launch it turned NaN in: its count depends on K.
  const std::vector<std::int64_t> taken = to_host(out.steps_taken);
  std::vector<std::vector<double>> now{to_host(count), to_host(value)};
  std::vector<std::int64_t> expected_steps = reference.steps;  // 0 for samples terminated on entry
  expected_steps[32] = taken[32];
  expected.state[0][32] = now[0][32];
  EXPECT_EQ(to_host(out.status), reference.status);
  EXPECT_EQ(taken, expected_steps);
  EXPECT_EQ(bits(now), bits(expected.state));
  const auto codes = to_host(out.status);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), status::capped), report.unfinished);
  EXPECT_EQ(codes[17], Fragile::gave_up);
  EXPECT_EQ(codes[32], status::non_finite);
  EXPECT_EQ(describe_status(codes[17]), "model failure 17");
  EXPECT_EQ(describe_status(status::capped), "capped");
}

INSTANTIATE_TEST_SUITE_P(Arms, OutcomePlanes, ::testing::ValuesIn(walk_arms()),
                         [](const ::testing::TestParamInfo<WalkArm>& info) { return info.param.name; });

TEST(OutcomePlanes, OfAnotherLengthAreRefusedBeforeAnything) {
  auto count = plane<TestSpace>("count", std::vector<double>(10, 0.0));
  auto length = plane<TestSpace>("length", std::vector<double>(10, 5.0));
  Outcomes<Mem> out = outcomes<Mem>(10);
  out.steps_taken = Kokkos::View<std::int64_t*, Mem>("short", 9);
  try {
    run_until_done(TestSpace(), deploy(Countdown{}), state(count), inputs(length), out, 100);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the steps_taken plane has 9 samples, expected 10"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(to_host(count), std::vector<double>(10, 0.0));
}

// --- Defaults, launch bounds and pinned plans ------------------------------------------------

TEST(Defaults, DeployPicksAutoAndTheSpacesOwnNest) {
  const Deployed<Countdown> d = deploy(Countdown{});
  EXPECT_EQ(d.steps.kind(), Steps::Kind::automatic);
  EXPECT_EQ(d.nest, LoopNest::space_default);
  EXPECT_EQ(deploy(Countdown{}, 1).steps.k(), 1);  // the seed's one step a launch, one argument away
}

/// A batch of countdowns, 1 to 3000 steps long, and a run of it with `o` (default deploy).
Report countdowns(const RunOptions& o, std::size_t n = 2000) {
  std::vector<double> lengths;
  for (std::size_t i = 0; i < n; ++i) lengths.push_back(static_cast<double>(1 + (i * 7919) % 3000));
  auto count = plane<TestSpace>("count", std::vector<double>(n, 0.0));
  auto length = plane<TestSpace>("length", lengths);
  const Report r = run_until_done(TestSpace(), deploy(Countdown{}), state(count), inputs(length), 5000, o);
  const auto counts = to_host(count);
  EXPECT_EQ(counts, lengths);
  return r;
}

TEST(LaunchBound, ACheckpointCadenceByLaunchesIsHeardWhateverKTheRunPicks) {
  RunOptions o;
  o.checkpoint.path = scratch_folder() + "/cadence.ckpt";
  o.checkpoint.every_launches = 1;
  const Report r = countdowns(o);
  EXPECT_GE(r.launches, 2) << r.summary();  // a first short launch at least
  EXPECT_EQ(r.checkpoints_written, r.launches - 1) << r.summary();
}

TEST(LaunchBound, ACheckpointCadenceBySecondsIsHeardWhateverKTheRunPicks) {
  RunOptions o;
  o.checkpoint.path = scratch_folder() + "/cadence.ckpt";
  o.checkpoint.every_seconds = 1e-4;
  const Report r = countdowns(o);
  EXPECT_GE(r.checkpoints_written, 1) << r.summary();
  for (const auto& [k, count] : r.launches_by_k) EXPECT_LT(k, 3000) << r.summary();
}

TEST(LaunchBound, AnObserverHearsFromTheRunWhateverKTheRunPicks) {
  RunOptions o;
  std::int64_t heard = 0;
  o.observer = [&](const Progress&) { ++heard; };
  o.observer_seconds = 1e-4;
  const Report r = countdowns(o);
  EXPECT_GE(heard, 2) << r.summary();
  EXPECT_EQ(heard, r.launches);
  o.observer_seconds = 0.0;
  try {
    countdowns(o);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("observer_seconds must be positive"), std::string::npos) << e.what();
  }
}

TEST(Figures, SayWhatTheSamplesRanWhateverTheLaunchesAskedFor) {
  const Report r = countdowns({});
  std::int64_t work = 0;
  for (std::int64_t i = 0; i < 2000; ++i) work += 1 + (i * 7919) % 3000;
  EXPECT_EQ(r.sample_steps, work);
  EXPECT_EQ(r.longest_sample_steps, 3000);
  EXPECT_EQ(r.work(), "2000 samples, " + std::to_string(work) + " sample-steps, the longest 3000 steps");
  if (r.loop_nest == "tile") {
    // One launch asked for 5000 steps (the cap); lanes refilled as samples stopped.
    EXPECT_EQ(r.lane_steps, r.sample_steps) << r.summary();
    EXPECT_LT(r.lane_steps, 2000 * r.steps) << r.summary();
  } else {
    EXPECT_GE(r.lane_steps, r.sample_steps) << r.summary();
    EXPECT_LE(r.lane_steps, 2000 * r.steps) << r.summary();
  }
}

TEST(PinnedPlan, MeasuredCostsPassedBackGiveTheSameLaunches) {
  RunOptions measured;
  measured.compaction = Compaction::off;
  const Report first = [&] {
    std::vector<double> lengths(3000);
    for (std::size_t i = 0; i < lengths.size(); ++i) lengths[i] = static_cast<double>(1 + (i * 7919) % 3000);
    const std::vector<double> zeros(lengths.size(), 0.0);
    auto count = plane<TestSpace>("count", zeros);
    auto length = plane<TestSpace>("length", lengths);
    return run_until_done(TestSpace(), deploy(Countdown{}, Steps::automatic(), LoopNest::per_sample), state(count),
                          inputs(length), 5000, measured);
  }();
  ASSERT_TRUE(first.launch_costs.has_value());
  EXPECT_TRUE(first.launch_costs->measured);
  RunOptions pinned = measured;
  pinned.launch_costs = first.launch_costs;
  std::vector<std::map<std::int64_t, std::int64_t>> plans;
  for (int run = 0; run < 3; ++run) {
    std::vector<double> lengths(3000);
    for (std::size_t i = 0; i < lengths.size(); ++i) lengths[i] = static_cast<double>(1 + (i * 7919) % 3000);
    const std::vector<double> zeros(lengths.size(), 0.0);
    auto count = plane<TestSpace>("count", zeros);
    auto length = plane<TestSpace>("length", lengths);
    const Report r = run_until_done(TestSpace(), deploy(Countdown{}, Steps::automatic(), LoopNest::per_sample),
                                    state(count), inputs(length), 5000, pinned);
    EXPECT_EQ(to_host(count), lengths);
    EXPECT_EQ(r.probe_seconds, 0.0);  // nothing measured: the costs were given
    plans.push_back(r.launches_by_k);
  }
  EXPECT_EQ(plans[0], plans[1]);
  EXPECT_EQ(plans[0], plans[2]);
}

/// A step of a few microseconds: the probe sized for nanosecond steps took seconds on such models.
struct SlowStep {
  static constexpr const char* name = "slow_step";
  using scalar_type = double;
  enum State : int { x, count, state_count };
  enum Input : int { input_count };

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I&) const {
    for (int r = 0; r < 200; ++r) s[x] = s[x] * 0.999 + 1e-3;
    s[count] += 1.0;
    return s[count] >= 100.0;
  }
};

TEST(Probe, AnExpensiveStepIsMeasuredWithinTheProbesBudgetAndApartFromTheRun) {
  constexpr std::size_t n = 4000;
  auto x = plane<TestSpace>("x", std::vector<double>(n, 1.0));
  auto count = plane<TestSpace>("count", std::vector<double>(n, 0.0));
  const Kokkos::Timer wall;
  const Report r = run_until_done(TestSpace(), deploy(SlowStep{}, Steps::automatic(), LoopNest::per_sample),
                                  state(x, count), no_inputs, 1000);
  const double seconds = wall.seconds();
  EXPECT_EQ(r.finished, static_cast<std::int64_t>(n));
  // The budget is detail::probe_budget_seconds (0.2 s); a loaded test machine gets ten times it.
  // A probe sized for nanosecond steps ran about 2^17 x 270 sample-steps: seconds on this step.
  EXPECT_GT(r.probe_seconds, 0.0);
  EXPECT_LT(r.probe_seconds, 10 * detail::probe_budget_seconds);
  EXPECT_LE(r.seconds + r.probe_seconds, seconds + 1e-3);
}

}  // namespace
}  // namespace eagle::test
