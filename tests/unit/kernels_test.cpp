// The kernels library on one execution space (TestSpace), each model under k=1, a fixed K, auto
// (one sample per work item) and the host tile, against an independent reference.

#include "arms.hpp"
#include "batch.hpp"
#include "eagle_test_space.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/boris.hpp>
#include <eagle/kernels/counter_rng.hpp>
#include <eagle/kernels/dopri5_oscillator.hpp>
#include <eagle/kernels/duffing.hpp>
#include <eagle/kernels/first_passage.hpp>
#include <eagle/kernels/lorenz.hpp>
#if defined(EAGLE_TEST_HAS_KOKKOS_KERNELS)
#include <eagle/kernels/robertson.hpp>
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace eagle::test {

/// Each sample i's first draws at step 3 under seed 99 into out(i, ...) on TestSpace: three
/// uniforms, two normals and an exponential, in the order the test reads them. Out of the test
/// body: nvcc takes a device lambda only in a function it may name (a test body is private).
void draw_in_a_kernel(const Kokkos::View<double**, Kokkos::LayoutRight, TestSpace::memory_space>& out) {
  Kokkos::parallel_for(
      "eagle::test::streams", Kokkos::RangePolicy<TestSpace>(0, out.extent(0)), KOKKOS_LAMBDA(const int i) {
        kernels::RandomStream stream(99, static_cast<std::uint64_t>(i), 3);
        out(i, 0) = stream.uniform();
        out(i, 1) = stream.uniform();
        out(i, 2) = stream.normal();
        out(i, 3) = stream.normal();
        out(i, 4) = stream.exponential();
        out(i, 5) = stream.uniform();
      });
}

namespace {

class Kernels : public ::testing::TestWithParam<Arm> {};

// --- Lorenz: a plain serial RK4 loop written here, bit for bit -------------------------------

TEST_P(Kernels, LorenzMatchesAPlainRk4Loop) {
  const kernels::Lorenz model{{10.0, 8.0 / 3.0}, 1e-3, 0.5};
  const std::size_t n = 64;
  const auto rho = spread(n, 0.0, 30.0);
  const HostBatch start{{std::vector<double>(n, 1.0), std::vector<double>(n, 1.0), std::vector<double>(n, 1.0),
                         std::vector<double>(n, 0.0)},
                        {rho},
                        std::vector<bool>(n, false)};
  const auto [report, after] = run_against_reference(model, start, GetParam(), 100000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n));

  const double s = 10.0, b = 8.0 / 3.0, dt = 1e-3;
  for (std::size_t i = 0; i < n; ++i) {
    double x = 1, y = 1, z = 1, t = 0;
    auto f = [&](double xx, double yy, double zz, double& dx, double& dy, double& dz) {
      dx = s * (yy - xx);
      dy = xx * (rho[i] - zz) - yy;
      dz = xx * yy - b * zz;
    };
    // RK4's weights as the tableau holds them; the last step ends within dt/2 of t_end.
    const double sixth = 1.0 / 6, third = 1.0 / 3;
    while (!(t + 0.5 * dt >= 0.5)) {
      double k1x, k1y, k1z, k2x, k2y, k2z, k3x, k3y, k3z, k4x, k4y, k4z;
      f(x, y, z, k1x, k1y, k1z);
      f(x + dt * (0.5 * k1x), y + dt * (0.5 * k1y), z + dt * (0.5 * k1z), k2x, k2y, k2z);
      f(x + dt * (0.5 * k2x), y + dt * (0.5 * k2y), z + dt * (0.5 * k2z), k3x, k3y, k3z);
      f(x + dt * k3x, y + dt * k3y, z + dt * k3z, k4x, k4y, k4z);
      x = x + dt * (sixth * k1x + third * k2x + third * k3x + sixth * k4x);
      y = y + dt * (sixth * k1y + third * k2y + third * k3y + sixth * k4y);
      z = z + dt * (sixth * k1z + third * k2z + third * k3z + sixth * k4z);
      t += dt;
    }
    EXPECT_EQ(after.state[0][i], x) << "rho " << rho[i];
    EXPECT_EQ(after.state[1][i], y);
    EXPECT_EQ(after.state[2][i], z);
  }
}

// --- Boris: the serial loop bit for bit, and the discrete map's closed form -----------------

TEST_P(Kernels, BorisTurnsTheVelocityAsItsClosedFormSays) {
  kernels::Boris model;
  model.t_end = 0.5;  // 500 steps of 1e-3
  const std::size_t n = 40;
  std::vector<double> ox(n), oy(n), oz(n);
  for (std::size_t i = 0; i < n; ++i) {  // |Omega| from 1 to 80, pointing every way
    const double size = 1.0 + 79.0 * static_cast<double>(i) / static_cast<double>(n - 1), a = 0.7 * i, b = 0.3 * i;
    ox[i] = size * std::sin(b) * std::cos(a), oy[i] = size * std::sin(b) * std::sin(a), oz[i] = size * std::cos(b);
  }
  const std::vector<double> zero(n, 0.0);
  const HostBatch start{{zero, std::vector<double>(n, 0.5), zero, std::vector<double>(n, 1.0),
                         std::vector<double>(n, -0.5), std::vector<double>(n, 2.0), zero},
                        {ox, oy, oz},
                        std::vector<bool>(n, false)};
  const auto [report, after] = run_against_reference(model, start, GetParam(), 100000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n));
  // Each step turns v about Omega by -2 atan(|Omega| dt / 2) (v' = v x Omega turns it clockwise
  // about Omega), Rodrigues' formula; x gains dt times each new v.
  for (std::size_t i = 0; i < n; ++i) {
    const double size = std::sqrt(ox[i] * ox[i] + oy[i] * oy[i] + oz[i] * oz[i]);
    const double nx = ox[i] / size, ny = oy[i] / size, nz = oz[i] / size;
    const double turn = -2.0 * std::atan(size * model.dt / 2);
    std::array<double, 3> pos{0.0, 0.5, 0.0};
    const std::array<double, 3> v0{1.0, -0.5, 2.0};
    const double along = nx * v0[0] + ny * v0[1] + nz * v0[2];
    const std::array<double, 3> cross{ny * v0[2] - nz * v0[1], nz * v0[0] - nx * v0[2], nx * v0[1] - ny * v0[0]};
    const std::array<double, 3> axis{nx, ny, nz};
    std::array<double, 3> v{};
    for (int k = 1; k <= 500; ++k) {
      const double c = std::cos(k * turn), s = std::sin(k * turn);
      for (int d = 0; d < 3; ++d) v[d] = v0[d] * c + cross[d] * s + axis[d] * along * (1.0 - c);
      for (int d = 0; d < 3; ++d) pos[d] += model.dt * v[d];
    }
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(after.state[kernels::Boris::x + d][i], pos[d], 1e-11) << "position " << d << ", sample " << i;
      EXPECT_NEAR(after.state[kernels::Boris::vx + d][i], v[d], 1e-11) << "velocity " << d << ", sample " << i;
    }
    EXPECT_NEAR(after.state[kernels::Boris::t][i], 0.5, 1e-12);
  }
}

// --- Duffing: the event against a finer integration -----------------------------------------

/// The Duffing equation from its definition, x'' + delta x' + alpha x + beta x^3 = gamma cos(omega t),
/// as a first-order system y = (x, v), one classical RK4 step written here (not the model's own).
std::array<double, 2> duffing_rk4(const kernels::DuffingSystem& p, double gamma, double t,
                                  const std::array<double, 2>& y, double h) {
  const auto f = [&](double tt, const std::array<double, 2>& z) -> std::array<double, 2> {
    return {z[1], gamma * std::cos(p.omega * tt) - p.delta * z[1] - p.alpha * z[0] - p.beta * z[0] * z[0] * z[0]};
  };
  const auto plus = [](const std::array<double, 2>& a, double c, const std::array<double, 2>& b) {
    return std::array<double, 2>{a[0] + c * b[0], a[1] + c * b[1]};
  };
  const auto k1 = f(t, y), k2 = f(t + h / 2, plus(y, h / 2, k1)), k3 = f(t + h / 2, plus(y, h / 2, k2)),
             k4 = f(t + h, plus(y, h, k3));
  return {y[0] + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
          y[1] + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])};
}

TEST_P(Kernels, DuffingStopsOnTheSectionWithinTolerance) {
  const kernels::Duffing model;
  const std::size_t n = 32;
  const auto gamma = spread(n, 0.2, 0.5);
  const HostBatch start{{std::vector<double>(n, 0.5), std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)},
                        {gamma},
                        std::vector<bool>(n, false)};
  const auto [report, after] = run_against_reference(model, start, GetParam(), 100000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n));
  const double t_min = model.condition.t_min;
  for (std::size_t i = 0; i < n; ++i) {
    // Just past the crossing: x >= 0, within the time tolerance times |x'| of it.
    EXPECT_GE(after.state[0][i], 0.0) << "x at the event, gamma " << gamma[i];
    EXPECT_LE(after.state[0][i], 1e-11) << "x at the event, gamma " << gamma[i];
    EXPECT_GT(after.state[1][i], 0.0) << "crossing upward";
    EXPECT_GT(after.state[kernels::Duffing::time][i], t_min);
    // The crossing time from an RK4 of the test's own at a tenth of the step, the last step
    // refined by bisection.
    const double h = model.dt / 10;
    std::array<double, 2> y{0.5, 0.0};
    double t = 0.0;
    for (;;) {
      const std::array<double, 2> next = duffing_rk4(model.system, gamma[i], t, y, h);
      if (t > t_min && y[0] < 0.0 && next[0] >= 0.0) break;
      y = next;
      t += h;
    }
    double lo = 0.0, hi = h;
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      (duffing_rk4(model.system, gamma[i], t, y, mid)[0] < 0.0 ? lo : hi) = mid;
    }
    EXPECT_NEAR(after.state[2][i], t + hi, 1e-7) << "event time, gamma " << gamma[i];
  }
}

// --- Dormand-Prince: the closed form, different step counts, underflow ----------------------

TEST_P(Kernels, Dopri5FollowsTheClosedFormWithPerSampleSteps) {
  const kernels::Dopri5Oscillator model;  // t_end 10, rtol 1e-8
  const std::size_t n = 48;
  const auto omega = spread(n, 0.5, 6.0);
  const HostBatch start{{std::vector<double>(n, 1.0), std::vector<double>(n, 0.0), std::vector<double>(n, 0.0),
                         std::vector<double>(n, 1e-3)},
                        {omega},
                        std::vector<bool>(n, false)};
  Planes<kernels::Dopri5Oscillator> planes(start);
  const Report report = planes.run(model, GetParam(), 100000);
  HostBatch expected = start;
  const ReferenceOutcome reference = reference_run(model, expected, 100000);
  EXPECT_EQ(bits(planes.state_now()), bits(expected.state));
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n));
  const auto after = planes.state_now();
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(after[2][i], 10.0);
    EXPECT_NEAR(after[0][i], std::cos(omega[i] * 10.0), 2e-6) << "omega " << omega[i];
    EXPECT_NEAR(after[1][i], -omega[i] * std::sin(omega[i] * 10.0), 2e-6 * omega[i]) << "omega " << omega[i];
  }
  const auto [shortest, longest] = std::minmax_element(reference.steps.begin(), reference.steps.end());
  EXPECT_GT(*longest, 2 * *shortest) << "faster oscillations need more steps";
  EXPECT_EQ(report.longest_sample_steps, *longest);
}

TEST_P(Kernels, Dopri5StepSizeUnderflowFailsTheSample) {
  kernels::Dopri5Oscillator model;
  model.h_min = 1e-2;  // the initial steps below are smaller than this
  const HostBatch start{{{1.0, 1.0}, {0.0, 0.0}, {0.0, 0.0}, {1e-3, 0.5}}, {{1.0, 1.0}}, {false, false}};
  Planes<kernels::Dopri5Oscillator> planes(start);
  const Report report = planes.run(model, GetParam(), 100000);
  EXPECT_EQ(report.failed, 1);
  EXPECT_EQ(report.failures.at(kernels::Dopri5Oscillator::step_size_underflow), 1);
  EXPECT_EQ(report.first_failures.front().first, 0);
  EXPECT_EQ(report.finished, 1);
}

#if defined(EAGLE_TEST_HAS_KOKKOS_KERNELS)
// --- Robertson: literature values, conservation, Newton failure -----------------------------

TEST_P(Kernels, RobertsonMatchesTheReferenceSolution) {
  const kernels::Robertson model;
  const std::size_t n = 4;
  const HostBatch start{{std::vector<double>(n, 1.0),
                         std::vector<double>(n, 0.0),
                         std::vector<double>(n, 0.0),
                         std::vector<double>(n, 0.0),
                         {1e-6, 1e-5, 1e-4, 1e-3}},
                        {std::vector<double>(n, 1.0)},
                        std::vector<bool>(n, false)};
  const auto [report, after] = run_against_reference(model, start, GetParam(), 1000000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    // Hairer & Wanner, Solving ODEs II, reference solution at t = 40 (tight-tolerance RADAU5).
    // Backward Euler is first order; with h <= 5e-3 its global error here is below 1e-3.
    EXPECT_NEAR(after.state[0][i], 0.7158270687, 1e-3);
    EXPECT_NEAR(after.state[1][i], 9.185534764e-6, 1e-7);
    EXPECT_NEAR(after.state[2][i], 0.2841637457, 1e-3);
    // Backward Euler keeps the linear invariant y1 + y2 + y3 = 1 up to the Newton tolerance.
    EXPECT_NEAR(after.state[0][i] + after.state[1][i] + after.state[2][i], 1.0, 1e-10);
    EXPECT_EQ(after.state[3][i], 40.0);
  }
}

TEST_P(Kernels, RobertsonNewtonFailureStopsTheSample) {
  kernels::Robertson model;
  model.max_newton = 1;  // one iteration never meets the tolerance once the kinetics start
  const HostBatch start{{{1.0}, {0.0}, {0.0}, {0.0}, {1e-2}}, {{1.0}}, {false}};
  Planes<kernels::Robertson> planes(start);
  const Report report = planes.run(model, GetParam(), 1000);
  EXPECT_EQ(report.failed, 1);
  EXPECT_EQ(report.failures.at(kernels::Robertson::newton_failed), 1);
}
#else
// Said, not hidden: a build without Kokkos Kernels shows the Robertson tests as skipped.
TEST(Robertson, NeedsKokkosKernels) {
  GTEST_SKIP() << "Robertson (KokkosBatched LU/TRSV) is built only where Kokkos Kernels was found";
}
#endif

// --- First passage: reproducible streams, and the known mean b^2 ----------------------------

TEST(CounterRng, PhiloxKnownAnswers) {
  // Known-answer vectors of Philox4x32-10 published with Random123.
  const kernels::Philox4x32 zero = kernels::philox4x32({{0, 0, 0, 0}}, 0, 0);
  EXPECT_EQ(zero.word[0], 0x6627e8d5u);
  EXPECT_EQ(zero.word[1], 0xe169c58du);
  EXPECT_EQ(zero.word[2], 0xbc57ac4cu);
  EXPECT_EQ(zero.word[3], 0x9b00dbd8u);
  const kernels::Philox4x32 ones =
      kernels::philox4x32({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu);
  EXPECT_EQ(ones.word[0], 0x408f276du);
  EXPECT_EQ(ones.word[1], 0x41c83b0eu);
  EXPECT_EQ(ones.word[2], 0xa20bc7c6u);
  EXPECT_EQ(ones.word[3], 0x6d5451fdu);
}

TEST(CounterRng, OpenUniformsNeverReachTheEnds) {
  EXPECT_EQ(kernels::uniform_open01(0, 0), std::ldexp(1.0, -53));
  EXPECT_EQ(kernels::uniform_open01(0xffffffffu, 0xffffffffu), 1.0 - std::ldexp(1.0, -53));
  EXPECT_LT(kernels::uniform_open01(0xffffffffu, 0xffffffffu), 1.0);
  EXPECT_TRUE(std::isfinite(-std::log(kernels::uniform_open01(0, 0))));
}

TEST(CounterRng, AStreamHandsOutBlockAfterBlock) {
  kernels::RandomStream stream(7, 42, 1000);
  const kernels::Philox4x32 first = kernels::random_words(7, 42, 1000);
  std::vector<std::uint32_t> words;
  for (int i = 0; i < 4 * 300; ++i) words.push_back(stream.word());
  for (int w = 0; w < 4; ++w) EXPECT_EQ(words[static_cast<std::size_t>(w)], first.word[w]);  // block 0
  std::vector<std::uint32_t> sorted = words;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end()) << "a word came twice in 1200";
  kernels::RandomStream again(7, 42, 1000), next_step(7, 42, 1001), next_sample(7, 43, 1000);
  EXPECT_EQ(again.word(), words[0]);
  EXPECT_NE(next_step.word(), words[0]);
  EXPECT_NE(next_sample.word(), words[0]);
}

/// Kolmogorov-Smirnov: sqrt(n) times the largest gap between the sample's CDF and `cdf`.
template <class Cdf>
double ks_statistic(std::vector<double> draws, const Cdf& cdf) {
  std::sort(draws.begin(), draws.end());
  const double n = static_cast<double>(draws.size());
  double gap = 0.0;
  for (std::size_t i = 0; i < draws.size(); ++i) {
    const double f = cdf(draws[i]);
    gap = std::max({gap, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return gap * std::sqrt(n);
}

TEST(CounterRng, UniformNormalAndExponentialPassKolmogorovSmirnov) {
  // Draws from many samples' streams at one step, several a stream (normals in pairs), as step
  // bodies draw them. With a fixed seed the statistics are fixed numbers; 1.63 is the 1 % point.
  constexpr int samples = 5000, per_sample = 4;
  std::vector<double> uniform, normal, exponential;
  for (int i = 0; i < samples; ++i) {
    kernels::RandomStream stream(2026, static_cast<std::uint64_t>(i), 17);
    for (int d = 0; d < per_sample; ++d) {
      uniform.push_back(stream.uniform());
      normal.push_back(stream.normal());
      exponential.push_back(stream.exponential(2.0));
    }
  }
  for (double u : uniform) ASSERT_TRUE(u > 0.0 && u < 1.0) << u;
  EXPECT_LT(ks_statistic(uniform, [](double x) { return x; }), 1.63);
  EXPECT_LT(ks_statistic(normal, [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }), 1.63);
  EXPECT_LT(ks_statistic(exponential, [](double x) { return 1.0 - std::exp(-2.0 * x); }), 1.63);
  // A test that can fail: the normals against a normal of mean 0.05 are refused.
  EXPECT_GT(ks_statistic(normal, [](double x) { return 0.5 * std::erfc(-(x - 0.05) / std::sqrt(2.0)); }), 1.63);
}

TEST(CounterRng, StreamsDrawTheSameNumbersOnTheTestSpace) {
  constexpr int samples = 1000, draws = 6;
  const Kokkos::View<double**, Kokkos::LayoutRight, TestSpace::memory_space> out("out", samples, draws);
  draw_in_a_kernel(out);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < samples; ++i) {
    kernels::RandomStream stream(99, static_cast<std::uint64_t>(i), 3);
    const double want[draws] = {stream.uniform(), stream.uniform(),     stream.normal(),
                                stream.normal(),  stream.exponential(), stream.uniform()};
    for (int d : {0, 1, 5}) ASSERT_EQ(host(i, d), want[d]) << "sample " << i << " draw " << d;  // no maths: exact
    for (int d : {2, 3, 4}) ASSERT_NEAR(host(i, d), want[d], 1e-14 * std::fabs(want[d]) + 1e-300) << i << " " << d;
  }
}

TEST_P(Kernels, FirstPassageIsReproducibleAndHasMeanBSquared) {
  const kernels::FirstPassage model;
  const std::size_t n = 4000;
  std::vector<double> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<double>(i);
  const HostBatch start{{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)},
                        {std::vector<double>(n, 10.0), ids},
                        std::vector<bool>(n, false)};
  const auto [report, after] = run_against_reference(model, start, GetParam(), 1000000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n));
  double mean = 0;
  for (double steps : after.state[1]) mean += steps / static_cast<double>(n);
  // E[T] = b^2 = 100 for a symmetric walk from 0 to +-b; sd(T) = sqrt(2 (b^4 - b^2) / 3) = 81, so
  // the mean of 4000 has sd 1.3: 5 is about four of them.
  EXPECT_NEAR(mean, 100.0, 5.0);
  for (double x : after.state[0]) EXPECT_EQ(std::abs(x), 10.0);
}

INSTANTIATE_TEST_SUITE_P(Arms, Kernels, ::testing::ValuesIn(arms()), arm_name);

}  // namespace
}  // namespace eagle::test
