// The ETA estimate behind the progress line.

#include <eagle/progress.hpp>

#include <gtest/gtest.h>

namespace eagle {
namespace {

Progress at(double seconds, std::int64_t steps_done, std::int64_t active) {
  return {1, 16, active, 1000, steps_done, 10000, seconds};
}

TEST(Progress, CapBoundsTheEtaWhileNobodyFinishes) {
  // 1 s for 1000 of 10000 steps: 9 s left at most.
  EXPECT_DOUBLE_EQ(estimate_seconds_left(at(0.5, 500, 1000), at(1.0, 1000, 1000)), 9.0);
}

TEST(Progress, CompletionCurveWinsWhenSamplesFinish) {
  // 200 finished in 0.5 s: 400 per second, 600 left: 1.5 s, below the cap bound of 9 s.
  EXPECT_DOUBLE_EQ(estimate_seconds_left(at(0.5, 500, 800), at(1.0, 1000, 600)), 1.5);
}

TEST(Progress, DoneIsZeroAndUnknownIsNegative) {
  EXPECT_DOUBLE_EQ(estimate_seconds_left(at(0.5, 500, 10), at(1.0, 1000, 0)), 0.0);
  EXPECT_LT(estimate_seconds_left(at(0.0, 0, 1000), at(0.0, 0, 1000)), 0.0);
}

TEST(Progress, LineEndsWhenTheRunEnds) {
  std::FILE* out = std::tmpfile();
  ProgressLine line("test", out, /*quiet_for=*/0.0, /*interval=*/0.0);
  line(at(0.5, 500, 1000));
  line(at(1.0, 1000, 0));
  std::rewind(out);
  char buffer[512] = {};
  const std::size_t got = std::fread(buffer, 1, sizeof buffer - 1, out);
  std::fclose(out);
  const std::string text(buffer, got);
  EXPECT_NE(text.find("[test] launch 1"), std::string::npos) << text;
  EXPECT_NE(text.find("100.0% done"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(Progress, ShortRunsPrintNothing) {
  std::FILE* out = std::tmpfile();
  ProgressLine line("test", out, /*quiet_for=*/1.0);
  line(at(0.5, 500, 1000));
  line(at(0.9, 1000, 0));
  const long written = std::ftell(out);
  std::fclose(out);
  EXPECT_EQ(written, 0);
}

}  // namespace
}  // namespace eagle
