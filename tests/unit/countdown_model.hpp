#pragma once
// A test model whose samples take known, different numbers of steps: sample i counts its steps
// and terminates after `length[i]` of them.

#include <Kokkos_Core.hpp>

namespace eagle::test {

struct Countdown {
  static constexpr const char* name = "countdown";
  using scalar_type = double;
  enum State : int { count, state_count };
  enum Input : int { length, input_count };

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in) const {
    s[count] += 1.0;
    return s[count] >= in[length];
  }
};

}  // namespace eagle::test
