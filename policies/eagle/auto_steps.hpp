#pragma once
// steps = auto on device-style execution: the next launch's K from what earlier launches saw.
// A pure function, so it is tested without Kokkos and is the part users tune.
//
// Cost of a launch of k steps over A active samples, of which r per step finish:
//   launch overhead (fixed)  +  k A steps of work  +  masked work: each sample that finishes inside
//   the launch idles its lane for k/2 steps on average, r k * k/2 lane-steps.
// The masked fraction is therefore r k / (2 A). The rule takes the largest rung whose predicted
// masked fraction stays under a budget, growing at most twofold per launch (trust is earned from
// what the last launch showed) and never past the cap:
//   - nobody finished last launch: double K (launches are pure overhead to cut);
//   - samples finish: K <= 2 budget A / r, so K holds or shrinks as the batch thins;
//   - the whole batch fits in flight at once (n <= concurrency): every sample has its own lane, a
//     longer launch costs no wall time, so take the whole remaining run in one launch.

#include <eagle/ladder.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace eagle {

/// What one launch did: its step count and the active samples before and after it.
struct LaunchRecord {
  std::int64_t k = 0;
  std::int64_t active_before = 0;
  std::int64_t active_after = 0;
};

/// What the rule sees when it picks the next K.
struct AutoStepsInput {
  const std::vector<LaunchRecord>& history;  ///< earlier launches of this run, oldest first
  std::int64_t batch = 0;                    ///< samples in the batch
  std::int64_t concurrency = 1;              ///< samples the execution space advances at once
  std::int64_t steps_done = 0;               ///< steps asked for so far
  std::int64_t max_steps = 0;                ///< the cap
};

struct AutoSteps {
  /// Largest expected fraction of a launch's lane-steps spent masked on samples already finished.
  double masked_budget = 0.05;

  /// The next launch's step count, 1 <= K <= max_steps - steps_done.
  std::int64_t next_k(const AutoStepsInput& in) const {
    const std::int64_t remaining = in.max_steps - in.steps_done;
    if (remaining <= 0) return 0;
    if (in.batch <= in.concurrency) return remaining;
    if (in.history.empty()) return 1;

    const LaunchRecord& last = in.history.back();
    const std::int64_t finished = last.active_before - last.active_after;
    std::int64_t k = 2 * last.k;
    if (finished > 0 && last.active_after > 0) {
      const double rate = static_cast<double>(finished) / static_cast<double>(last.k);
      const double within_budget = 2.0 * masked_budget * static_cast<double>(last.active_after) / rate;
      k = std::min<std::int64_t>(k, std::max<std::int64_t>(1, static_cast<std::int64_t>(within_budget)));
    }
    return std::min<std::int64_t>(rung_at_most(k), remaining);
  }
};

}  // namespace eagle
