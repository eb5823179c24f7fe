// Finished samples: active-set maps, reorders, tile refills and revival change which lanes run,
// never a sample's result. Every mode against the plain serial loop, bit for bit, in the caller's
// order, on spread batches, including samples terminated on entry and samples stopped by the cap.

#include "batch.hpp"
#include "eagle_test_space.hpp"
#include "spin_batch.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/spread_batches.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace eagle::test {
namespace {

struct Outcome {
  std::vector<std::vector<double>> state;
  std::vector<bool> terminated;
  Report report;
};

/// Runs the batch on TestSpace from its host copy and brings everything back; a run stopped by a
/// throwing observer is read back as it was left.
Outcome run_on_device(const HostBatch& b, const Deployed<Spin>& d, std::int64_t max_steps, const RunOptions& options) {
  const SpinPlanes planes(b);
  Outcome out;
  try {
    out.report = planes.run(d, max_steps, options);
  } catch (const std::runtime_error&) {
    // the caller's planes are read below either way
  }
  out.state = planes.state_now();
  out.terminated = planes.terminated_now();
  return out;
}

struct Mode {
  std::string name;
  Compaction compaction;
  std::int64_t in_flight;  // as a divisor of n; 0: all in flight
};

const std::vector<Mode>& modes() {
  static const std::vector<Mode> all = {{"off", Compaction::off, 0},
                                        {"map", Compaction::map, 0},
                                        {"reorder", Compaction::reorder, 0},
                                        {"auto", Compaction::automatic, 0},
                                        {"revive_auto", Compaction::automatic, 7},
                                        {"revive_off", Compaction::off, 5}};
  return all;
}

struct Case {
  kernels::Spread spread;
  Steps steps;
  LoopNest nest;
};

class Compacted : public ::testing::TestWithParam<Case> {};

TEST_P(Compacted, EveryModeMatchesTheSerialLoopInTheCallersOrder) {
  if (GetParam().nest == LoopNest::tile && !detail::is_host_space<TestSpace>) {
    GTEST_SKIP() << "the tile runs on host execution spaces only";
  }
  const std::int64_t n = 3001;
  const std::int64_t max_steps = 900;  // below the longest spread samples: some are capped
  const HostBatch start = spin_batch(GetParam().spread, n);
  HostBatch expected = start;
  const ReferenceOutcome ref = reference_run(Spin{}, expected, max_steps);
  std::int64_t ref_work = 0, ref_unfinished = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    ref_work += ref.steps[i];
    ref_unfinished += ref.status[i] == status::capped ? 1 : 0;
  }

  for (const Mode& mode : modes()) {
    SCOPED_TRACE(mode.name);
    RunOptions options;
    options.compaction = mode.compaction;
    options.in_flight = mode.in_flight > 0 ? n / mode.in_flight : 0;
    options.tile_lanes = 64;  // several tiles even for this small batch
    const Outcome got = run_on_device(start, deploy(Spin{}, GetParam().steps, GetParam().nest), max_steps, options);
    EXPECT_EQ(bits(got.state), bits(expected.state));
    EXPECT_EQ(got.terminated, expected.terminated);
    EXPECT_EQ(got.report.sample_steps, ref_work);
    EXPECT_EQ(got.report.unfinished, ref_unfinished);
    EXPECT_EQ(got.report.finished + got.report.unfinished, n);
    if (mode.in_flight > 0) {
      EXPECT_EQ(got.report.in_flight, n / mode.in_flight);
      EXPECT_GT(got.report.revived, 0);
    } else {
      EXPECT_EQ(got.report.revived, 0);
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const std::string spread = info.param.spread == kernels::Spread::uniform ? "uniform"
                             : info.param.spread == kernels::Spread::x100  ? "x100"
                                                                           : "x1000";
  const std::string steps =
      info.param.steps.kind() == Steps::Kind::automatic ? "auto" : "k" + std::to_string(info.param.steps.k());
  return spread + "_" + steps + (info.param.nest == LoopNest::tile ? "_tile" : "_per_sample");
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (auto spread : {kernels::Spread::uniform, kernels::Spread::x100, kernels::Spread::x1000}) {
    for (auto nest : {LoopNest::per_sample, LoopNest::tile}) {
      all.push_back({spread, Steps::fixed(7), nest});
      all.push_back({spread, Steps::automatic(), nest});
    }
  }
  return all;
}
INSTANTIATE_TEST_SUITE_P(Spreads, Compacted, ::testing::ValuesIn(cases()), case_name);

// Allocations by label while `work` runs, seen through Kokkos Tools' allocation callback.
std::map<std::string, int>* allocations_seen = nullptr;
void count_allocation(const Kokkos_Profiling_SpaceHandle, const char* label, const void*, const std::uint64_t) {
  ++(*allocations_seen)[label];
}
template <class Work>
std::map<std::string, int> allocations_during(const Work& work) {
  std::map<std::string, int> seen;
  allocations_seen = &seen;
  Kokkos::Tools::Experimental::set_allocate_data_callback(count_allocation);
  work();
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  allocations_seen = nullptr;
  return seen;
}

TEST(Compaction, IndexBuffersAreAllocatedOnceNotPerAction) {
  const std::int64_t n = 4000;
  const HostBatch spread = spin_batch(kernels::Spread::x1000, n);
  const auto d = deploy(Spin{}, 4, LoopNest::per_sample);
  const SpinPlanes warm(spread);
  static_cast<void>(warm.run(d, 100000, RunOptions{}));  // measured costs and the like, once per process
  for (const Compaction mode : {Compaction::map, Compaction::reorder}) {
    RunOptions options;
    options.compaction = mode;
    const SpinPlanes planes(spread);
    Report r;
    const auto seen = allocations_during([&] { r = planes.run(d, 100000, options); });
    const std::string action = mode == Compaction::map ? "map" : "reorder";
    SCOPED_TRACE(action);
    EXPECT_GT(r.compaction_actions[action], 20);
    // Two maps (one read while the other is written) and one pair of swap lists, however many actions.
    EXPECT_LE(seen.count("eagle::active_map") ? seen.at("eagle::active_map") : 0, 2);
    EXPECT_LE(seen.count("eagle::swap_from") ? seen.at("eagle::swap_from") : 0, 1);
    EXPECT_LE(seen.count("eagle::swap_to") ? seen.at("eagle::swap_to") : 0, 1);
  }
  RunOptions revive;
  revive.in_flight = n / 8;
  const SpinPlanes planes(spread);
  Report r;
  const auto seen = allocations_during([&] { r = planes.run(d, 100000, revive); });
  EXPECT_GT(r.revived, 0);
  EXPECT_GT(r.launches, 20);
  EXPECT_EQ(seen.count("eagle::swap_from") ? seen.at("eagle::swap_from") : 0, 1);
}

TEST(Compaction, ReportSaysWhatEachModeDid) {
  const std::int64_t n = 4000;
  const HostBatch spread = spin_batch(kernels::Spread::x1000, n);
  const auto d = deploy(Spin{}, 4, LoopNest::per_sample);

  RunOptions options;
  options.compaction = Compaction::map;
  Report r = run_on_device(spread, d, 100000, options).report;
  EXPECT_EQ(r.compaction, "map");
  EXPECT_GT(r.compaction_actions["map"], 0);
  EXPECT_EQ(r.rows_moved, 0);
  EXPECT_FALSE(r.compaction_why["map"].empty());

  options.compaction = Compaction::reorder;
  r = run_on_device(spread, d, 100000, options).report;
  EXPECT_GT(r.compaction_actions["reorder"], 0);
  EXPECT_GT(r.rows_moved, 0);
  // Maps and scratch: a 32-bit origin plus one 64-bit scratch plane at most, never the state again.
  EXPECT_GT(r.extra_bytes_peak, 0);
  EXPECT_LE(r.extra_bytes_peak, 12 * n + 8 * n);

  options.compaction = Compaction::off;
  r = run_on_device(spread, d, 100000, options).report;
  EXPECT_TRUE(r.compaction_actions.empty());
  EXPECT_EQ(r.extra_bytes_peak, 0);
}

TEST(Compaction, AutomaticLeavesAUniformBatchAlone) {
  // Every sample takes the same 60 steps: none finishes before the rest, nothing to drop. The rule
  // is asked after each of the 20 launches of 3 steps but the last, and says "none" each time.
  HostBatch uniform = spin_batch(kernels::Spread::uniform, 2000, 60.0);
  uniform.terminated.assign(2000, false);
  RunOptions options;
  const Report r = run_on_device(uniform, deploy(Spin{}, 3, LoopNest::per_sample), 100000, options).report;
  EXPECT_EQ(r.compaction, "auto");
  EXPECT_EQ(r.launches, 20);
  EXPECT_EQ(r.compaction_actions, (std::map<std::string, std::int64_t>{{"none", 19}}));
}

TEST(Compaction, AutomaticDecidesFromTheCostsItIsGiven) {
  const HostBatch spread = spin_batch(kernels::Spread::x1000, 4000);
  const auto d = deploy(Spin{}, 2, LoopNest::per_sample);
  CompactionCosts given;
  given.visit_per_slot = 1e-6;  // finished slots are dear, a scan is cheap
  given.scan_per_slot = 1e-9;
  given.indirect_per_slot = 1e-6;  // and reading through a map too: reorder
  RunOptions options;
  options.compaction_costs = given;
  Report r = run_on_device(spread, d, 100000, options).report;
  EXPECT_EQ(r.compaction_costs, "given");
  EXPECT_GT(r.compaction_actions["reorder"], 0);

  given.visit_per_slot = 1e-12;  // finished slots cost nothing: leave them
  given.scan_per_slot = 1e-6;
  options.compaction_costs = given;
  r = run_on_device(spread, d, 100000, options).report;
  EXPECT_EQ(r.compaction_actions.count("map"), 0u);
  EXPECT_EQ(r.compaction_actions.count("reorder"), 0u);
  EXPECT_GT(r.compaction_actions["none"], 0);
}

TEST(Compaction, AThrowMidRunLeavesTheCallersRowsInOrder) {
  // An observer that throws after the third launch: every mode must stop with the same states, in
  // the caller's order, as the plain run stopped at the same point.
  const std::int64_t n = 3000;
  const HostBatch spread = spin_batch(kernels::Spread::x100, n);
  for (const Mode& mode : modes()) {
    if (mode.in_flight > 0) continue;  // revival starts samples later: a different mid-run state
    for (auto nest : {LoopNest::per_sample, LoopNest::tile}) {
      if (nest == LoopNest::tile && !detail::is_host_space<TestSpace>) continue;
      SCOPED_TRACE(mode.name + (nest == LoopNest::tile ? " tile" : " per-sample"));
      const auto d = deploy(Spin{}, 16, nest);
      RunOptions options;
      options.observer = [](const Progress& p) {
        if (p.launch == 3) throw std::runtime_error("stop");
      };
      options.compaction = Compaction::off;
      const Outcome plain = run_on_device(spread, d, 100000, options);
      options.compaction = mode.compaction;
      const Outcome stopped = run_on_device(spread, d, 100000, options);
      EXPECT_EQ(bits(stopped.state), bits(plain.state));
      EXPECT_EQ(stopped.terminated, plain.terminated);
      for (std::int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(stopped.state[Spin::count][i], spread.terminated[i] ? 0.0 : std::min(48.0, spread.inputs[0][i]))
            << "sample " << i;
      }
    }
  }
}

TEST(Compaction, NegativeInFlightIsRefused) {
  RunOptions options;
  options.in_flight = -1;
  try {
    run_on_device(spin_batch(kernels::Spread::uniform, 10), deploy(Spin{}), 10, options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("in_flight must be 0 (all) or positive, got -1"), std::string::npos);
  }
}

}  // namespace
}  // namespace eagle::test
