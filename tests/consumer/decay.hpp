#pragma once
// A user's own model, and the plain serial loop that checks it:
// y <- y (1 - lambda dt) until y < 1/2.

#include <Kokkos_Core.hpp>

#include <cstdint>

struct Decay {
  static constexpr const char* name = "decay";
  using scalar_type = double;
  enum State : int { y, state_count };
  enum Input : int { lambda, input_count };
  double dt = 1e-2;

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in) const {
    s[y] *= 1.0 - in[lambda] * dt;
    return s[y] < 0.5;
  }
};

/// The rate of sample i of the consumers' batches.
inline double decay_rate(std::int64_t i) { return 0.5 + 0.01 * static_cast<double>(i); }

/// The serial reference: y after the sample's last step, and how many steps it took.
struct DecayEnd {
  double y = 1.0;
  std::int64_t steps = 0;
};
inline DecayEnd decay_reference(const Decay& model, double lambda) {
  DecayEnd end;
  const double factor = 1.0 - lambda * model.dt;
  while (!(end.y < 0.5)) {
    end.y *= factor;
    ++end.steps;
  }
  return end;
}
