#pragma once
// Timing for the rules' measured constants (compaction_costs.hpp, launch_costs.hpp): the best of
// three fenced runs, and the slope between two sizes, so a launch's fixed latency drops out; and
// the bookkeeping a probe's samples carry.

#include <eagle/detail/fused_steps.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace eagle::detail {

/// Bookkeeping for `n` probe samples: all running, no step taken.
template <class Mem>
Bookkeeping<Mem> probe_bookkeeping(std::int64_t n) {
  return {Kokkos::View<bool*, Mem>("eagle::probe_terminated", n),
          Kokkos::View<std::uint8_t*, Mem>("eagle::probe_status", n),
          Kokkos::View<std::int64_t*, Mem>("eagle::probe_steps", n)};
}

/// Whether probe row `r` is one of those picked at random, one in `n`: a mix of its bits (splitmix64's),
/// so the picked rows lie as the unfinished samples of a batch do, not in a stride a prefetcher follows.
KOKKOS_INLINE_FUNCTION bool one_in(std::int64_t r, int n) {
  auto z = static_cast<std::uint64_t>(r) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) % static_cast<std::uint64_t>(n) == 0;
}

/// Best of three wall times of `work(n)`, fenced; `prepare(n)` runs before each, untimed.
template <class ExecSpace, class Work, class Prepare>
double best_seconds(const ExecSpace& exec, std::int64_t n, const Work& work, const Prepare& prepare) {
  double best = 1e300;
  for (int rep = 0; rep < 3; ++rep) {
    prepare(n);
    exec.fence();
    Kokkos::Timer timer;
    work(n);
    exec.fence();
    best = std::min(best, timer.seconds());
  }
  return best;
}

template <class ExecSpace, class Work>
double best_seconds(const ExecSpace& exec, std::int64_t n, const Work& work) {
  return best_seconds(exec, n, work, [](std::int64_t) {});
}

/// Seconds per unit from the times at two sizes, never negative.
template <class ExecSpace, class Work, class Prepare>
double slope(const ExecSpace& exec, std::int64_t small, std::int64_t large, const Work& work, const Prepare& prepare) {
  const double t = best_seconds(exec, large, work, prepare) - best_seconds(exec, small, work, prepare);
  return std::max(0.0, t / static_cast<double>(large - small));
}

template <class ExecSpace, class Work>
double slope(const ExecSpace& exec, std::int64_t small, std::int64_t large, const Work& work) {
  return slope(exec, small, large, work, [](std::int64_t) {});
}

}  // namespace eagle::detail
