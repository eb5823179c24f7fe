// eagle::simulate::measure on TestSpace: every arm gives the same per-sample results and the outputs
// hold what was measured; the fastest arm and the table from timings given by hand.

#include "eagle_test_space.hpp"

#include <eagle/simulate/measure.hpp>
#include <eagle/simulate/outputs.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace eagle::simulate {
namespace {

Results small_run() {
  Options o =
      parse_args({"--arms", "k1,k8,k64,auto,auto-nocompact,tile,tile-nocompact,revive,naive,hand-simd", "--batches",
                  "999:uniform,999:spread-100,2000:spread-1000", "--budget", "20", "--repetitions", "3"});
  return measure<test::TestSpace>(o, nullptr);
}

TEST(Simulate, EveryArmGivesTheSameResults) {
  const Results r = small_run();
  ASSERT_EQ(r.batches.size(), 3u);
  for (std::size_t b = 0; b < r.batches.size(); ++b) {
    SCOPED_TRACE(r.batches[b].name());
    const Cell* fastest = r.fastest(b);
    ASSERT_NE(fastest, nullptr);
    std::size_t measured = 0;
    for (const Cell& c : r.cells) {
      if (c.batch != b) continue;
      if (c.seconds.empty()) {
        EXPECT_EQ(c.skipped, Skip::host_only) << c.arm;
        continue;
      }
      ++measured;
      EXPECT_EQ(c.seconds.size(), 3u) << c.arm;
      EXPECT_EQ(c.last.checksum, fastest->last.checksum) << c.arm << " differs from " << fastest->arm;
      EXPECT_GT(c.last.features.sample_steps, 0.0) << c.arm;
    }
    EXPECT_GE(measured, 5u);
  }
}

TEST(Simulate, FastestIsTheSmallestMedianOfTimingsGivenByHand) {
  // Medians: a 2.0 (1, 2, 9: its best single time, 1.0, is the smallest of all), b 1.5, c 1.8;
  // d was not measured. Rivals as ratios to b: c 1.8 / 1.5, a 2.0 / 1.5.
  Results r;
  r.batches = {BatchSpec{Model::oscillator, 1000, 100}};
  const auto cell = [](const char* arm, std::vector<double> seconds) {
    Cell c;
    c.arm = arm;
    c.seconds = std::move(seconds);
    c.skipped = c.seconds.empty() ? Skip::host_only : Skip::none;
    return c;
  };
  for (const Cell& c : {cell("a", {9.0, 1.0, 2.0}), cell("b", {1.6, 1.4, 1.5}), cell("c", {1.8}), cell("d", {})}) {
    r.cells.push_back(c);
  }
  ASSERT_NE(r.fastest(0), nullptr);
  EXPECT_EQ(r.fastest(0)->arm, "b");
  EXPECT_EQ(table(r), "| Batch | Fastest arm | Closest rivals |\n|---|---|---|\n| spread-100 n=1000 | b " +
                          format_seconds(1.5) + " | c 1.20x, a 1.33x |\n");
}

TEST(Simulate, OutputsHoldEveryMeasurement) {
  const Results r = small_run();
  const ModelReport m = model_report(r);
  EXPECT_FALSE(m.rows.empty());
  const std::string json = to_json(r, &m);
  const std::string csv = to_csv(r);
  for (const Cell& c : r.cells) {
    if (c.seconds.empty()) continue;
    EXPECT_NE(csv.find(r.batches[c.batch].name() + "," + (c.batch == 0 ? "oscillator,999,1," : "oscillator,")),
              std::string::npos);
    EXPECT_NE(json.find("\"arm\": \"" + c.arm + "\""), std::string::npos);
  }
  EXPECT_NE(json.find("\"kind\": \"modelled\""), std::string::npos);
  EXPECT_NE(model_table(r, m).find("modelled, not measured: nvidia-h100"), std::string::npos);
  EXPECT_NE(times_svg(r).find("<svg y=\"720\""), std::string::npos);  // three stacked charts
}

TEST(Simulate, ABudgetTooSmallSaysWhatWasLeftOut) {
  Options o = parse_args({"--arms", "k1,auto", "--batches", "1000:uniform,2e5:spread-1000", "--budget", "1e-9"});
  const Results r = measure<test::TestSpace>(o, nullptr);
  std::size_t skipped = 0;
  for (const Cell& c : r.cells) skipped += c.skipped == Skip::out_of_time ? 1 : 0;
  EXPECT_GE(skipped, 3u);  // at most the very first run started
}

}  // namespace
}  // namespace eagle::simulate
