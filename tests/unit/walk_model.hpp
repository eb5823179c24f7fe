#pragma once
// A test model whose steps read their context (eagle::StepContext): it goes wrong if any arm hands
// a step another sample's index or another step number.

#include <eagle/model.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::test {

/// A random walk whose steps are drawn from the sample's index and step number alone: any
/// mix-up of samples or steps (a reorder, a refill, a resume) changes its result. Sample i takes
/// 1 + (37 i mod 300) steps.
struct Walk {
  static constexpr const char* name = "walk";
  using scalar_type = double;
  enum State : int { x, state_count };
  enum Input : int { input_count };

  KOKKOS_INLINE_FUNCTION static std::int64_t length(std::int64_t sample) { return 1 + (37 * sample) % 300; }

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I&, const StepContext& at) const {
    auto z = static_cast<std::uint64_t>(at.sample) * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(at.step);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    s[x] += static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53 - 0.5;
    return at.step + 1 >= length(at.sample);
  }
};

}  // namespace eagle::test
