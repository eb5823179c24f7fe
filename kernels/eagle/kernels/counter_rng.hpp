#pragma once
// Reproducible random numbers for step bodies: a counter-based generator (Philox4x32-10, Salmon,
// Moraes, Dror and Shaw, SC'11), written from the published algorithm. The numbers a sample draws
// at a step are a pure function of (seed, sample id, step): no state to carry, split or advance,
// so they do not depend on K, the policy, tiles, compaction, thread count or backend. Kokkos'
// random pool hands out generator states per thread, which ties streams to scheduling.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::kernels {

/// Four 32-bit words.
struct Philox4x32 {
  std::uint32_t word[4];
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

/// The random words of sample `id` at step `step` under `seed`.
KOKKOS_INLINE_FUNCTION Philox4x32 random_words(std::uint64_t seed, std::uint64_t id, std::uint64_t step) {
  const Philox4x32 counter{{static_cast<std::uint32_t>(step), static_cast<std::uint32_t>(step >> 32),
                            static_cast<std::uint32_t>(id), static_cast<std::uint32_t>(id >> 32)}};
  return philox4x32(counter, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

/// A double in [0, 1) from two words (53 random bits).
KOKKOS_INLINE_FUNCTION double uniform01(std::uint32_t high, std::uint32_t low) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(high) << 21) ^ (static_cast<std::uint64_t>(low) >> 11);
  return static_cast<double>(bits & ((std::uint64_t{1} << 53) - 1)) * (1.0 / 9007199254740992.0);
}

}  // namespace eagle::kernels
