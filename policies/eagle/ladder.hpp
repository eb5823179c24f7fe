#pragma once
// The step counts a launch can be compiled for. K is a template parameter of the fused functor, so
// a runtime K runs on the smallest rung that holds it, with the launch's own count as a bound.
// Powers of two up to 256: every rung doubles the previous, so a policy moves between them in a
// few launches; 256 steps is past where launch overhead matters on any card (a launch costs a few
// microseconds, 256 steps of even a tiny model cost more), and more rungs only cost compile time.

#include <utility>

namespace eagle {

/// The compiled rungs, in increasing order.
using Ladder = std::integer_sequence<int, 1, 2, 4, 8, 16, 32, 64, 128, 256>;

/// The largest number of steps one launch can fuse.
inline constexpr int max_steps_per_launch = 256;

/// The smallest rung that holds `k` steps (1 <= k <= max_steps_per_launch).
constexpr int rung_for(int k) {
  int rung = 1;
  while (rung < k) rung *= 2;
  return rung;
}

}  // namespace eagle
