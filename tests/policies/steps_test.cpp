// The steps setting and the ladder: pure logic, no Kokkos.

#include <eagle/ladder.hpp>
#include <eagle/steps.hpp>

#include <gtest/gtest.h>

namespace eagle {
namespace {

TEST(Steps, FixedKeepsItsK) {
  EXPECT_EQ(Steps::fixed(1).k(), 1);
  EXPECT_EQ(Steps::fixed(16).k(), 16);
  EXPECT_EQ(Steps::fixed(16).kind(), Steps::Kind::fixed);
  EXPECT_EQ(Steps::fixed(16).describe(), "k=16");
}

TEST(Steps, NonPositiveKIsRejected) {
  EXPECT_THROW(Steps::fixed(0), std::invalid_argument);
  EXPECT_THROW(Steps::fixed(-1), std::invalid_argument);
}

TEST(Ladder, RungIsTheSmallestPowerOfTwoThatHoldsK) {
  EXPECT_EQ(rung_for(1), 1);
  EXPECT_EQ(rung_for(2), 2);
  EXPECT_EQ(rung_for(3), 4);
  EXPECT_EQ(rung_for(16), 16);
  EXPECT_EQ(rung_for(17), 32);
  EXPECT_EQ(rung_for(max_steps_per_launch), max_steps_per_launch);
}

TEST(Ladder, TopRungIsTheLargestStepsPerLaunch) {
  int top = 0;
  for (int rung : {1, 2, 4, 8, 16, 32, 64, 128, 256}) top = rung;
  EXPECT_EQ(top, max_steps_per_launch);
}

}  // namespace
}  // namespace eagle
