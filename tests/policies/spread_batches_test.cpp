// Spread batches: reproducible, in range, and spread as named.

#include <eagle/kernels/spread_batches.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace eagle::kernels {
namespace {

TEST(SpreadBatches, UniformIsTheBase) {
  const auto lengths = sample_lengths(Spread::uniform, 100, 1000, 7);
  EXPECT_TRUE(std::all_of(lengths.begin(), lengths.end(), [](double l) { return l == 1000; }));
}

TEST(SpreadBatches, SpreadCoversItsRangeAndIsReproducible) {
  for (Spread s : {Spread::x100, Spread::x1000}) {
    const auto lengths = sample_lengths(s, 20000, 10, 42);
    const auto [lo, hi] = std::minmax_element(lengths.begin(), lengths.end());
    EXPECT_GE(*lo, 10);
    EXPECT_LE(*hi, 10.0 * static_cast<double>(s));
    EXPECT_GT(*hi / *lo, 0.9 * static_cast<double>(s));  // log-uniform: both ends are reached
    EXPECT_EQ(lengths, sample_lengths(s, 20000, 10, 42));
    EXPECT_NE(lengths, sample_lengths(s, 20000, 10, 43));
    // Sample i does not depend on n.
    const auto prefix = sample_lengths(s, 100, 10, 42);
    EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), lengths.begin()));
    // Log-uniform: half the samples below the geometric middle, within sampling noise.
    const double middle = 10.0 * std::sqrt(static_cast<double>(s));
    const auto below = std::count_if(lengths.begin(), lengths.end(), [&](double l) { return l < middle; });
    EXPECT_NEAR(static_cast<double>(below) / 20000.0, 0.5, 0.02);
  }
}

TEST(SpreadBatches, NamesParseAndBadOnesAreRefused) {
  EXPECT_EQ(parse_spread("uniform"), Spread::uniform);
  EXPECT_EQ(parse_spread("spread-100"), Spread::x100);
  EXPECT_EQ(parse_spread("spread-1000"), Spread::x1000);
  EXPECT_THROW(parse_spread("spread-10"), std::invalid_argument);
  EXPECT_THROW(sample_lengths(Spread::x100, -1, 10, 1), std::invalid_argument);
  EXPECT_THROW(sample_lengths(Spread::x100, 10, 0.5, 1), std::invalid_argument);
}

}  // namespace
}  // namespace eagle::kernels
