#pragma once
// Reproducible random numbers for step bodies: a counter-based generator (Philox4x32-10, Salmon,
// Moraes, Dror and Shaw, SC'11), written from the published algorithm. The numbers a sample draws
// at a step are a pure function of (seed, sample id, step): no state to carry, split or advance,
// so they do not depend on K, the policy, tiles, compaction, thread count or backend. Kokkos'
// random pool hands out generator states per thread, which ties streams to scheduling.

#include <eagle/math.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::kernels {

/// Four 32-bit words.
struct Philox4x32 {
  std::uint32_t word[4];  ///< the words: a counter going in, random bits coming out
};

/// Philox4x32-10 of a 128-bit counter under a 64-bit key.
KOKKOS_INLINE_FUNCTION Philox4x32 philox4x32(Philox4x32 counter, std::uint32_t key0, std::uint32_t key1) {
  constexpr std::uint32_t multiplier0 = 0xD2511F53u, multiplier1 = 0xCD9E8D57u;
  constexpr std::uint32_t weyl0 = 0x9E3779B9u, weyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = static_cast<std::uint64_t>(multiplier0) * counter.word[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(multiplier1) * counter.word[2];
    const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
    const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
    counter = {{hi1 ^ counter.word[1] ^ key0, lo1, hi0 ^ counter.word[3] ^ key1, lo0}};
    key0 += weyl0;
    key1 += weyl1;
  }
  return counter;
}

/// The random words of sample `id` at step `step` under `seed`: block 0 of RandomStream's.
KOKKOS_INLINE_FUNCTION Philox4x32 random_words(std::uint64_t seed, std::uint64_t id, std::uint64_t step) {
  const Philox4x32 counter{{static_cast<std::uint32_t>(step), static_cast<std::uint32_t>(step >> 32),
                            static_cast<std::uint32_t>(id), static_cast<std::uint32_t>(id >> 32)}};
  return philox4x32(counter, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

/// A double in [0, 1) from two words (53 random bits); 0 is one of its values.
KOKKOS_INLINE_FUNCTION double uniform01(std::uint32_t high, std::uint32_t low) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(high) << 21) ^ (static_cast<std::uint64_t>(low) >> 11);
  return static_cast<double>(bits & ((std::uint64_t{1} << 53) - 1)) * (1.0 / 9007199254740992.0);
}

/// A double in (0, 1) from two words: the midpoints of 2^52 equal cells, from 2^-53 to 1 - 2^-53,
/// so neither log(u) nor log(1 - u) is ever infinite.
KOKKOS_INLINE_FUNCTION double uniform_open01(std::uint32_t high, std::uint32_t low) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(high) << 20) ^ (static_cast<std::uint64_t>(low) >> 12);
  return (static_cast<double>(bits & ((std::uint64_t{1} << 52) - 1)) + 0.5) * (1.0 / 4503599627370496.0);
}

/// The random numbers of one sample at one step, as many as the step asks for: a step's draws walk
/// Philox blocks of 4 words, keyed by (seed, sample, step, block); block 0 is random_words(seed,
/// sample, step). A pure function of those: the same numbers for any K, loop nest, compaction,
/// thread count or backend. Distinct for steps below 2^48 and 2^16 blocks (262144 words) a step.
class RandomStream {
 public:
  /// The stream of sample `sample` at step `step` under `seed`.
  KOKKOS_INLINE_FUNCTION RandomStream(std::uint64_t seed, std::uint64_t sample, std::uint64_t step)
      : seed_(seed), sample_(sample), step_(step) {}

  /// The next 32 random bits.
  KOKKOS_INLINE_FUNCTION std::uint32_t word() {
    if (used_ == 4) {
      words_ = block(next_block_++);
      used_ = 0;
    }
    return words_.word[used_++];
  }
  /// Uniform in (0, 1), never 0 nor 1 (two words).
  KOKKOS_INLINE_FUNCTION double uniform() {
    const std::uint32_t high = word();
    return uniform_open01(high, word());
  }
  /// Exponential with the given rate (mean 1 / rate), by inversion: finite, positive.
  KOKKOS_INLINE_FUNCTION double exponential(double rate = 1.0) { return -math::log(uniform()) / rate; }
  /// Normal with the given mean and standard deviation, by Box-Muller: two uniforms give two
  /// independent variates, the second kept for the next call.
  KOKKOS_INLINE_FUNCTION double normal(double mean = 0.0, double sd = 1.0) {
    if (has_spare_) {
      has_spare_ = false;
      return mean + sd * spare_;
    }
    const double radius = math::sqrt(-2.0 * math::log(uniform()));
    const double angle = 6.283185307179586 * uniform();
    spare_ = radius * math::sin(angle);
    has_spare_ = true;
    return mean + sd * radius * math::cos(angle);
  }

 private:
  KOKKOS_INLINE_FUNCTION Philox4x32 block(std::uint32_t b) const {
    const Philox4x32 counter{{static_cast<std::uint32_t>(step_),
                              (static_cast<std::uint32_t>(step_ >> 32) & 0xFFFFu) | ((b & 0xFFFFu) << 16),
                              static_cast<std::uint32_t>(sample_), static_cast<std::uint32_t>(sample_ >> 32)}};
    return philox4x32(counter, static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32));
  }

  std::uint64_t seed_, sample_, step_;
  Philox4x32 words_{};
  int used_ = 4;  // block 0 drawn at the first word
  std::uint32_t next_block_ = 0;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace eagle::kernels
