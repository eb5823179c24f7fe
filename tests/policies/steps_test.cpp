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

TEST(Steps, AutomaticHasNoFixedK) {
  EXPECT_EQ(Steps::automatic().kind(), Steps::Kind::automatic);
  EXPECT_EQ(Steps::automatic().describe(), "auto");
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
  EXPECT_EQ(rung_for(top_rung), top_rung);
  EXPECT_EQ(rung_for(1000), top_rung);  // longer launches repeat the top rung's block
}

TEST(Ladder, RungAtMostRoundsDown) {
  EXPECT_EQ(rung_at_most(1), 1);
  EXPECT_EQ(rung_at_most(3), 2);
  EXPECT_EQ(rung_at_most(64), 64);
  EXPECT_EQ(rung_at_most(100000), top_rung);
}

}  // namespace
}  // namespace eagle
