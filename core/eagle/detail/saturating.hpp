#pragma once
// Counters of steps asked for (a launch's K times the samples in it) can pass 2^63 when a caller
// gives INT64_MAX caps: they stop there instead of overflowing.

#include <cstdint>
#include <limits>

namespace eagle::detail {

inline constexpr std::int64_t counter_limit = std::numeric_limits<std::int64_t>::max();

/// a + b for counts (a, b >= 0), held at INT64_MAX.
constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  return b > counter_limit - a ? counter_limit : a + b;
}

/// a + b * c for counts (a, b, c >= 0), held at INT64_MAX.
constexpr std::int64_t saturating_add_product(std::int64_t a, std::int64_t b, std::int64_t c) {
  if (b == 0 || c == 0) return a;
  return b > (counter_limit - a) / c ? counter_limit : a + b * c;
}

}  // namespace eagle::detail
