// The Runge-Kutta steppers over right-hand sides a user writes (here, in the test), on one
// execution space: each stepper's order of convergence against closed forms, its adaptive steps
// against the tolerance, a failure, and every arm bit for bit against the serial loop.

#include "arms.hpp"
#include "batch.hpp"
#include "eagle_test_space.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/robertson_kinetics.hpp>
#include <eagle/ode/events.hpp>
#include <eagle/ode/rosenbrock.hpp>
#include <eagle/ode/saving.hpp>
#include <eagle/ode/steppers.hpp>

#include <gtest/gtest.h>

// Kokkos Kernels 4.1 and later carry KokkosODE: a peer to check the adaptive steppers against.
#if defined(EAGLE_TEST_HAS_KOKKOS_KERNELS) && __has_include(<KokkosODE_RungeKutta.hpp>)
#include <KokkosODE_RungeKutta.hpp>
#define EAGLE_TEST_HAS_KOKKOS_ODE
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace eagle::test {
namespace {

// --- Systems a user writes -------------------------------------------------------------------
// Few of them, on purpose: every model type compiles every rung of both loop nests.

/// Two closed forms in one system: a spring x'' = -omega^2 x (x = cos(omega t), v = -omega
/// sin(omega t) from (1, 0)) and a forced decay y' = -lambda y + sin(t), whose stage times matter
/// (from y(0) = 1: y = (1 + 1/q) e^(-lambda t) + (lambda sin t - cos t) / q, q = 1 + lambda^2).
struct SpringAndDecay {
  static constexpr const char* name = "spring_and_decay";
  static constexpr int state_count = 3;
  static constexpr int parameter_count = 2;  // omega, lambda
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V& t, const Values<V, 3>& y, const Values<V, 2>& p,
                                         Values<V, 3>& dy) const {
    dy[0] = y[1];
    dy[1] = -p[0] * p[0] * y[0];
    dy[2] = -p[1] * y[2] + math::sin(t);
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

const Arm per_sample{Steps::automatic(), LoopNest::per_sample};

/// The start of a batch for `Stepper` with the given y's (one vector per field) and parameters
/// (one vector per parameter); t = 0, for an adaptive stepper h = h0, and any further field (a
/// saving stepper's next_save) 0.
template <class Stepper>
HostBatch start_of(std::vector<std::vector<double>> y, std::vector<std::vector<double>> parameters, double h0 = 0.0) {
  const std::size_t n = y[0].size();
  y.emplace_back(n, 0.0);  // t
  if constexpr (Stepper::adaptive) y.emplace_back(n, h0);
  while (y.size() < static_cast<std::size_t>(Stepper::state_count)) y.emplace_back(n, 0.0);
  return HostBatch{y, parameters, std::vector<bool>(n, false)};
}

/// Three springs and decays: omega 1, 2, 3 and lambda 0.5, 1, 2, from x = 1, v = 0, y = 1.
template <class Stepper>
HostBatch springs_and_decays(double h0 = 0.0) {
  return start_of<Stepper>({{1.0, 1.0, 1.0}, {0.0, 0.0, 0.0}, {1.0, 1.0, 1.0}}, {{1.0, 2.0, 3.0}, {0.5, 1.0, 2.0}}, h0);
}

/// The largest errors at t_end = 2 over the springs and over the decays, for a stepper with step h
/// (fixed; an adaptive stepper with tolerances it always meets and h_max = h).
template <template <class> class Stepper>
std::pair<double, double> worst_errors(double h) {
  using Model = Stepper<SpringAndDecay>;
  Model m;
  m.t_end = 2.0;
  if constexpr (Model::adaptive) {
    m.rtol = m.atol = 1e10;
    m.h_max = h;
  } else {
    m.dt = h;
  }
  const HostBatch start = springs_and_decays<Model>(h);
  Planes<Model> planes(start);
  EXPECT_EQ(planes.run(m, per_sample, 100000).finished, 3);
  const auto s = planes.state_now();
  double spring = 0.0, decay = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    const double t = s[Model::time][i], w = start.inputs[0][i];
    EXPECT_NEAR(t, 2.0, 1e-12);
    spring = std::max(spring, std::hypot(s[0][i] - std::cos(w * t), s[1][i] + w * std::sin(w * t)));
    decay = std::max(decay, std::abs(s[2][i] - forced_decay(start.inputs[1][i], t)));
  }
  return {spring, decay};
}

/// The observed order log2(e(h) / e(h/2)) on the springs from `fine`, and on the decays from 0.1
/// (their errors reach rounding sooner), within half an order of `order`.
template <template <class> class Stepper>
void converges_at_order(int order, double fine) {
  const double spring = std::log2(worst_errors<Stepper>(fine).first / worst_errors<Stepper>(fine / 2).first);
  const double decay = std::log2(worst_errors<Stepper>(0.1).second / worst_errors<Stepper>(0.05).second);
  EXPECT_NEAR(spring, order, 0.5) << "the springs' observed order";
  // A wrong stage time (c) or weight drops the order to 1 or 2; faster decay can only raise it.
  EXPECT_GT(decay, order - 0.5) << "the decays' observed order";
}

// --- Order of convergence: the error ratio when h halves is about 2^order --------------------

TEST(OdeOrder, Rk4ConvergesAtOrderFour) { converges_at_order<ode::Rk4>(4, 0.02); }
TEST(OdeOrder, Dopri5ConvergesAtOrderFive) { converges_at_order<ode::Dopri5>(5, 0.0125); }

TEST(OdeOrder, Tsit5ConvergesAtOrderFiveWithASmallerErrorThanDopri5) {
  converges_at_order<ode::Tsit5>(5, 0.0125);
  EXPECT_LT(worst_errors<ode::Tsit5>(0.025).first, worst_errors<ode::Dopri5>(0.025).first);
}

TEST(OdeOrder, Rosenbrock23ConvergesAtOrderTwo) { converges_at_order<ode::Rosenbrock23>(2, 0.01); }

/// The largest error of one step of size h from the springs' and decays' exact state at t0 = 0.3,
/// read from its dense output at theta = 0.2, 0.5 and 0.7 of the step, against the closed forms.
template <template <class> class Stepper>
double dense_output_error(double h) {
  using Model = Stepper<SpringAndDecay>;
  Model m;
  m.t_end = 10.0;
  m.rtol = m.atol = 1e10;  // every step accepted
  m.h_max = h;
  double worst = 0.0;
  for (const auto& [omega, lambda] : {std::pair{1.0, 0.5}, std::pair{3.0, 2.0}}) {
    const double t0 = 0.3;
    Values<double, Model::state_count> s{std::cos(omega * t0), -omega * std::sin(omega * t0), forced_decay(lambda, t0),
                                         t0, h};
    const Values<double, 2> p{omega, lambda};
    typename Model::Dense dense;
    EXPECT_EQ(m.attempt(s, p, m.t_end, dense).code(), status::running);
    EXPECT_EQ(dense.t1, t0 + h);
    for (const double theta : {0.2, 0.5, 0.7}) {
      const double t = t0 + theta * h;
      Values<double, 3> y;
      dense.at(t, y);
      worst = std::max({worst, std::abs(y[0] - std::cos(omega * t)), std::abs(y[1] + omega * std::sin(omega * t)),
                        std::abs(y[2] - forced_decay(lambda, t))});
    }
    Values<double, 3> end;
    dense.at(dense.t1, end);
    for (int n = 0; n < 3; ++n) EXPECT_EQ(end[n], s[n]) << "the step's end is its solution, bit for bit";
  }
  return worst;
}

// Inside one step the dense output's error is O(h^(q+1)) for an extension of order q: the ratio
// when h halves is about 2^(q+1) (a Hermite cubic alone, or a wrong weight, gives 2^4 or less;
// Tsit5's small leading terms show a little more at these h).
TEST(OdeOrder, DenseOutputConvergesAtItsOrderInsideAStep) {
  const auto observed = [](auto error, double h) { return std::log2(error(h) / error(h / 2)); };
  const double dopri5 = observed(dense_output_error<ode::Dopri5>, 0.05);
  const double tsit5 = observed(dense_output_error<ode::Tsit5>, 0.05);
  EXPECT_TRUE(dopri5 > 4.7 && dopri5 < 5.6) << "Dopri5's fourth-order extension: " << dopri5;
  EXPECT_TRUE(tsit5 > 4.7 && tsit5 < 5.6) << "Tsit5's fourth-order extension: " << tsit5;
  EXPECT_NEAR(observed(dense_output_error<ode::Rosenbrock23>, 0.01), 3.0, 0.3) << "Rosenbrock 2(3), second order";
}

// --- Adaptive steps: tolerance, per-sample steps, first guess, failure -----------------------

template <class Stepper>
void follows_the_springs_to_tolerance() {
  Stepper m;
  m.t_end = 10.0;
  m.rtol = 1e-9;
  m.atol = 1e-12;
  const HostBatch start = springs_and_decays<Stepper>();  // h = 0: the stepper's first guess
  Planes<Stepper> planes(start);
  EXPECT_EQ(planes.run(m, per_sample, 100000).finished, 3);
  const auto s = planes.state_now();
  HostBatch expected = start;
  const ReferenceOutcome reference = reference_run(m, expected, 100000);
  for (std::size_t i = 0; i < 3; ++i) {
    const double w = start.inputs[0][i];
    EXPECT_EQ(s[Stepper::time][i], 10.0);
    EXPECT_NEAR(s[0][i], std::cos(w * 10.0), 1e-6) << "omega " << w;
    EXPECT_NEAR(s[1][i], -w * std::sin(w * 10.0), 1e-6 * w) << "omega " << w;
    EXPECT_NEAR(s[2][i], forced_decay(start.inputs[1][i], 10.0), 1e-6);
    if (i > 0) {
      EXPECT_GT(reference.steps[i], reference.steps[i - 1]) << "faster springs take more steps";
    }
  }
}

TEST(OdeAdaptive, Dopri5FollowsTheSpringsToTolerance) {
  follows_the_springs_to_tolerance<ode::Dopri5<SpringAndDecay>>();
}
TEST(OdeAdaptive, Tsit5FollowsTheSpringsToTolerance) { follows_the_springs_to_tolerance<ode::Tsit5<SpringAndDecay>>(); }

TEST(OdeAdaptive, AnOverflowFailsTheSampleWithStepSizeUnderflowAlone) {
  ode::Tsit5<SpringAndDecay> m;  // lambda = -1000: y grows as e^(1000 t), past DBL_MAX at t = 0.71
  m.t_end = 1.0;
  const HostBatch start = start_of<decltype(m)>({{1.0, 1.0}, {0.0, 0.0}, {1.0, 1.0}}, {{1.0, 1.0}, {-1000.0, 1.0}});
  Planes<decltype(m)> planes(start);
  const Report report = planes.run(m, per_sample, 1000000);
  EXPECT_EQ(report.failed, 1) << report.summary();
  EXPECT_EQ(report.failures.at(decltype(m)::step_size_underflow), 1);
  EXPECT_EQ(report.first_failures.front().first, 0);
  const auto s = planes.state_now();
  EXPECT_NEAR(s[decltype(m)::time][0], std::log(1.797e308) / 1000.0, 1e-2) << "fails where y overflows";
  EXPECT_EQ(s[decltype(m)::time][1], 1.0);
  EXPECT_NEAR(s[2][1], forced_decay(1.0, 1.0), 1e-5);
}

// --- Every arm: bit for bit the serial loop, on a user's system ------------------------------

class OdeArms : public ::testing::TestWithParam<Arm> {};

TEST_P(OdeArms, Rk4OnVanDerPolMatchesTheSerialLoop) {  // lane packs on the tile
  ode::Rk4<VanDerPol> m;
  m.dt = 1e-3;
  m.t_end = 3.0;
  const std::size_t n = 40;
  const HostBatch start =
      start_of<decltype(m)>({std::vector<double>(n, 2.0), std::vector<double>(n, 0.0)}, {spread(n, 0.1, 4.0)});
  const auto [report, after] = run_against_reference(m, start, GetParam(), 1000000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n)) << report.summary();
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(after.state[decltype(m)::time][i], 3.0, 1e-9);
}

/// An adaptive stepper on every arm (the tile runs it on lane packs, each lane accepting or
/// rejecting on its own): 40 springs and decays, two of them blowing up (lambda = -1000), bit for
/// bit the serial loop; the two fail alone with step_size_underflow, the others finish. Half the
/// samples start with a step size of their own, half with the first guess, side by side in packs.
template <class Stepper>
void adaptive_lanes_match_the_serial_loop(const Arm& arm, double rtol = 1e-8, double decay_tolerance = 1e-6) {
  Stepper m;
  m.t_end = 1.0;
  m.rtol = rtol;
  m.atol = rtol / 100;
  const std::size_t n = 40;
  std::vector<double> lambda = spread(n, 0.5, 2.0);
  lambda[5] = lambda[22] = -1000.0;
  HostBatch start =
      start_of<Stepper>({std::vector<double>(n, 1.0), std::vector<double>(n, 0.0), std::vector<double>(n, 1.0)},
                        {spread(n, 1.0, 6.0), lambda});
  for (std::size_t i = 0; i < n; i += 2) start.state[Stepper::step_size][i] = 1e-3;
  const auto [report, after] = run_against_reference(m, start, arm, 1000000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n - 2)) << report.summary();
  EXPECT_EQ(report.failed, 2);
  EXPECT_EQ(report.failures.at(Stepper::step_size_underflow), 2);
  ASSERT_EQ(report.first_failures.size(), 2U);
  EXPECT_EQ(report.first_failures[0].first, 5);
  EXPECT_EQ(report.first_failures[1].first, 22);
  for (std::size_t i = 0; i < n; ++i) {
    if (i == 5 || i == 22) continue;
    EXPECT_EQ(after.state[Stepper::time][i], 1.0);
    EXPECT_NEAR(after.state[2][i], forced_decay(lambda[i], 1.0), decay_tolerance) << "sample " << i;
  }
}

TEST_P(OdeArms, Tsit5LanesMatchTheSerialLoopAndFailAlone) {
  adaptive_lanes_match_the_serial_loop<ode::Tsit5<SpringAndDecay>>(GetParam());
}

// Its pivoting solve on packs too (each lane its own matrix and row trades), with a Jacobian by
// forward differences. A second-order method's blow-up takes ~700 / rtol^(1/3) steps to overflow:
// a looser tolerance keeps that short.
TEST_P(OdeArms, Rosenbrock23LanesMatchTheSerialLoopAndFailAlone) {
#if defined(EAGLE_HAS_LANE_PACKS)
  static_assert(ode::Rosenbrock23<SpringAndDecay>::lane_packs);
#endif
  adaptive_lanes_match_the_serial_loop<ode::Rosenbrock23<SpringAndDecay>>(GetParam(), 1e-5, 1e-4);
}

// --- Saved trajectories ---------------------------------------------------------------------

using Trajectories = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;

/// The serial reference of a saving run: each sample alone, its steps through the same model
/// writing into a host View of its own.
template <class Stepper>
std::vector<double> saved_by_the_serial_loop(const ode::Saving<Stepper>& on_device, const HostBatch& start,
                                             std::size_t times) {
  const std::size_t n = start.inputs[0].size();
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> out("reference", n, times, Stepper::time);
  Kokkos::deep_copy(out, std::numeric_limits<double>::quiet_NaN());
  ode::Saving<Stepper> on_host = on_device;
  on_host.trajectory.data = out.data();
  HostBatch batch = start;
  reference_run(on_host, batch, 1000000);
  return std::vector<double>(out.data(), out.data() + out.size());
}

std::vector<double> to_host(const Trajectories& out) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<double>(host.data(), host.data() + host.size());
}

/// Runs `saving` on an arm into `out`: every sample finishes, and the trajectories are bit for bit
/// the serial loop's; returns them.
template <class SavingPlanes, class Saving>
std::vector<double> saved_on(SavingPlanes& planes, const Saving& saving, const HostBatch& start, const Arm& arm,
                             const Trajectories& out) {
  const Report report = planes.run(saving, arm, 1000000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(start.inputs[0].size())) << report.summary();
  const auto saved = to_host(out);
  EXPECT_EQ(bits({saved}), bits({saved_by_the_serial_loop(saving, start, out.extent(1))}));
  return saved;
}

/// Van der Pol, mu swept, saved at 100 times from 0 to t_end = 3 on an arm: bit for bit the serial
/// loop's trajectories, every slot written, each starting at the initial state.
template <class Stepper>
std::vector<double> van_der_pol_saved(Stepper stepper, const Arm& arm) {
  const std::size_t n = 24, times = 100;
  stepper.t_end = 3.0;
  Trajectories out("trajectories", n, times, 2);
  Kokkos::deep_copy(out, std::numeric_limits<double>::quiet_NaN());
  const auto saving = ode::save_at(stepper, out, 0.0, 3.0 / 99);  // the last time within rounding of t_end
  const HostBatch start =
      start_of<decltype(saving)>({std::vector<double>(n, 2.0), std::vector<double>(n, 0.0)}, {spread(n, 0.1, 4.0)});
  Planes<decltype(saving)> planes(start);
  const auto saved = saved_on(planes, saving, start, arm, out);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(saved[i * times * 2], 2.0);
    EXPECT_EQ(saved[i * times * 2 + 1], 0.0);
  }
  EXPECT_EQ(std::count_if(saved.begin(), saved.end(), [](double v) { return std::isnan(v); }), 0);
  EXPECT_EQ(planes.state_now()[ode::Saving<Stepper>::next_save], std::vector<double>(n, static_cast<double>(times)));
  return saved;
}

TEST_P(OdeArms, SavedTrajectoriesMatchTheSerialLoopAndAgreeAcrossSteppers) {
  ode::Rk4<VanDerPol> rk4;
  rk4.dt = 3.0 / 99 / 30;  // a save time every 30 steps: RK4 saves at them, not only near them
  ode::Tsit5<VanDerPol> tsit5;
  tsit5.rtol = 1e-10;
  tsit5.atol = 1e-12;
  ode::Dopri5<VanDerPol> dopri5;
  dopri5.rtol = 1e-10;
  dopri5.atol = 1e-12;
  ode::Rosenbrock23<VanDerPol> rosenbrock;
  rosenbrock.rtol = 1e-9;
  rosenbrock.atol = 1e-12;
  const auto a = van_der_pol_saved(rk4, GetParam());
  const auto b = van_der_pol_saved(tsit5, GetParam());
  const auto c = van_der_pol_saved(dopri5, GetParam());
  const auto d = van_der_pol_saved(rosenbrock, GetParam());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_NEAR(b[k], a[k], 1e-7) << "slot " << k;
    EXPECT_NEAR(c[k], a[k], 1e-7) << "slot " << k;
    EXPECT_NEAR(d[k], a[k], 1e-5) << "slot " << k << ": Rosenbrock 2(3), second order";
  }
}

// --- Saving under checkpoints -----------------------------------------------------------------

/// Van der Pol under Tsit5, mu swept, saved at 100 times from 0 to 3: the saving model over `out`.
ode::Saving<ode::Tsit5<VanDerPol>> van_der_pol_saving(const Trajectories& out, double spacing = 3.0 / 99) {
  ode::Tsit5<VanDerPol> tsit5;
  tsit5.t_end = 3.0;
  tsit5.rtol = 1e-10;
  tsit5.atol = 1e-12;
  Kokkos::deep_copy(out, std::numeric_limits<double>::quiet_NaN());
  return ode::save_at(tsit5, out, 0.0, spacing);
}

// A saving run stopped by a throw and resumed from its checkpoint into a new View (another address,
// as in a new process) fills it as the whole run fills its own, the rows saved before the
// checkpoint included; a resume with other save times is refused by name.
TEST(OdeSaving, ARunResumedFromACheckpointFillsANewViewAsTheWholeRun) {
  const std::size_t n = 24, times = 100;
  const HostBatch start = start_of<ode::Saving<ode::Tsit5<VanDerPol>>>(
      {std::vector<double>(n, 2.0), std::vector<double>(n, 0.0)}, {spread(n, 0.1, 4.0)});
  std::vector<Arm> stopped_arms{{Steps::fixed(3), LoopNest::per_sample}};
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible)
    stopped_arms.push_back({Steps::fixed(3), LoopNest::tile});
  for (const Arm& arm : stopped_arms) {
    SCOPED_TRACE(describe(arm.nest));
    RunOptions reorder;
    reorder.compaction = Compaction::reorder;
    Trajectories whole_out("whole", n, times, 2);
    Planes<ode::Saving<ode::Tsit5<VanDerPol>>> whole(start);
    const Report whole_report = whole.run(van_der_pol_saving(whole_out), arm, 1000000, reorder);
    ASSERT_GT(whole_report.launches, 40) << "the run must outlast the stop below";

    const std::string path = scratch_folder() + "/saving.ckpt";
    Trajectories cut_out("cut", n, times, 2);
    Planes<ode::Saving<ode::Tsit5<VanDerPol>>> cut(start);
    RunOptions stopping = reorder;
    stopping.checkpoint.path = path;
    stopping.checkpoint.every_launches = 4;
    stopping.observer = [](const Progress& p) {
      if (p.launch == 30) throw std::runtime_error("stopped");
    };
    EXPECT_THROW(cut.run(van_der_pol_saving(cut_out), arm, 1000000, stopping), std::runtime_error);

    RunOptions resuming = reorder;
    resuming.resume_from = path;
    Trajectories other_times("other times", n, times, 2);
    try {
      cut.run(van_der_pol_saving(other_times, 0.03), arm, 1000000, resuming);
      ADD_FAILURE() << "resumed with other save times";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("with parameters of CRC-32"), std::string::npos) << e.what();
    }
    Checkpoint halved = read_checkpoint_file(path);  // as if written by hand: half the trajectory
    halved.model_memory.resize(halved.model_memory.size() / 2);
    write_checkpoint_file(path + ".halved", halved);
    RunOptions from_halved = reorder;
    from_halved.resume_from = path + ".halved";
    try {
      cut.run(van_der_pol_saving(other_times), arm, 1000000, from_halved);
      ADD_FAILURE() << "resumed with half the trajectory";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("was written for a model writing 19200 bytes of its own memory, this "
                                           "run's model writes 38400"),
                std::string::npos)
          << e.what();
    }
    Trajectories resumed_out("resumed", n, times, 2);
    const Report resumed = cut.run(van_der_pol_saving(resumed_out), arm, 1000000, resuming);
    EXPECT_EQ(resumed.note, "resumed after launch 28");
    EXPECT_EQ(resumed.finished, static_cast<std::int64_t>(n)) << resumed.summary();
    EXPECT_EQ(resumed.launches, whole_report.launches);
    EXPECT_EQ(bits({to_host(resumed_out)}), bits({to_host(whole_out)}));
    EXPECT_EQ(bits(cut.state_now()), bits(whole.state_now()));
    const auto saved = to_host(resumed_out);
    EXPECT_EQ(std::count_if(saved.begin(), saved.end(), [](double v) { return std::isnan(v); }), 0);
  }
}

// --- A peer: Kokkos Kernels' KokkosODE -----------------------------------------------------

#if defined(EAGLE_TEST_HAS_KOKKOS_ODE)
/// Van der Pol as KokkosODE takes a system: the same right-hand side, mu per sample.
struct VanDerPolForKokkosOde {
  static constexpr int neqs = 2;
  double mu;
  template <class Y, class F>
  KOKKOS_FUNCTION void evaluate_function(double, double, const Y& y, const F& f) const {
    f(0) = y(1);
    f(1) = mu * (1.0 - y(0) * y(0)) * y(1) - y(0);
  }
};

/// Van der Pol, mu swept, to t = 3 at rtol 1e-10: eagle's Dormand-Prince against KokkosODE's (its
/// own step control and arithmetic) on the same execution space.
TEST(OdePeers, Dopri5AgreesWithKokkosOdeToTolerance) {
  using Peer = KokkosODE::Experimental::RungeKutta<KokkosODE::Experimental::RK_type::RKDP>;
  const std::size_t n = 24;
  const double t_end = 3.0, rtol = 1e-10, atol = 1e-12;
  const std::vector<double> mu = spread(n, 0.1, 4.0);
  Kokkos::View<double**, Mem> y0("y0", n, 2), y("y", n, 2), temp("temp", n, 2);
  Kokkos::View<double***, Mem> stages("stages", n, Peer::num_stages(), 2);
  Kokkos::View<int*, Mem> outcome("outcome", n);
  const Plane mus = plane<TestSpace>("mu", mu);
  Kokkos::deep_copy(Kokkos::subview(y0, Kokkos::ALL, 0), 2.0);
  Kokkos::parallel_for(
      "eagle::test::kokkos_ode", Kokkos::RangePolicy<TestSpace>(0, n), KOKKOS_LAMBDA(const int i) {
        const KokkosODE::Experimental::ODE_params params(100, 1000000, atol, rtol, 1e-14);
        int steps = 0;
        outcome(i) = Peer::Solve(VanDerPolForKokkosOde{mus(i)}, params, 0.0, t_end, Kokkos::subview(y0, i, Kokkos::ALL),
                                 Kokkos::subview(y, i, Kokkos::ALL), Kokkos::subview(temp, i, Kokkos::ALL),
                                 Kokkos::subview(stages, i, Kokkos::ALL, Kokkos::ALL), &steps);
      });
  const auto peer = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y0);
  const auto peer_outcome = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), outcome);

  ode::Dopri5<VanDerPol> stepper;
  stepper.t_end = t_end;
  stepper.rtol = rtol;
  stepper.atol = atol;
  Planes<decltype(stepper)> planes(
      start_of<decltype(stepper)>({std::vector<double>(n, 2.0), std::vector<double>(n, 0.0)}, {mu}));
  EXPECT_EQ(planes.run(stepper, per_sample, 1000000).finished, static_cast<std::int64_t>(n));
  const auto s = planes.state_now();
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(peer_outcome(i), static_cast<int>(KokkosODE::Experimental::ode_solver_status::SUCCESS)) << "mu " << mu[i];
    for (int c = 0; c < 2; ++c) EXPECT_NEAR(s[c][i], peer(i, c), 1e-7) << "mu " << mu[i] << " y" << c;
  }
}
#endif

// --- A stiff system: Robertson's kinetics under Rosenbrock 2(3) --------------------------------

/// Robertson's kinetics from (1, 0, 0), the first sample at the published rates (rate_scale 1),
/// the others' k1 scaled from 0.5 to 2.
HostBatch robertson_start(std::size_t n, double h0 = 0.0) {
  std::vector<double> rate_scale = spread(n, 0.5, 2.0);
  rate_scale[0] = 1.0;
  return start_of<ode::Rosenbrock23<kernels::RobertsonKinetics>>(
      {std::vector<double>(n, 1.0), std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)}, {rate_scale}, h0);
}

/// Robertson's y at t = 40 and t = 1e11, from Boost.Odeint's rosenbrock4 (rtol 1e-12, atol 1e-16):
/// within 1e-11 of Hairer and Wanner's values at 40 and 1e-9 of Mazzia's test set at 1e11.
constexpr double robertson_at_40[3] = {7.1582706871915569e-01, 9.1855347645470815e-06, 2.8416374574585163e-01};
constexpr double robertson_at_1e11[3] = {2.0833401501572255e-08, 8.3333607721602559e-14, 9.9999997916630545e-01};

// The serial loop alone: the arms run Rosenbrock 2(3) on Van der Pol above (each model type
// compiles every rung of both nests).
TEST(OdeStiff, Rosenbrock23FollowsRobertsonToThePublishedValues) {
  // [snippet robertson]
  ode::Rosenbrock23<kernels::RobertsonKinetics> m;
  m.t_end = 40.0;
  m.rtol = 1e-8;
  m.atol = 1e-14;
  // [snippet end]
  const std::size_t n = 12;
  HostBatch after = robertson_start(n);
  const ReferenceOutcome outcome = reference_run(m, after, 1000000);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(after.state[c][0], robertson_at_40[c], 1e-5 * robertson_at_40[c]) << "y" << c + 1;
  }
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(outcome.status[i], status::finished) << "sample " << i;
    EXPECT_EQ(after.state[decltype(m)::time][i], 40.0);
    EXPECT_NEAR(after.state[0][i] + after.state[1][i] + after.state[2][i], 1.0, 1e-13) << "sample " << i;
    if (i > 1) {
      EXPECT_LT(after.state[0][i], after.state[0][i - 1]) << "a faster k1 leaves less y1";
    }
  }
}

TEST(OdeStiff, Rosenbrock23CrossesElevenDecadesOfRobertsonInAFewThousandSteps) {
  ode::Rosenbrock23<kernels::RobertsonKinetics> m;
  m.t_end = 1e11;
  m.rtol = 1e-6;
  m.atol = 1e-20;  // y2 falls to 1e-13: a relative control, from a first step of 1e-8 (y2 = 0 there)
  HostBatch start = robertson_start(1, 1e-8);
  const ReferenceOutcome outcome = reference_run(m, start, 1000000);
  EXPECT_EQ(outcome.status[0], status::finished);
  // An explicit stepper's stable step there is about 2 / |lambda| = 2e-4: 10^15 steps.
  EXPECT_LT(outcome.steps[0], 5000);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(start.state[c][0], robertson_at_1e11[c], 1e-3 * robertson_at_1e11[c]) << "y" << c + 1;
  }
}

/// Robertson's kinetics without its Jacobian: Rosenbrock 2(3) takes forward differences. (Only its
/// step is called here, so it has no name.)
struct RobertsonByDifferences {
  static constexpr int state_count = 3;
  static constexpr int parameter_count = 1;
  kernels::RobertsonKinetics kinetics;
  KOKKOS_INLINE_FUNCTION void operator()(double t, const Values<double, 3>& y, const Values<double, 1>& p,
                                         Values<double, 3>& dy) const {
    kinetics(t, y, p, dy);
  }
};

TEST(OdeStiff, AJacobianByForwardDifferencesGivesTheStepOfTheExactOne) {
  static_assert(ode::detail::HasJacobian<kernels::RobertsonKinetics, double>::value);
  static_assert(!ode::detail::HasJacobian<RobertsonByDifferences, double>::value);
  // A right-hand side for double alone runs the tile's lanes one at a time, under every method.
  static_assert(!ode::Rosenbrock23Method::lane_packs_for<RobertsonByDifferences>);
  static_assert(!ode::ExplicitPair<ode::Tsit5Tableau>::lane_packs_for<RobertsonByDifferences>);
#if defined(EAGLE_HAS_LANE_PACKS)
  static_assert(ode::Rosenbrock23<kernels::RobertsonKinetics>::lane_packs, "its Jacobian takes packs");
#endif
  const Values<double, RobertsonByDifferences::state_count> y0{0.9, 3e-5, 0.1 - 3e-5};
  const Values<double, RobertsonByDifferences::parameter_count> p{1.0};
  for (const double h : {1e-4, 1e-2, 1.0}) {
    Values<double, 3> exact_y1, exact_e, by_differences_y1, by_differences_e, f0;
    using Stages = ode::Rosenbrock23Method::Stages<double, 3>;
    kernels::RobertsonKinetics{}(0.0, y0, p, f0);
    ode::Rosenbrock23Method::trial<3>(kernels::RobertsonKinetics{}, 0.0, h, y0, p, f0, 1e-12, exact_y1, exact_e,
                                      static_cast<Stages*>(nullptr));
    ode::Rosenbrock23Method::trial<3>(RobertsonByDifferences{}, 0.0, h, y0, p, f0, 1e-12, by_differences_y1,
                                      by_differences_e, static_cast<Stages*>(nullptr));
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(by_differences_y1[c], exact_y1[c], 1e-6 * std::abs(exact_y1[c])) << "h " << h << " y" << c + 1;
      EXPECT_NEAR(by_differences_e[c], exact_e[c], 1e-4 * std::abs(exact_e[c]) + 1e-15) << "h " << h << " y" << c + 1;
    }
  }
}

// --- Events ---------------------------------------------------------------------------------

/// A body falling from rest under gravity g (per sample): height y[0], velocity y[1]. Its
/// solution is quadratic in t, which RK4 and the 5(4) pairs integrate exactly (to rounding): it
/// lands at sqrt(2 h0 / g).
struct Fall {
  static constexpr const char* name = "fall";
  static constexpr int state_count = 2;
  static constexpr int parameter_count = 1;
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const V&, const Values<V, 2>& y, const Values<V, 1>& g,
                                         Values<V, 2>& dy) const {
    dy[0] = y[1];
    dy[1] = -g[0];
  }
};

/// The condition: the first state (a height, a position) through zero.
struct FirstState {
  template <class Y, class P>
  KOKKOS_INLINE_FUNCTION double operator()(double, const Y& y, const P&) const {
    return y[0];
  }
};

/// Bodies dropped from 1 to 100 m under g from 1 to 20 land at sqrt(2 h / g), located to 1e-12 s;
/// the last, from 2000 m, is still falling at t_end = 10 s and finishes there.
template <class Stepper>
void lands_where_the_closed_form_says(Stepper stepper, const Arm& arm) {
  const std::size_t n = 17;
  stepper.t_end = 10.0;
  std::vector<double> heights = spread(n, 1.0, 100.0), g = spread(n, 20.0, 1.0);
  heights.back() = 2000.0;
  const auto landing = ode::stop_when(stepper, FirstState{}, ode::Crossing::falling, 1e-12);
  const HostBatch start = start_of<Stepper>({heights, std::vector<double>(n, 0.0)}, {g});
  const auto [report, after] = run_against_reference(landing, start, arm, 1000000);
  EXPECT_EQ(report.finished, static_cast<std::int64_t>(n)) << report.summary();  // an event is no failure
  EXPECT_EQ(report.failed, 0);
  HostBatch reference = start;
  const ReferenceOutcome outcome = reference_run(landing, reference, 1000000);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    EXPECT_EQ(outcome.status[i], decltype(landing)::event) << "sample " << i;
    EXPECT_NEAR(after.state[Stepper::time][i], std::sqrt(2.0 * heights[i] / g[i]), 1e-11) << "sample " << i;
    EXPECT_LE(after.state[0][i], 0.0) << "stopped once the height has crossed zero";
    EXPECT_GT(after.state[0][i], -1e-9);
  }
  EXPECT_EQ(outcome.status.back(), status::finished);
  EXPECT_NEAR(after.state[Stepper::time].back(), 10.0, 1e-9);
}

TEST_P(OdeArms, EventsStopEachSampleWhereItLands) {
  ode::Rk4<Fall> rk4;
  rk4.dt = 1e-2;
  lands_where_the_closed_form_says(rk4, GetParam());
  lands_where_the_closed_form_says(ode::Tsit5<Fall>{}, GetParam());
  lands_where_the_closed_form_says(ode::Dopri5<Fall>{}, GetParam());
}

/// Bodies as above, saved every 0.25 s up to where they land: the times before the landing hold
/// h - g t^2 / 2, the later ones what the View held (NaN); bit for bit the serial loop.
template <class Stepper>
void saved_until_it_lands(Stepper stepper, const Arm& arm) {
  const std::size_t n = 17, times = 41;
  stepper.t_end = 10.0;
  std::vector<double> heights = spread(n, 1.0, 100.0), g = spread(n, 20.0, 1.0);
  heights.back() = 2000.0;  // still falling at t_end
  Trajectories out("trajectories", n, times, 2);
  Kokkos::deep_copy(out, std::numeric_limits<double>::quiet_NaN());
  const auto saving =
      ode::save_at(ode::stop_when(stepper, FirstState{}, ode::Crossing::falling, 1e-12), out, 0.0, 0.25);
  const HostBatch start = start_of<decltype(saving)>({heights, std::vector<double>(n, 0.0)}, {g});
  Planes<decltype(saving)> planes(start);
  const auto saved = saved_on(planes, saving, start, arm, out);
  for (std::size_t i = 0; i < n; ++i) {
    const double landing = i + 1 < n ? std::sqrt(2.0 * heights[i] / g[i]) : 1e300;
    for (std::size_t j = 0; j < times; ++j) {
      const double t = 0.25 * static_cast<double>(j), y = saved[(i * times + j) * 2];
      if (t < landing - 1e-9) {
        EXPECT_NEAR(y, heights[i] - 0.5 * g[i] * t * t, 1e-9 * heights[i]) << "sample " << i << " t " << t;
      } else if (t > landing + 0.5e-2 + 1e-9) {  // RK4 saves at the step nearest a time: dt / 2 past the end
        EXPECT_TRUE(std::isnan(y)) << "sample " << i << " saved at t " << t << " after landing at " << landing;
      }
    }
  }
}

TEST_P(OdeArms, SavingAndAnEventTogetherSaveUntilTheEvent) {
  ode::Rk4<Fall> rk4;
  rk4.dt = 1e-2;
  saved_until_it_lands(rk4, GetParam());
  saved_until_it_lands(ode::Tsit5<Fall>{}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Arms, OdeArms, ::testing::ValuesIn(arms()), arm_name);

TEST(OdeEvents, TheDirectionPicksTheCrossing) {
  // Springs x = cos(omega t): x falls through zero at pi / (2 omega), rises at 3 pi / (2 omega).
  ode::Tsit5<SpringAndDecay> m;
  m.t_end = 10.0;
  m.rtol = 1e-11;
  m.atol = 1e-13;
  const double pi = std::acos(-1.0);
  for (const auto& [direction, quarter_turns] :
       {std::pair{ode::Crossing::either, 1.0}, std::pair{ode::Crossing::falling, 1.0},
        std::pair{ode::Crossing::rising, 3.0}}) {
    const auto stopping = ode::stop_when(m, FirstState{}, direction);
    Planes<decltype(stopping)> planes(springs_and_decays<decltype(m)>());
    const Report report = planes.run(stopping, per_sample, 1000000);
    EXPECT_EQ(report.finished, 3) << report.summary();
    const auto s = planes.state_now();
    for (std::size_t i = 0; i < 3; ++i) {
      const double omega = 1.0 + static_cast<double>(i);
      EXPECT_NEAR(s[decltype(m)::time][i], quarter_turns * pi / (2.0 * omega), 1e-8) << "omega " << omega;
    }
  }
  EXPECT_EQ(describe_status(decltype(ode::stop_when(m, FirstState{}))::event), "finished, model ending 4");
}

TEST(OdeEvents, AToleranceThatIsNotPositiveIsRefusedByName) {
  for (const double tolerance : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    try {
      ode::stop_when(ode::Tsit5<Fall>{}, FirstState{}, ode::Crossing::either, tolerance);
      ADD_FAILURE() << "accepted tolerance " << tolerance;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("eagle::ode::stop_when: the tolerance must be positive"), std::string::npos)
          << e.what();
    }
  }
}

TEST(OdeSaving, AListOfTimesIsSavedToTheTolerance) {
  const std::size_t n = 3;
  Kokkos::View<double*, Mem> times("times", 4);
  auto host_times = Kokkos::create_mirror_view(times);
  host_times(0) = 0.25, host_times(1) = 0.5, host_times(2) = 1.75, host_times(3) = 2.0;
  Kokkos::deep_copy(times, host_times);
  Trajectories out("trajectories", n, 4, 3);
  ode::Tsit5<SpringAndDecay> stepper;
  stepper.t_end = 2.0;
  stepper.rtol = 1e-10;
  stepper.atol = 1e-12;
  const auto saving = ode::save_at(stepper, out, times);
  const HostBatch start = springs_and_decays<decltype(saving)>();
  Planes<decltype(saving)> planes(start);
  EXPECT_EQ(planes.run(saving, per_sample, 100000).finished, static_cast<std::int64_t>(n));
  const auto saved = to_host(out);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      const double t = host_times(j), w = start.inputs[0][i];
      const double* y = &saved[(i * 4 + j) * 3];
      EXPECT_NEAR(y[0], std::cos(w * t), 1e-8) << "omega " << w << " t " << t;
      EXPECT_NEAR(y[1], -w * std::sin(w * t), 1e-8) << "omega " << w << " t " << t;
      EXPECT_NEAR(y[2], forced_decay(start.inputs[1][i], t), 1e-8) << " t " << t;
    }
  }
}

TEST(OdeSaving, ASampleWithoutARowFailsAloneAndWritesNothing) {
  Trajectories out("trajectories", 2, 10, 2);  // rows for samples 0 and 1 of 3
  Kokkos::deep_copy(out, -7.0);
  ode::Rk4<VanDerPol> stepper;
  stepper.t_end = 1.0;
  const auto saving = ode::save_at(stepper, out, 0.0, 0.1);
  Planes<decltype(saving)> planes(start_of<decltype(saving)>({{1.0, 1.0, 1.0}, {0.0, 0.0, 0.0}}, {{1.0, 2.0, 3.0}}));
  const Report report = planes.run(saving, per_sample, 100000);
  EXPECT_EQ(report.finished, 2);
  EXPECT_EQ(report.failures.at(decltype(saving)::trajectory_row_outside), 1);
  EXPECT_EQ(report.first_failures.front().first, 2);
  const auto saved = to_host(out);
  EXPECT_EQ(std::count(saved.begin(), saved.end(), -7.0), 0) << "both rows filled";
}

TEST(OdeSaving, ATrajectoryOfTheWrongShapeOrTimesOutOfOrderAreRefusedByName) {
  ode::Tsit5<SpringAndDecay> stepper;
  const auto refused = [](auto&& call, const std::string& words) {
    try {
      call();
      ADD_FAILURE() << "no exception; expected " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  Trajectories two_fields("narrow", 4, 10, 2);
  refused([&] { ode::save_at(stepper, two_fields, 0.0, 0.1); }, "'narrow' has 2 fields, the system has 3 states");
  Trajectories out("out", 4, 3, 3);
  refused([&] { ode::save_at(stepper, out, 0.0, 0.0); }, "a positive spacing");
  Kokkos::View<double*, Mem> times("times", 3);
  auto host_times = Kokkos::create_mirror_view(times);
  host_times(0) = 0.0, host_times(1) = 0.5, host_times(2) = 0.5;
  Kokkos::deep_copy(times, host_times);
  refused([&] { ode::save_at(stepper, out, times); }, "save time 2 (0.500000) is not finite and above the one before");
  Kokkos::View<double*, Mem> two_times("two", 2);
  refused([&] { ode::save_at(stepper, out, two_times); }, "2 contiguous save times needed for the trajectory's 3");
}

}  // namespace
}  // namespace eagle::test
