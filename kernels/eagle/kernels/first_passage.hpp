#pragma once
// Stochastic first passage: a symmetric +-1 random walk from x = 0 that ends when |x| reaches the
// sample's barrier b (input). Its expected length is b^2, so a batch with barriers spread over a
// range is the natural spread batch. Each step's coin is bit 0 of Philox4x32-10 at counter
// (step, sample id) under `seed` (counter_rng.hpp): the caller gives each sample its id (an input,
// so the stream follows the sample wherever it is stored).

#include <eagle/kernels/counter_rng.hpp>
#include <eagle/math.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::kernels {

/// A symmetric +-1 random walk from x = 0 that ends when |x| reaches the sample's barrier.
struct FirstPassage {
  static constexpr const char* name = "first_passage";  ///< kernel labels, reports, checkpoints
  using scalar_type = double;                           ///< every state and input plane holds double
  /// State fields.
  enum State : int {
    x,           ///< position (start: 0)
    steps,       ///< steps taken (start: 0); the step's counter for its random bits
    state_count  ///< state fields per sample
  };
  /// Input fields.
  enum Input : int {
    barrier,     ///< the walk ends once |x| reaches it
    sample_id,   ///< the sample's id, keying its random stream
    input_count  ///< input fields per sample
  };

  std::uint64_t seed = 20261130;  ///< the seed of every sample's random stream

  /// One coin flip: x moves by +1 or -1; terminated once |x| >= barrier.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in) const {
    const Philox4x32 r =
        random_words(seed, static_cast<std::uint64_t>(in[sample_id]), static_cast<std::uint64_t>(s[steps]));
    s[x] += (r.word[0] & 1u) != 0 ? 1.0 : -1.0;
    s[steps] += 1.0;
    return math::fabs(s[x]) >= in[barrier];
  }
};

}  // namespace eagle::kernels
