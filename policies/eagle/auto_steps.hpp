#pragma once
// steps = auto on device-style execution: the next launch's K from what earlier launches saw.
// A pure function, so it is tested without Kokkos and is the part users tune.
//
// Cost of a launch of k steps over A active samples, of which r per step finish, among B visited:
//   a fixed cost F (kernel start, the running count back on the host)  +  (B - A) V (finished
//   samples not yet compacted away, each visited to find it finished)  +  A C(k) (each sample's
//   state loaded and stored and its k steps, on the rung that runs them: rungs differ in more than
//   their length, as the compiler unrolls and vectorises each its own way)  +  A P (what the last
//   two launches cost each of their samples beyond all that, the smaller, learned from their wall
//   times: rows scattered among finished ones, a batch larger than the caches the costs were
//   measured in)  +  masked work: each sample that finishes inside the launch idles its lane for
//   k/2 steps on average, r k^2/2 lane-steps at M each.
// With measured costs the rule takes the k (a rung, or whole blocks of the top rung) with the least
// cost per step advanced, (F + (B - A) V + A (C(k) + P) + M r k^2 / 2) / (A k). How long a launch
// it trusts: up to twice the last (fourfold after a launch in which no sample finished: there is no
// rate to weigh yet), and always as long as risks no more masked work than a one-step launch
// costs, A k M <= F + A C(1): the first launch's bound, and where a finished lane costs nothing
// (M = 0: a host, where a finished sample's work item just ends) no bound but `longest_launch`.
// Without measured costs the rule probes with K = 1, keeps the masked work under a fixed budget,
// K <= 2 budget A / r, grows at most twofold and stops at the top rung; and when the whole batch
// fits in flight at once (n <= concurrency) it takes the whole remaining run. Never past the cap.

#include <eagle/ladder.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace eagle {

/// What one launch did: its step count and the active samples before and after it; where it was
/// timed, the slots it visited and its wall time.
struct LaunchRecord {
  std::int64_t k = 0;              ///< steps the launch asked for
  std::int64_t active_before = 0;  ///< samples running when it started
  std::int64_t active_after = 0;   ///< samples still running when it ended
  std::int64_t visited = 0;        ///< slots visited, finished ones too
  double seconds = 0.0;            ///< wall time with the running count back on the host; 0: not timed
};

/// Seconds a launch spends on the run's execution space, for the run's model and loop nest
/// (measured by eagle/launch_costs.hpp; `measured` false: unknown, the masked budget decides).
struct LaunchCosts {
  double fixed_seconds = 0.0;  ///< each launch: kernel start, the running count back on the host
  /// Each running sample, a launch on rung i (2^i steps): its state loaded and stored, its steps.
  std::array<double, rung_count> per_sample_seconds{};
  double masked_step_seconds = 0.0;  ///< each step a finished sample's lane idles until the launch ends
  /// Each finished sample a launch still visits (no compaction yet): its flag read, its work item ended.
  double finished_sample_seconds = 0.0;
  bool measured = false;  ///< false: the figures are unknown and the masked-work budget decides

  /// Each running sample, a launch of k steps on the rung that runs them (the top rung past it): a
  /// sample's state is loaded once, and each step costs what one of the rung's own steps costs, so
  /// rungs' costs hold at their own lengths and a count between them costs in proportion.
  double per_sample(std::int64_t k) const {
    const std::int64_t rung = rung_for(std::min<std::int64_t>(k, top_rung));
    const double own = per_sample_seconds[rung_index(rung)];
    if (rung == 1) return own;
    const double step = (own - per_sample_seconds[0]) / static_cast<double>(rung - 1);
    return own + static_cast<double>(k - rung) * step;
  }

  /// What a launch of k steps costs by these figures: `visited` slots, `active` of them running, of
  /// which `finished` stop inside it (the rule's formula, auto_steps.hpp's header, without P).
  double launch_seconds(std::int64_t k, double visited, double active, double finished) const {
    const auto kd = static_cast<double>(k);
    return fixed_seconds + std::max(0.0, visited - active) * finished_sample_seconds + active * per_sample(k) +
           masked_step_seconds * finished * kd / 2.0;
  }

  /// What a timed launch cost each sample it advanced beyond what these costs explain (P); 0 where
  /// it was not timed or cost less.
  double unexplained_per_sample(const LaunchRecord& l) const {
    if (!(l.seconds > 0.0) || l.active_before <= 0) return 0.0;
    const auto active = static_cast<double>(l.active_before);
    const double explained = launch_seconds(l.k, static_cast<double>(l.visited), active,
                                            static_cast<double>(l.active_before - l.active_after));
    return std::max(0.0, (l.seconds - explained) / active);
  }
};

/// The costs as a report gives them.
inline std::string describe(const LaunchCosts& c) {
  if (!c.measured) return "none: the masked-work budget decides";
  std::ostringstream out;
  out.precision(3);
  out << "a launch " << c.fixed_seconds * 1e6 << " us, a masked step " << c.masked_step_seconds * 1e9
      << " ns, a finished sample visited " << c.finished_sample_seconds * 1e9 << " ns, a sample's launch by K (ns):";
  for (int i = 0; i < rung_count; ++i) out << ' ' << (1 << i) << ':' << c.per_sample_seconds[i] * 1e9;
  return out.str();
}

/// What the rule sees when it picks the next K.
struct AutoStepsInput {
  const std::vector<LaunchRecord>& history;  ///< earlier launches of this run, oldest first
  std::int64_t batch = 0;                    ///< samples the next launch visits (finished ones too)
  std::int64_t concurrency = 1;              ///< samples the execution space advances at once
  std::int64_t steps_done = 0;               ///< steps asked for so far
  std::int64_t max_steps = 0;                ///< the cap
  LaunchCosts costs{};                       ///< what launches cost on the space, if measured
};

/// The steps = auto rule of one sample per work item: each launch's K from the launches before it
/// (the cost model at the top of this header).
struct AutoSteps {
  /// Without measured costs: the largest expected fraction of a launch's lane-steps spent masked on
  /// samples already finished.
  double masked_budget = 0.05;
  /// With measured costs: the longest launch (progress lines and checkpoints come between launches).
  std::int64_t longest_launch = 8192;

  /// The next launch's step count, 1 <= K <= max_steps - steps_done.
  std::int64_t next_k(const AutoStepsInput& in) const {
    const std::int64_t remaining = in.max_steps - in.steps_done;
    if (remaining <= 0) return 0;
    if (in.costs.measured) return std::min(least_cost_k(in), remaining);
    if (in.batch <= in.concurrency) return remaining;
    return std::min(within_budget_k(in), remaining);
  }

 private:
  /// Unmeasured: double K while the masked work stays within the budget; rungs only.
  std::int64_t within_budget_k(const AutoStepsInput& in) const {
    if (in.history.empty()) return 1;
    const LaunchRecord& last = in.history.back();
    const std::int64_t finished = last.active_before - last.active_after;
    std::int64_t k = 2 * last.k;
    if (finished > 0 && last.active_after > 0) {
      const double rate = static_cast<double>(finished) / static_cast<double>(last.k);
      k = std::min(k, whole_steps(2.0 * masked_budget * static_cast<double>(last.active_after) / rate));
    }
    return rung_at_most(std::min<std::int64_t>(k, top_rung));
  }

  /// Measured: the candidate (a rung, or whole blocks of the top rung) with the least cost per step.
  std::int64_t least_cost_k(const AutoStepsInput& in) const {
    const LaunchCosts& c = in.costs;
    double active = static_cast<double>(in.batch);
    double rate = 0.0;         // samples finishing per step
    double unexplained = 0.0;  // P, per sample a launch
    std::int64_t growth = 0;
    if (!in.history.empty()) {
      const LaunchRecord& last = in.history.back();
      active = static_cast<double>(std::max<std::int64_t>(1, last.active_after));
      const std::int64_t finished = last.active_before - last.active_after;
      rate = static_cast<double>(finished) / static_cast<double>(last.k);
      growth = (finished > 0 ? 2 : 4) * last.k;
      unexplained = c.unexplained_per_sample(last);
      if (in.history.size() > 1)  // the smaller of the last two: one launch slowed by noise moves no K
        unexplained = std::min(unexplained, c.unexplained_per_sample(in.history[in.history.size() - 2]));
    }
    const std::int64_t risk_free =
        whole_steps((c.fixed_seconds + active * c.per_sample(1)) / (active * c.masked_step_seconds));
    const std::int64_t limit = std::min(std::max(growth, risk_free), longest_launch);
    const auto per_step = [&](std::int64_t k) {
      const double kd = static_cast<double>(k);
      return (c.launch_seconds(k, static_cast<double>(in.batch), active, rate * kd) + active * unexplained) /
             (active * kd);
    };
    std::int64_t best = 1;
    for (std::int64_t k = 2; k <= limit; k = k < top_rung ? 2 * k : k + top_rung)
      if (per_step(k) < per_step(best)) best = k;
    if (per_step(limit) < per_step(best)) best = limit;  // the trust bound itself, between rungs
    return best;
  }

  /// A step count from a real number: at least 1; huge, infinite or undefined (a lane that idles for
  /// free) saturates.
  static std::int64_t whole_steps(double k) {
    return !(k < 1e18) ? std::int64_t(1e18) : std::max<std::int64_t>(1, static_cast<std::int64_t>(k));
  }
};

}  // namespace eagle
