// The cost model: the host fit recovers known constants from synthetic timings, and device
// predictions follow the documented formula.

#include <simulate/cost_model.hpp>

#include <gtest/gtest.h>

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
  const DeviceProfile p{"test", 2e-6, 3e-6, 1e10, 1e9, false, "test"};
  const RunFeatures f{100, 1e8, 2e8, 1e6};
  EXPECT_DOUBLE_EQ(predict_device(f, p), 100 * 5e-6 + 2e8 / 1e10 + 1e6 / 1e9);
  EXPECT_THROW(fit_host_costs({{f, 1.0}}), std::invalid_argument);
}

}  // namespace
}  // namespace eagle::simulate
