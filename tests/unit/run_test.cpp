// run_until_done on one execution space (TestSpace), against a plain serial reference loop.

#include "batch.hpp"
#include "countdown_model.hpp"
#include "eagle_test_space.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/oscillator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace eagle::test {
namespace {

using Mem = TestSpace::memory_space;
using kernels::Oscillator;

std::vector<double> linspace(double a, double b, std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = n == 1 ? a : a + (b - a) * static_cast<double>(i) / static_cast<double>(n - 1);
  return v;
}

/// The seed's oscillator batch: x = 1, v = 0, t = 0, omega spread over [1, 3].
struct OscillatorBatch {
  explicit OscillatorBatch(std::size_t n)
      : host{{std::vector<double>(n, 1.0), std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)},
             {linspace(1.0, 3.0, n)},
             std::vector<bool>(n, false)},
        x(plane<TestSpace>("x", host.state[0])),
        v(plane<TestSpace>("v", host.state[1])),
        t(plane<TestSpace>("t", host.state[2])),
        omega(plane<TestSpace>("omega", host.inputs[0])) {}

  HostBatch host;
  Kokkos::View<double*, Mem> x, v, t, omega;

  Report run(int k, std::int64_t max_steps) {
    return run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, k), state(x, v, t), inputs(omega), max_steps);
  }
  std::vector<std::vector<double>> state_now() const { return {to_host(x), to_host(v), to_host(t)}; }
};

/// One arm of a run: how many steps a launch fuses and which loop nest runs them.
struct Arm {
  Steps steps;
  LoopNest nest;
};

std::string arm_name(const ::testing::TestParamInfo<Arm>& info) {
  std::string name =
      info.param.steps.kind() == Steps::Kind::automatic ? "auto" : "k" + std::to_string(info.param.steps.k());
  return name + (info.param.nest == LoopNest::tile ? "_tile" : "_per_sample");
}

class Run : public ::testing::TestWithParam<Arm> {
 protected:
  Deployed<Oscillator> oscillator() const { return deploy(Oscillator{1.0, 1e-3}, GetParam().steps, GetParam().nest); }
};

TEST_P(Run, OscillatorMatchesSerialLoopBitForBit) {
  OscillatorBatch batch(1000);
  HostBatch expected = batch.host;
  reference_run(Oscillator{1.0, 1e-3}, expected, 10000);

  const Report report =
      run_until_done(TestSpace(), oscillator(), state(batch.x, batch.v, batch.t), inputs(batch.omega), 10000);
  EXPECT_EQ(batch.state_now(), expected.state);  // exact equality: same arithmetic per sample
  EXPECT_EQ(report.finished, 1000);
  EXPECT_EQ(report.unfinished, 0);
  EXPECT_EQ(report.longest_sample_steps, 1000);
  EXPECT_EQ(report.loop_nest, describe(GetParam().nest));
}

TEST_P(Run, CountdownStepsEachSampleExactlyItsLengthUpToTheCap) {
  const std::int64_t max_steps = 700;
  std::vector<double> lengths(517);
  for (std::size_t i = 0; i < lengths.size(); ++i) lengths[i] = static_cast<double>(1 + (i * 37) % 1000);
  auto count = plane<TestSpace>("count", std::vector<double>(lengths.size(), 0.0));
  auto length = plane<TestSpace>("length", lengths);

  std::vector<Progress> seen;
  RunOptions options;
  options.observer = [&](const Progress& p) { seen.push_back(p); };
  const Report report = run_until_done(TestSpace(), deploy(Countdown{}, GetParam().steps, GetParam().nest),
                                       state(count), inputs(length), max_steps, options);

  const auto counts = to_host(count);
  std::int64_t unfinished = 0, work = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    EXPECT_EQ(counts[i], std::min<double>(lengths[i], max_steps)) << "sample " << i;
    unfinished += lengths[i] > max_steps ? 1 : 0;
    work += static_cast<std::int64_t>(std::min<double>(lengths[i], max_steps));
  }
  EXPECT_EQ(report.sample_steps, work);
  EXPECT_EQ(report.steps, max_steps);
  EXPECT_TRUE(report.exact_steps);  // capped: the longest samples ran every step asked for
  EXPECT_TRUE(report.capped);
  EXPECT_EQ(report.unfinished, unfinished);
  EXPECT_EQ(report.finished + report.unfinished, 517);

  // The history adds up, launch by launch, and the observer saw each launch once.
  std::int64_t launches = 0, steps = 0;
  for (const auto& [k, count_k] : report.launches_by_k) {
    launches += count_k;
    steps += k * count_k;
  }
  EXPECT_EQ(launches, report.launches);
  EXPECT_EQ(steps, report.steps);
  ASSERT_EQ(static_cast<std::int64_t>(seen.size()), report.launches);
  for (std::size_t l = 0; l < seen.size(); ++l) {
    EXPECT_EQ(seen[l].launch, static_cast<std::int64_t>(l) + 1);
    EXPECT_LE(seen[l].steps_done, max_steps);
    if (l > 0) {
      EXPECT_LE(seen[l].active, seen[l - 1].active);
    }
  }
  EXPECT_EQ(seen.back().active, 0);  // the capped samples step no more

  if (GetParam().steps.kind() == Steps::Kind::fixed) {
    const std::int64_t k = GetParam().steps.k();
    EXPECT_EQ(report.launches, (max_steps + k - 1) / k);  // whole launches, the last cut to the cap
    if (k <= max_steps) {
      EXPECT_EQ(report.launches_by_k.at(k), max_steps / k);
    }
  }
}

TEST_P(Run, FailingSamplesStopAloneWithTheirStatus) {
  const std::size_t n = 100;
  std::vector<double> fail_at(n, 0.0), nan_at(n, 0.0);
  fail_at[10] = 20;
  fail_at[77] = 1;
  nan_at[30] = 5;
  auto count = plane<TestSpace>("count", std::vector<double>(n, 0.0));
  auto value = plane<TestSpace>("value", std::vector<double>(n, 1.0));
  auto length = plane<TestSpace>("length", std::vector<double>(n, 50.0));
  auto fail = plane<TestSpace>("fail_at", fail_at);
  auto nan = plane<TestSpace>("nan_at", nan_at);

  const Report report = run_until_done(TestSpace(), deploy(Fragile{}, GetParam().steps, GetParam().nest),
                                       state(count, value), inputs(length, fail, nan), 1000);
  EXPECT_EQ(report.failed, 3);
  EXPECT_EQ(report.finished, 97);
  EXPECT_EQ(report.unfinished, 0);
  EXPECT_EQ(report.failures, (std::map<int, std::int64_t>{{status::non_finite, 1}, {Fragile::gave_up, 2}}));
  EXPECT_EQ(report.first_failures, (std::vector<std::pair<std::int64_t, int>>{
                                       {10, Fragile::gave_up}, {30, status::non_finite}, {77, Fragile::gave_up}}));
  const auto counts = to_host(count);
  EXPECT_EQ(counts[10], 20.0);  // stopped at the failing step
  EXPECT_EQ(counts[77], 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (i == 10 || i == 30 || i == 77) continue;
    EXPECT_EQ(counts[i], 50.0) << "sample " << i;
  }
  EXPECT_NE(report.summary().find("3 failed"), std::string::npos) << report.summary();
}

std::vector<Arm> arms() {
  std::vector<Arm> all;
  for (LoopNest nest : {LoopNest::per_sample, LoopNest::tile}) {
    if (nest == LoopNest::tile && !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) continue;
    for (long long k : {1, 3, 16, 256, 1000}) all.push_back({Steps::fixed(k), nest});
    all.push_back({Steps::automatic(), nest});
  }
  return all;
}
INSTANTIATE_TEST_SUITE_P(Arms, Run, ::testing::ValuesIn(arms()), arm_name);

/// Flags for `n` samples, every seventh terminated before the run.
Kokkos::View<bool*, Mem> every_seventh_terminated(std::size_t n) {
  Kokkos::View<bool*, Mem> flags("terminated", n);
  auto host = Kokkos::create_mirror_view(flags);
  for (std::size_t i = 0; i < n; ++i) host(i) = i % 7 == 3;
  Kokkos::deep_copy(flags, host);
  return flags;
}

TEST(Run, TileSizeDoesNotChangeResults) {
  // 1001 samples: the last SIMD group of every tile size is partial, and some lanes start terminated.
  OscillatorBatch reference(1001);
  const auto reference_flags = every_seventh_terminated(1001);
  const Report per_sample =
      run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, 1, LoopNest::per_sample),
                     state(reference.x, reference.v, reference.t), inputs(reference.omega), reference_flags, 10000);
  EXPECT_EQ(per_sample.finished, 1001);
  // Samples that started terminated were not stepped.
  const auto t = to_host(reference.t);
  for (std::size_t i = 3; i < t.size(); i += 7) EXPECT_EQ(t[i], 0.0) << "sample " << i;
  if constexpr (!detail::is_host_space<TestSpace>) {
    GTEST_SKIP() << "the tile runs on host execution spaces only";
  } else {
    for (std::int64_t lanes : {16, 32, 64, 256, 1024}) {
      OscillatorBatch batch(1001);
      const auto flags = every_seventh_terminated(1001);
      RunOptions options;
      options.tile_lanes = lanes;
      const Report report =
          run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, Steps::automatic()),
                         state(batch.x, batch.v, batch.t), inputs(batch.omega), flags, 10000, options);
      EXPECT_EQ(bits(batch.state_now()), bits(reference.state_now())) << lanes << " lanes";
      EXPECT_EQ(to_host(flags), to_host(reference_flags));
      EXPECT_EQ(report.tile_lanes, lanes);
      EXPECT_EQ(report.tiles, (1001 + lanes - 1) / lanes);
      EXPECT_EQ(report.tile_reason, "override: " + std::to_string(lanes) + " lanes asked");
      EXPECT_EQ(report.loop_nest, "tile");
      EXPECT_EQ(report.longest_sample_steps, per_sample.longest_sample_steps);
    }
  }
}

TEST(Run, AutoOnTheTileTakesTheLargestK) {
  if (!detail::is_host_space<TestSpace>) GTEST_SKIP() << "the tile runs on host execution spaces only";
  OscillatorBatch batch(1000);
  const Report report = run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, Steps::automatic()),
                                       state(batch.x, batch.v, batch.t), inputs(batch.omega), 10000);
  EXPECT_EQ(report.loop_nest, "tile");
  EXPECT_EQ(report.launches, 1);
  EXPECT_EQ(report.launches_by_k, (std::map<std::int64_t, std::int64_t>{{tile_steps_per_launch, 1}}));
  EXPECT_GT(report.tile_lanes, 0);
  EXPECT_FALSE(report.tile_reason.empty());
}

TEST(Run, AutoPerSampleGrowsKThenStops) {
  OscillatorBatch batch(1000);
  RunOptions unmeasured;
  unmeasured.launch_costs = LaunchCosts{};  // the masked-work budget alone
  const Report report =
      run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, Steps::automatic(), LoopNest::per_sample),
                     state(batch.x, batch.v, batch.t), inputs(batch.omega), 10000, unmeasured);
  if (static_cast<std::int64_t>(TestSpace().concurrency()) >= 1000) {
    EXPECT_EQ(report.launches, 1);  // the batch fits in flight: one launch
  } else {
    // Nobody finishes before step 1000: K doubles to the top rung, 1 + 2 + ... + 256 + 256 + 256.
    EXPECT_EQ(report.launches, 11);
    EXPECT_EQ(report.steps, 1023);
    EXPECT_EQ(report.launches_by_k.at(256), 3);
  }
}

TEST(Run, AutoPerSampleWithLaunchCosts) {
  const auto run = [](const std::optional<LaunchCosts>& costs) {
    OscillatorBatch batch(1000);
    OscillatorBatch reference(1000);
    RunOptions options;
    options.launch_costs = costs;
    const Report report =
        run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, Steps::automatic(), LoopNest::per_sample),
                       state(batch.x, batch.v, batch.t), inputs(batch.omega), 10000, options);
    run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, 1, LoopNest::per_sample),
                   state(reference.x, reference.v, reference.t), inputs(reference.omega), 10000);
    EXPECT_EQ(bits(batch.state_now()), bits(reference.state_now()));
    EXPECT_EQ(report.longest_sample_steps, 1000);
    return report;
  };
  if (static_cast<std::int64_t>(TestSpace().concurrency()) >= 1000) GTEST_SKIP() << "the batch fits in flight";
  // Launches dear against masked lanes (F + A C(1) < 2 A M): the first launch is 1 step, then K
  // grows fourfold past the top rung in whole blocks while nobody finishes: 1 + 4 + ... + 1024 = 1365
  // steps, the last launch reaching past the samples' 1000.
  LaunchCosts device;
  for (int i = 0; i < rung_count; ++i) device.per_sample_seconds[i] = 0.5e-9 + static_cast<double>(1 << i) * 1e-9;
  device.masked_step_seconds = 1e-9;
  device.measured = true;
  const Report growing = run(device);
  EXPECT_EQ(growing.launches_by_k,
            (std::map<std::int64_t, std::int64_t>{{1, 1}, {4, 1}, {16, 1}, {64, 1}, {256, 1}, {1024, 1}}));
  EXPECT_EQ(growing.steps, 1365);
  // Finished lanes that idle for free: one launch of the longest (8192 steps) does it.
  LaunchCosts host = device;
  host.masked_step_seconds = 0.0;
  const Report once = run(host);
  EXPECT_EQ(once.launches, 1);
  EXPECT_EQ(once.launches_by_k, (std::map<std::int64_t, std::int64_t>{{AutoSteps{}.longest_launch, 1}}));
  // Measured here, on this space (whatever they come to, the results and the cap hold).
  const Report measured = run(std::nullopt);
  EXPECT_LE(measured.steps, 10000);
}

TEST(Run, SeedFiguresForK1AndK16) {
  for (LoopNest nest : {LoopNest::per_sample, LoopNest::space_default}) {
    OscillatorBatch one(1000);
    const Report k1 = run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, 1, nest), state(one.x, one.v, one.t),
                                     inputs(one.omega), 10000);
    EXPECT_EQ(k1.launches, 1000);
    EXPECT_EQ(k1.steps, 1000);
    EXPECT_TRUE(k1.exact_steps);
    EXPECT_EQ(k1.launches_by_k, (std::map<std::int64_t, std::int64_t>{{1, 1000}}));

    OscillatorBatch sixteen(1000);
    const Report k16 = run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, 16, nest),
                                      state(sixteen.x, sixteen.v, sixteen.t), inputs(sixteen.omega), 10000);
    EXPECT_EQ(k16.launches, 63);
    EXPECT_EQ(k16.steps, 1008);
    EXPECT_FALSE(k16.exact_steps);
    EXPECT_EQ(k16.summary(), "k=16: 63 launches, 1008 steps, exact_steps=false");
  }
}

TEST(Run, OscillatorFollowsTheKnownSolution) {
  // Explicit Euler on x'' = -omega^2 x from x = 1, v = 0 has a closed form: z = x + i v / omega
  // is multiplied by (1 - i omega dt) each step, so after n steps x = r^n cos(n theta) with
  // r = sqrt(1 + omega^2 dt^2), theta = atan(omega dt). n is the first step with t >= 1.
  const double dt = 1e-3;
  int n = 0;
  double t_end = 0.0;
  while (!(t_end >= 1.0)) {
    t_end += dt;
    ++n;
  }
  OscillatorBatch batch(64);
  const Report report = batch.run(16, 10000);
  EXPECT_EQ(report.longest_sample_steps, n);
  const auto x = to_host(batch.x);
  const auto t = to_host(batch.t);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double omega = batch.host.inputs[0][i];
    const double r = std::sqrt(1.0 + omega * omega * dt * dt), theta = std::atan(omega * dt);
    EXPECT_EQ(t[i], t_end) << "omega " << omega;  // stopped at step n, not one before or after
    EXPECT_NEAR(x[i], std::pow(r, n) * std::cos(n * theta), 1e-9) << "omega " << omega;
  }
}

TEST(Run, TerminatedSamplesAreNotStepped) {
  auto count = plane<TestSpace>("count", std::vector<double>(10, 0.0));
  auto length = plane<TestSpace>("length", std::vector<double>(10, 5.0));
  Kokkos::View<bool*, Mem> terminated("terminated", 10);
  auto flags = Kokkos::create_mirror_view(terminated);
  for (int i = 0; i < 10; ++i) flags(i) = i % 2 == 0;
  Kokkos::deep_copy(terminated, flags);

  const Report report =
      run_until_done(TestSpace(), deploy(Countdown{}, 4), state(count), inputs(length), terminated, 100);
  const auto counts = to_host(count);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(counts[i], i % 2 == 0 ? 0.0 : 5.0) << "sample " << i;
  EXPECT_EQ(report.launches, 2);
  EXPECT_EQ(report.steps, 8);
  EXPECT_FALSE(report.exact_steps);
  EXPECT_EQ(report.longest_sample_steps, 5);
  const auto after = to_host(terminated);
  EXPECT_TRUE(std::all_of(after.begin(), after.end(), [](bool b) { return b; }));
}

TEST(Run, ZeroSamplesMakeNoLaunchAndSaySo) {
  Kokkos::View<double*, Mem> x("x", 0), v("v", 0), t("t", 0), omega("omega", 0);
  const Report report = run_until_done(TestSpace(), deploy(Oscillator{}, 16), state(x, v, t), inputs(omega), 100);
  EXPECT_EQ(report.launches, 0);
  EXPECT_EQ(report.steps, 0);
  EXPECT_EQ(report.samples, 0);
  EXPECT_NE(report.note.find("no samples"), std::string::npos);
}

// Bad input: a clear exception naming the problem, and the caller's planes untouched.
class BadInput : public ::testing::Test {
 protected:
  OscillatorBatch batch{100};
  std::vector<std::vector<double>> before = batch.state_now();

  template <class Call>
  void expect_rejected(Call call, const std::string& message_part) {
    try {
      call();
      ADD_FAILURE() << "no exception; expected one mentioning '" << message_part << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(message_part), std::string::npos) << e.what();
    }
    EXPECT_EQ(bits(batch.state_now()), bits(before)) << "the caller's state was modified";
  }
};

TEST_F(BadInput, NonPositiveMaxSteps) {
  expect_rejected([&] { batch.run(1, 0); }, "max_steps must be positive, got 0");
  expect_rejected([&] { batch.run(16, -5); }, "max_steps must be positive, got -5");
}

TEST_F(BadInput, NonPositiveK) {
  expect_rejected([&] { batch.run(0, 100); }, "steps per launch must be positive, got 0");
  expect_rejected([&] { batch.run(-3, 100); }, "steps per launch must be positive, got -3");
}

TEST_F(BadInput, MismatchedStateExtents) {
  Kokkos::View<double*, Mem> short_v("short_v", 99);
  expect_rejected(
      [&] {
        run_until_done(TestSpace(), deploy(Oscillator{}), state(batch.x, short_v, batch.t), inputs(batch.omega), 10);
      },
      "state plane 1 ('short_v') has 99 samples, expected 100");
}

TEST_F(BadInput, MismatchedInputExtent) {
  Kokkos::View<double*, Mem> long_omega("long_omega", 101);
  expect_rejected(
      [&] {
        run_until_done(TestSpace(), deploy(Oscillator{}), state(batch.x, batch.v, batch.t), inputs(long_omega), 10);
      },
      "input plane 0 ('long_omega') has 101 samples, expected 100");
}

TEST_F(BadInput, MismatchedTerminatedExtent) {
  Kokkos::View<bool*, Mem> flags("flags", 7);
  expect_rejected(
      [&] {
        run_until_done(TestSpace(), deploy(Oscillator{}), state(batch.x, batch.v, batch.t), inputs(batch.omega), flags,
                       10);
      },
      "the terminated plane has 7 samples, expected 100");
}

TEST_F(BadInput, NonFiniteInitialState) {
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), batch.v);
  v(42) = std::numeric_limits<double>::quiet_NaN();
  Kokkos::deep_copy(batch.v, v);
  before = batch.state_now();
  expect_rejected([&] { batch.run(16, 100); }, "state plane 1 ('v') holds a non-finite value at sample 42");
  EXPECT_TRUE(std::isnan(to_host(batch.v)[42]));
}

TEST_F(BadInput, NonFiniteInput) {
  auto omega = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), batch.omega);
  omega(7) = std::numeric_limits<double>::infinity();
  Kokkos::deep_copy(batch.omega, omega);
  expect_rejected([&] { batch.run(1, 100); }, "input plane 0 ('omega') holds a non-finite value at sample 7");
}

// The check reads blocks of samples (2048 a work item on a host), runs of 8 inside each: whichever
// block, run or tail holds the bad values, it names the lowest sample.
TEST_F(BadInput, NonFiniteNamesTheLowestSampleAcrossBlocks) {
  batch = OscillatorBatch(2 * 2048 + 11);
  const auto set = [](const Kokkos::View<double*, Mem>& plane, std::size_t i, double value) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plane);
    host(i) = value;
    Kokkos::deep_copy(plane, host);
  };
  set(batch.t, 4106, std::numeric_limits<double>::quiet_NaN());  // the last sample, in the tail of a block
  before = batch.state_now();
  expect_rejected([&] { batch.run(16, 100); }, "state plane 2 ('t') holds a non-finite value at sample 4106");
  set(batch.v, 3001, -std::numeric_limits<double>::infinity());  // a block's run of 8, not its first lane
  before = batch.state_now();
  expect_rejected([&] { batch.run(16, 100); }, "state plane 1 ('v') holds a non-finite value at sample 3001");
  set(batch.x, 2047, std::numeric_limits<double>::quiet_NaN());  // the first block's last sample
  before = batch.state_now();
  expect_rejected([&] { batch.run(1, 100); }, "state plane 0 ('x') holds a non-finite value at sample 2047");
  set(batch.x, 2047, 1.0), set(batch.v, 3001, 0.0), set(batch.t, 4106, 0.0);  // a finite state again
  set(batch.omega, 4100, std::numeric_limits<double>::infinity());            // inputs: their own lowest
  set(batch.omega, 2050, std::numeric_limits<double>::quiet_NaN());
  before = batch.state_now();
  expect_rejected([&] { batch.run(1, 100); }, "input plane 0 ('omega') holds a non-finite value at sample 2050");
}

TEST_F(BadInput, NegativeTileLanes) {
  RunOptions o;
  o.tile_lanes = -3;
  expect_rejected(
      [&] {
        run_until_done(TestSpace(), deploy(Oscillator{}), state(batch.x, batch.v, batch.t), inputs(batch.omega), 10, o);
      },
      "tile_lanes must be 0 (sized from the caches) or positive, got -3");
}

TEST(Run, LaunchesByKKeepKBeyond32Bits) {
  // One launch that asks for 2^33 + 5 steps (the cap allows it); every sample ends after 3.
  const std::int64_t k = (std::int64_t{1} << 33) + 5;
  const HostBatch start{{std::vector<double>(10, 0.0)}, {std::vector<double>(10, 3.0)}, std::vector<bool>(10, false)};
  const auto count = plane<TestSpace>("count", start.state[0]);
  const auto length = plane<TestSpace>("length", start.inputs[0]);
  const Report report = run_until_done(TestSpace(), deploy(Countdown{}, Steps::fixed(k), LoopNest::per_sample),
                                       state(count), inputs(length), std::int64_t{1} << 40);
  EXPECT_EQ(report.launches_by_k, (std::map<std::int64_t, std::int64_t>{{k, 1}}));
  EXPECT_EQ(report.longest_sample_steps, 3);
}

TEST_F(BadInput, StridedPlanes) {
  // Columns of a LayoutRight matrix are strided: refused by name (Kokkos would abort the process).
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> matrix("matrix", 100, 3);
  const auto column = [&](int c) { return Kokkos::subview(matrix, Kokkos::ALL, c); };
  expect_rejected([&] { state(column(0), column(1), column(2)); },
                  "eagle::state: plane 0 ('matrix') has stride 3; eagle needs unit-stride planes");
  expect_rejected([&] { inputs(batch.omega, column(1)); }, "eagle::inputs: plane 1 ('matrix') has stride 3");
}

TEST(Run, LayoutLeftColumnsRunAsPlanes) {
  // A LayoutLeft matrix's columns are unit-stride: a run on them matches one on separate planes.
  constexpr std::size_t n = 100;
  OscillatorBatch separate(n);
  separate.run(16, 2000);
  Kokkos::View<double**, Kokkos::LayoutLeft, Mem> matrix("matrix", n, 3);
  const auto column = [&](int c) { return Kokkos::subview(matrix, Kokkos::ALL, c); };
  Kokkos::deep_copy(column(0), 1.0);
  run_until_done(TestSpace(), deploy(Oscillator{1.0, 1e-3}, 16), state(column(0), column(1), column(2)),
                 inputs(separate.omega), 2000);
  const Kokkos::View<double*, Kokkos::LayoutLeft, Mem> x = column(0), v = column(1);
  EXPECT_EQ(bits({to_host(x), to_host(v)}), bits({to_host(separate.x), to_host(separate.v)}));
}

// Counters of steps asked for (K times the samples a launch holds) stop at INT64_MAX where a cap of
// INT64_MAX lets a launch ask for that many steps; the sanitizer flavour checks the arithmetic.
TEST(Run, CountersOfStepsAskedForSaturate) {
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  std::vector<std::pair<Deployed<Oscillator>, RunOptions>> arms = {
      {deploy(Oscillator{1.0, 1e-3}, std::numeric_limits<long long>::max(), LoopNest::per_sample), {}},
      {deploy(Oscillator{1.0, 1e-3}, Steps::automatic(), LoopNest::per_sample), {}}};
  arms[1].second.launch_costs = LaunchCosts{};  // the masked-work budget alone: one launch of every step
  for (const auto& [deployed, options] : arms) {
    for (std::size_t n : {std::size_t{1000}, std::size_t{2}}) {
      OscillatorBatch batch(n);
      const Report r =
          run_until_done(TestSpace(), deployed, state(batch.x, batch.v, batch.t), inputs(batch.omega), most, options);
      SCOPED_TRACE(r.summary());
      EXPECT_EQ(r.finished, static_cast<std::int64_t>(n));
      EXPECT_EQ(r.longest_sample_steps, 1000);
      EXPECT_EQ(r.sample_steps, 1000 * static_cast<std::int64_t>(n));
      EXPECT_GE(r.lane_steps, r.sample_steps);
      EXPECT_GE(r.steps, r.longest_sample_steps);
      if (r.launches == 1) {
        EXPECT_EQ(r.steps, most);
        EXPECT_EQ(r.lane_steps, most);
      }
    }
  }
}

}  // namespace
}  // namespace eagle::test
