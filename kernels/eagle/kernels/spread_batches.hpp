#pragma once
// Batches whose samples need different numbers of steps, rebuilt exactly from a seed: the test
// and benchmark inputs for thinning batches. Lengths are log-uniform over [base, base x spread]
// (spread 1 is uniform), drawn with Philox at (seed, sample), so sample i has the same length
// whatever n is and on every machine.

#include <eagle/kernels/counter_rng.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace eagle::kernels {

/// How far per-sample lengths spread: the longest over the shortest.
enum class Spread { uniform = 1, x100 = 100, x1000 = 1000 };

inline const char* describe(Spread s) {
  switch (s) {
    case Spread::x100:
      return "spread-100";
    case Spread::x1000:
      return "spread-1000";
    default:
      return "uniform";
  }
}

/// "uniform", "spread-100" or "spread-1000"; anything else throws, listing the three.
inline Spread parse_spread(const std::string& name) {
  for (Spread s : {Spread::uniform, Spread::x100, Spread::x1000}) {
    if (name == describe(s)) return s;
  }
  throw std::invalid_argument("eagle: unknown batch spread '" + name + "' (uniform, spread-100 or spread-1000)");
}

/// Per-sample lengths in steps, integers in [base, base x spread], log-uniform, reproducible.
inline std::vector<double> sample_lengths(Spread spread, std::int64_t n, double base, std::uint64_t seed) {
  if (n < 0 || !(base >= 1.0)) {
    throw std::invalid_argument("eagle::kernels::sample_lengths: need n >= 0 and base >= 1, got n " +
                                std::to_string(n) + ", base " + std::to_string(base));
  }
  const double log_spread = std::log(static_cast<double>(spread));
  std::vector<double> lengths(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const Philox4x32 r = random_words(seed, static_cast<std::uint64_t>(i), 0);
    const double u = uniform01(r.word[0], r.word[1]);
    lengths[static_cast<std::size_t>(i)] = std::floor(base * std::exp(u * log_spread));
  }
  return lengths;
}

}  // namespace eagle::kernels
