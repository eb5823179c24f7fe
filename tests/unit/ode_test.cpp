// The Runge-Kutta steppers over right-hand sides a user writes (here, in the test), on one
// execution space: each stepper's order of convergence against closed forms, its adaptive steps
// against the tolerance, a failure, and every arm bit for bit against the serial loop.

#include "arms.hpp"
#include "batch.hpp"
#include "eagle_test_space.hpp"

#include <eagle/eagle.hpp>
#include <eagle/ode/steppers.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace eagle::test {
namespace {

// --- Systems a user writes -------------------------------------------------------------------

/// x'' = -omega^2 x: x = cos(omega t), v = -omega sin(omega t) from (1, 0).
struct Spring {
  static constexpr const char* name = "spring";
  static constexpr int state_count = 2;
  static constexpr int parameter_count = 1;
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V&, const Values<V, 2>& y, const Values<V, 1>& p,
                                         Values<V, 2>& dy) const {
    dy[0] = y[1];
    dy[1] = -p[0] * p[0] * y[0];
  }
};

/// y' = -lambda y + sin(t): a time-dependent forcing, so the stages' times matter.
/// From y(0) = 1: y = (1 + 1/(1 + lambda^2)) e^(-lambda t) + (lambda sin t - cos t) / (1 + lambda^2).
struct ForcedDecay {
  static constexpr const char* name = "forced_decay";
  static constexpr int state_count = 1;
  static constexpr int parameter_count = 1;
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V& t, const Values<V, 1>& y, const Values<V, 1>& p,
                                         Values<V, 1>& dy) const {
    dy[0] = -p[0] * y[0] + math::sin(t);
  }
};

double forced_decay(double lambda, double t) {
  const double q = 1.0 + lambda * lambda;
  return (1.0 + 1.0 / q) * std::exp(-lambda * t) + (lambda * std::sin(t) - std::cos(t)) / q;
}

/// Van der Pol's oscillator, mu per sample: the user's ten lines.
struct VanDerPol {
  static constexpr const char* name = "van_der_pol";
  static constexpr int state_count = 2;
  static constexpr int parameter_count = 1;
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V&, const Values<V, 2>& y, const Values<V, 1>& mu,
                                         Values<V, 2>& dy) const {
    dy[0] = y[1];
    dy[1] = mu[0] * (1.0 - y[0] * y[0]) * y[1] - y[0];
  }
};

/// y' = y^2 from y(0) = 1 leaves every bound at t = 1: no parameters.
struct BlowUp {
  static constexpr const char* name = "blow_up";
  static constexpr int state_count = 1;
  static constexpr int parameter_count = 0;
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V&, const Values<V, 1>& y, const Values<V, 0>&, Values<V, 1>& dy) const {
    dy[0] = y[0] * y[0];
  }
};

const Arm per_sample{Steps::automatic(), LoopNest::per_sample};
const std::vector<double> omegas{1.0, 2.0, 3.0};
const std::vector<double> lambdas{0.5, 1.0, 2.0};

/// The start of a batch for `Stepper` with the given y's (one vector per field) and parameters;
/// t = 0 and, for an adaptive stepper, h = h0.
template <class Stepper>
HostBatch start_of(std::vector<std::vector<double>> y, std::vector<double> parameter, double h0 = 0.0) {
  const std::size_t n = parameter.size();
  y.emplace_back(n, 0.0);  // t
  if constexpr (Stepper::state_count == Stepper::time + 2) y.emplace_back(n, h0);
  return HostBatch{y, {parameter}, std::vector<bool>(n, false)};
}

/// The largest errors at t_end over the spring batch and over the forced-decay batch, for a
/// stepper with step h (fixed; an adaptive stepper with tolerances it always meets and h_max = h).
template <template <class> class Stepper>
std::pair<double, double> worst_errors(double h) {
  const auto configure = [h](auto& m) {
    m.t_end = 2.0;
    if constexpr (std::is_same_v<Stepper<Spring>, ode::Rk4<Spring>>) {
      m.dt = h;
    } else {
      m.rtol = m.atol = 1e10;
      m.h_max = h;
    }
  };
  double spring_error = 0.0, decay_error = 0.0;
  Stepper<Spring> spring;
  configure(spring);
  Planes<Stepper<Spring>> springs(start_of<Stepper<Spring>>({{1.0, 1.0, 1.0}, {0.0, 0.0, 0.0}}, omegas, h));
  EXPECT_EQ(springs.run(spring, per_sample, 100000).finished, 3);
  const auto s = springs.state_now();
  for (std::size_t i = 0; i < omegas.size(); ++i) {
    const double t = s[Stepper<Spring>::time][i], w = omegas[i];
    EXPECT_NEAR(t, 2.0, 1e-12);
    spring_error = std::max(spring_error, std::hypot(s[0][i] - std::cos(w * t), s[1][i] + w * std::sin(w * t)));
  }
  Stepper<ForcedDecay> decay;
  configure(decay);
  Planes<Stepper<ForcedDecay>> decays(start_of<Stepper<ForcedDecay>>({{1.0, 1.0, 1.0}}, lambdas, h));
  EXPECT_EQ(decays.run(decay, per_sample, 100000).finished, 3);
  const auto d = decays.state_now();
  for (std::size_t i = 0; i < lambdas.size(); ++i)
    decay_error = std::max(decay_error, std::abs(d[0][i] - forced_decay(lambdas[i], d[Stepper<ForcedDecay>::time][i])));
  return {spring_error, decay_error};
}

/// The observed order log2(e(h) / e(h/2)) on the spring from `fine`, and on the forced decay from
/// 0.1 (its errors reach rounding sooner), within half an order of `order`.
template <template <class> class Stepper>
void converges_at_order(int order, double fine) {
  const double spring = std::log2(worst_errors<Stepper>(fine).first / worst_errors<Stepper>(fine / 2).first);
  const double decay = std::log2(worst_errors<Stepper>(0.1).second / worst_errors<Stepper>(0.05).second);
  EXPECT_NEAR(spring, order, 0.5) << "the spring's observed order";
  // A wrong stage time (c) or weight drops the order to 1 or 2; faster decay can only raise it.
  EXPECT_GT(decay, order - 0.5) << "the forced decay's observed order";
}

// --- Order of convergence: the error ratio when h halves is about 2^order --------------------

TEST(OdeOrder, Rk4ConvergesAtOrderFour) { converges_at_order<ode::Rk4>(4, 0.02); }
TEST(OdeOrder, Dopri5ConvergesAtOrderFive) { converges_at_order<ode::Dopri5>(5, 0.0125); }

TEST(OdeOrder, Tsit5ConvergesAtOrderFiveWithASmallerErrorThanDopri5) {
  converges_at_order<ode::Tsit5>(5, 0.0125);
  EXPECT_LT(worst_errors<ode::Tsit5>(0.025).first, worst_errors<ode::Dopri5>(0.025).first);
}

// --- Adaptive steps: tolerance, per-sample steps, first guess, failure -----------------------

template <class Stepper>
void follows_the_spring_to_tolerance() {
  Stepper m;
  m.t_end = 10.0;
  m.rtol = 1e-9;
  m.atol = 1e-12;
  const std::vector<double> w{0.5, 1.0, 2.0, 4.0, 8.0};
  const std::size_t n = w.size();
  Planes<Stepper> planes(start_of<Stepper>({std::vector<double>(n, 1.0), std::vector<double>(n, 0.0)}, w));
  const Report report = planes.run(m, per_sample, 100000);  // h = 0: the stepper's first guess
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n));
  const auto s = planes.state_now();
  HostBatch expected = start_of<Stepper>({std::vector<double>(n, 1.0), std::vector<double>(n, 0.0)}, w);
  const ReferenceOutcome reference = reference_run(m, expected, 100000);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(s[Stepper::time][i], 10.0);
    EXPECT_NEAR(s[0][i], std::cos(w[i] * 10.0), 1e-6) << "omega " << w[i];
    EXPECT_NEAR(s[1][i], -w[i] * std::sin(w[i] * 10.0), 1e-6 * w[i]) << "omega " << w[i];
    if (i > 0) {
      EXPECT_GT(reference.steps[i], reference.steps[i - 1]) << "faster oscillations take more steps";
    }
  }
}

TEST(OdeAdaptive, Dopri5FollowsTheSpringToTolerance) { follows_the_spring_to_tolerance<ode::Dopri5<Spring>>(); }
TEST(OdeAdaptive, Tsit5FollowsTheSpringToTolerance) { follows_the_spring_to_tolerance<ode::Tsit5<Spring>>(); }

TEST(OdeAdaptive, AStepBelowHMinFailsTheSampleAtTheBlowUp) {
  ode::Tsit5<BlowUp> m;  // y = 1 / (1 / y0 - t): from 1, infinite at t = 1; from 0.5, 2 at 1.5
  m.t_end = 1.5;
  Planes<ode::Tsit5<BlowUp>> planes(HostBatch{{{1.0, 0.5}, {0.0, 0.0}, {0.0, 0.0}}, {}, {false, false}});
  const Report report = planes.run(m, per_sample, 100000);
  EXPECT_EQ(report.failed, 1) << report.summary();
  EXPECT_EQ(report.failures.at(ode::Tsit5<BlowUp>::step_size_underflow), 1);
  EXPECT_EQ(report.first_failures.front().first, 0);
  const auto s = planes.state_now();
  EXPECT_NEAR(s[ode::Tsit5<BlowUp>::time][0], 1.0, 1e-3) << "fails at the blow-up";
  EXPECT_EQ(s[ode::Tsit5<BlowUp>::time][1], 1.5);
  EXPECT_NEAR(s[0][1], 2.0, 1e-5);
}

// --- Every arm: bit for bit the serial loop, on a user's system ------------------------------

class OdeArms : public ::testing::TestWithParam<Arm> {};

template <class Stepper>
void van_der_pol_against_the_loop(const Stepper& m, const Arm& arm) {
  const std::size_t n = 40;
  const auto mu = spread(n, 0.1, 4.0);
  const HostBatch start = start_of<Stepper>({std::vector<double>(n, 2.0), std::vector<double>(n, 0.0)}, mu);
  const auto [report, after] = run_against_reference(m, start, arm, 1000000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n)) << report.summary();
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(after.state[Stepper::time][i], m.t_end, 1e-9);
}

TEST_P(OdeArms, Rk4OnVanDerPol) {
  ode::Rk4<VanDerPol> m;
  m.dt = 1e-3;
  m.t_end = 3.0;
  van_der_pol_against_the_loop(m, GetParam());
}

TEST_P(OdeArms, Dopri5OnVanDerPol) {
  ode::Dopri5<VanDerPol> m;
  m.t_end = 3.0;
  van_der_pol_against_the_loop(m, GetParam());
}

TEST_P(OdeArms, Tsit5OnVanDerPol) {
  ode::Tsit5<VanDerPol> m;
  m.t_end = 3.0;
  van_der_pol_against_the_loop(m, GetParam());
}

/// The three steppers agree on Van der Pol to their tolerances: each tracks the same solution.
TEST(OdeAdaptive, TheSteppersAgreeOnVanDerPol) {
  const std::size_t n = 8;
  const auto mu = spread(n, 0.5, 3.0);
  const auto run = [&](auto m) {
    using Stepper = decltype(m);
    m.t_end = 4.0;
    Planes<Stepper> planes(start_of<Stepper>({std::vector<double>(n, 2.0), std::vector<double>(n, 0.0)}, mu));
    EXPECT_EQ(planes.run(m, per_sample, 1000000).finished, static_cast<std::int64_t>(n));
    return planes.state_now();
  };
  ode::Rk4<VanDerPol> rk4;
  rk4.dt = 1e-3;
  ode::Dopri5<VanDerPol> dopri5;
  ode::Tsit5<VanDerPol> tsit5;
  dopri5.rtol = tsit5.rtol = 1e-10;
  dopri5.atol = tsit5.atol = 1e-12;
  const auto a = run(rk4), b = run(dopri5), c = run(tsit5);
  for (std::size_t i = 0; i < n; ++i) {
    for (int f = 0; f < 2; ++f) {
      EXPECT_NEAR(b[f][i], a[f][i], 1e-7) << "mu " << mu[i];
      EXPECT_NEAR(c[f][i], a[f][i], 1e-7) << "mu " << mu[i];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Arms, OdeArms, ::testing::ValuesIn(arms()), arm_name);

}  // namespace
}  // namespace eagle::test
