#pragma once
// A test model whose samples take known, different numbers of steps: sample i counts its steps
// and terminates after `length[i]` of them.

#include <eagle/status.hpp>

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

namespace eagle::test {

/// Counts steps like Countdown, but a sample with fail_at > 0 fails (model code first+1) at that
/// step, and one with nan_at > 0 turns its value into NaN from that step on.
struct Fragile {
  static constexpr const char* name = "fragile";
  using scalar_type = double;
  enum State : int { count, value, state_count };
  enum Input : int { length, fail_at, nan_at, input_count };
  static constexpr std::uint8_t gave_up = status::first_model_failure + 1;

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION StepStatus step(S& s, const I& in) const {
    s[count] += 1.0;
    if (in[nan_at] > 0 && s[count] >= in[nan_at]) {
      const double zero = s[count] - s[count];
      s[value] = zero / zero;
    }
    if (in[fail_at] > 0 && s[count] >= in[fail_at]) return StepStatus::failed(gave_up);
    return s[count] >= in[length] ? StepStatus::done() : StepStatus::carry_on();
  }
};

}  // namespace eagle::test
