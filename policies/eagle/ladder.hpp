#pragma once
// The step counts a launch is compiled for. K is a template parameter of the fused functor: a
// launch of k steps runs on the smallest rung that holds k, with k as its runtime bound; a launch
// longer than the top rung repeats the top rung's block of steps.
// Powers of two up to 256: every rung doubles the previous, so a policy moves between them in a
// few launches; past 256 steps the launch overhead (a few microseconds on any card) is a small
// part of the launch on every batch worth launching, and more rungs only cost compile time.

#include <utility>

namespace eagle {

/// The compiled rungs, in increasing order.
using Ladder = std::integer_sequence<int, 1, 2, 4, 8, 16, 32, 64, 128, 256>;

/// The top rung: the longest block of steps unrolled in registers.
inline constexpr int top_rung = 256;

/// How many rungs there are; rung i holds 2^i steps.
inline constexpr int rung_count = static_cast<int>(Ladder::size());
static_assert(top_rung == 1 << (rung_count - 1), "the ladder is the powers of two up to the top rung");

/// The index of a rung in the ladder (its base-2 logarithm).
constexpr int rung_index(int rung) {
  int index = 0;
  while ((1 << index) < rung) ++index;
  return index;
}

/// The rung a launch of `k` >= 1 steps runs on: the smallest that holds k, or the top rung.
constexpr int rung_for(long long k) {
  int rung = 1;
  while (rung < k && rung < top_rung) rung *= 2;
  return rung;
}

/// The largest rung not above `k` >= 1.
constexpr int rung_at_most(long long k) {
  int rung = 1;
  while (rung * 2 <= k && rung < top_rung) rung *= 2;
  return rung;
}

}  // namespace eagle
