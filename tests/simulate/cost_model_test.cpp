// The cost model: the host fit recovers known constants from synthetic timings, and device
// predictions follow the documented formula.

#include <eagle/simulate/cost_model.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace eagle::simulate {
namespace {

TEST(CostModel, FitRecoversKnownConstants) {
  const CostConstants truth{5e-6, 2e-9, 3e-9};
  std::vector<std::pair<RunFeatures, double>> runs;
  for (double launches : {10.0, 100.0, 1000.0}) {
    for (double steps : {1e5, 1e7, 1e9}) {
      for (double scanned : {0.0, 1e5, 1e7}) {
        const RunFeatures f{launches, steps, steps * 1.5, scanned};
        runs.push_back({f, predict_host(f, truth)});
      }
    }
  }
  const CostConstants fit = fit_host_costs(runs);
  EXPECT_NEAR(fit.per_launch, truth.per_launch, 1e-12);
  EXPECT_NEAR(fit.per_step, truth.per_step, 1e-15);
  EXPECT_NEAR(fit.per_scanned_slot, truth.per_scanned_slot, 1e-15);
}

TEST(CostModel, NoisyTimingsStayClose) {
  const CostConstants truth{8e-6, 1e-9, 0.0};
  std::vector<std::pair<RunFeatures, double>> runs;
  int i = 0;
  for (double launches : {5.0, 50.0, 500.0, 5000.0}) {
    for (double steps : {1e6, 1e8}) {
      const RunFeatures f{launches, steps, steps, 0.0};
      const double noise = 1.0 + ((i++ % 3) - 1) * 0.02;  // -2 %, 0, +2 %
      runs.push_back({f, predict_host(f, truth) * noise});
    }
  }
  const CostConstants fit = fit_host_costs(runs);
  EXPECT_NEAR(fit.per_launch / truth.per_launch, 1.0, 0.1);
  EXPECT_NEAR(fit.per_step / truth.per_step, 1.0, 0.05);
  EXPECT_EQ(fit.per_scanned_slot, 0.0);  // never seen: pinned to zero
}

TEST(CostModel, NegativeCostsAreDroppedAndRefitted) {
  // Times that a negative launch cost would fit best: the launch column is dropped, not negative.
  std::vector<std::pair<RunFeatures, double>> runs = {
      {{1000, 1e6, 1e6, 0}, 1e-3}, {{10, 1e6, 1e6, 0}, 1.2e-3}, {{100, 2e6, 2e6, 0}, 2.2e-3}};
  const CostConstants fit = fit_host_costs(runs);
  EXPECT_EQ(fit.per_launch, 0.0);
  EXPECT_GT(fit.per_step, 0.0);
}

TEST(CostModel, DevicePredictionFollowsTheFormula) {
  const DeviceProfile p{"test", 2e-6, 3e-6, 1e10, 1e9, 1000, 32, false, "test"};
  const RunFeatures f{100, 1e8, 2e8, 1e6};
  EXPECT_DOUBLE_EQ(predict_device(f, p), 100 * 5e-6 + 2e8 / 1e10 + 1e6 / 1e9);
  EXPECT_THROW(fit_host_costs({{f, 1.0}}), std::invalid_argument);
}

TEST(CostModel, ReplayOnAProfileIsTheRunEagleWouldMakeThere) {
  const DeviceProfile& a100 = gpu_profiles().front();
  std::vector<std::int64_t> finish(10000);
  double sample_steps = 0;
  for (std::size_t i = 0; i < finish.size(); ++i) {
    finish[i] = static_cast<std::int64_t>(i % 1000) + 1;
    sample_steps += static_cast<double>(finish[i]);
  }
  // 10^4 samples fit in flight on the profile (221184): auto weighs them as any batch, with the
  // profile's costs, and compacts between launches; each warp of 32 slots holds its lanes until its
  // slowest sample stops. Not the 10^4 x 10^6 lane-steps of lanes held to the cap.
  const RunFeatures automatic = replay_on(a100, finish, 1000000, 0, true, 40);
  EXPECT_GT(automatic.launches, 1.0);
  EXPECT_EQ(automatic.sample_steps, sample_steps);
  EXPECT_LT(automatic.lane_steps, 1.1 * sample_steps);
  const RunFeatures k64 = replay_on(a100, finish, 1000000, 64, true, 40);
  EXPECT_EQ(k64.launches, 16.0);  // 1000 steps in launches of 64
  EXPECT_EQ(k64.sample_steps, sample_steps);
  EXPECT_LT(predict_device(automatic, a100), predict_device(k64, a100));
}

TEST(CostModel, LaneStepsAreCountedByTheProfilesLockstepWidth) {
  const auto& profiles = gpu_profiles();
  auto named = [&](const std::string& name) {
    const auto it =
        std::find_if(profiles.begin(), profiles.end(), [&](const DeviceProfile& p) { return p.name == name; });
    EXPECT_NE(it, profiles.end()) << name;
    return *it;
  };
  const DeviceProfile nvidia = named("nvidia-h100"), amd = named("amd-mi300x");
  EXPECT_EQ(nvidia.lockstep_lanes, 32);
  EXPECT_EQ(amd.lockstep_lanes, 64);
  // 128 samples of one step but sample 32, which takes 100, in one launch of 100 steps: in warps of
  // 32 only the second group waits for it; in wavefronts of 64 the first half does.
  std::vector<std::int64_t> finish(128, 1);
  finish[32] = 100;
  EXPECT_EQ(replay_on(nvidia, finish, 100, 100, false, 40).lane_steps, 32 * (1 + 100 + 1 + 1));
  EXPECT_EQ(replay_on(amd, finish, 100, 100, false, 40).lane_steps, 64 * (100 + 1));
}

}  // namespace
}  // namespace eagle::simulate
