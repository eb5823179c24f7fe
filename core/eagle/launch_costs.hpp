#pragma once
// The constants of steps = auto's cost rule (eagle/auto_steps.hpp), measured on this machine with the
// run's own fused functor on copies of the run's longest-lived samples: what a launch costs whatever
// its size, what each sample costs a launch on each rung, and what a finished sample's idle lane
// costs a step. (What a launch costs beyond them, the batch's own, the rule learns from each launch's
// wall time: auto_steps.hpp.)
// Slopes between two batch sizes, best of three (detail/measure.hpp), so the fixed cost drops out:
//   K steps on rung K, per step taken, times K:          C(K), for every rung
//   eight steps, every other sample capped after one:    (C(8) + C(1) + 7 M) / 2
//   a step, every sample finished:                       V, a finished sample a launch still visits
// The probe copies only the samples that live longest (a top-rung launch over up to 2^14 of the
// run's picks them), so a rung's samples run its K steps where any of the run's can and the costs
// do not depend on how the first batch's lengths spread: they are measured once per process.
// Per step taken still, for batches whose samples are all shorter than the top rung.
// On a GPU the capped lanes idle beside running ones in their warp (M near a step); on a host a
// capped sample's work item just ends (M near 0).
// The probe is sized for steps of a few nanoseconds; a model whose step costs more gets fewer
// probe samples, scaled from a first timed launch so the whole probe fits probe_budget_seconds.

#include <eagle/auto_steps.hpp>
#include <eagle/detail/active_set.hpp>
#include <eagle/detail/checkpoint_io.hpp>
#include <eagle/detail/launch.hpp>
#include <eagle/detail/measure.hpp>
#include <eagle/detail/region.hpp>
#include <eagle/ladder.hpp>
#include <eagle/status.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace eagle {
namespace detail {

/// `large` samples copied round-robin from the rows `pick` of `from` (the run's own), so the probe
/// steps real states.
template <class ExecSpace, class T, class Mem>
Kokkos::View<T*, Mem> probe_copy(const ExecSpace& exec, const Kokkos::View<const T*, Mem>& from,
                                 const Kokkos::View<const std::int64_t*, Mem>& pick, std::int64_t large) {
  const Kokkos::View<T*, Mem> to(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::probe_copy"), large);
  const auto picked = static_cast<std::int64_t>(pick.extent(0));
  Kokkos::parallel_for(
      "eagle::probe_copy", IndexRange<ExecSpace>(exec, 0, large),
      KOKKOS_LAMBDA(const std::int64_t i) { to(i) = from(pick(i % picked)); });
  return to;
}

/// A probe of `run` over copies of its rows `pick`, `large` samples, all running, capped far away.
template <class ExecSpace, class Model, class Mem, class Pick>
Launcher<ExecSpace, Model, Mem> probe_of(const Launcher<ExecSpace, Model, Mem>& run, const Pick& pick,
                                         std::int64_t large) {
  using T = typename ModelTraits<Model>::scalar_type;
  Launcher<ExecSpace, Model, Mem> probe = run.rehearsal();
  probe.max_steps = std::int64_t(1) << 40;
  for (int f = 0; f < ModelTraits<Model>::state_count; ++f)
    probe.state.planes[f] = probe_copy<ExecSpace, T, Mem>(run.exec, run.state.planes[f], pick, large);
  for (int f = 0; f < ModelTraits<Model>::input_count; ++f)
    probe.inputs.planes[f] = probe_copy<ExecSpace, T, Mem>(run.exec, run.inputs.planes[f], pick, large);
  probe.book = probe_bookkeeping<Mem>(large);
  return probe;
}

/// Steps the probe's first n samples have taken.
template <class ExecSpace, class Mem>
double probe_steps_taken(const ExecSpace& exec, const Bookkeeping<Mem>& book, std::int64_t n) {
  std::int64_t sum = 0;
  const auto steps_taken = book.steps_taken;
  Kokkos::parallel_reduce(
      "eagle::probe_steps_taken", IndexRange<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t r, std::int64_t& total) { total += steps_taken(r); }, sum);
  return static_cast<double>(sum);
}

/// `count` of the run's rows, evenly spaced over the batch.
inline std::vector<std::int64_t> spaced_rows(std::int64_t n, std::int64_t count) {
  std::vector<std::int64_t> spaced(static_cast<std::size_t>(count));
  for (std::int64_t j = 0; j < count; ++j) spaced[static_cast<std::size_t>(j)] = j * n / count;
  return spaced;
}

/// Wall seconds per sample-step of the run's model: a launch of 8 steps over up to 2^11 of its
/// samples (copies), timed after a launch of one step warmed them up (every copy starts running,
/// so the warm-up leaves most of them running: the timed launch is divided by the steps it took,
/// or by the samples it visited if all of them finished).
template <class ExecSpace, class Model, class Mem>
double seconds_per_sample_step(const Launcher<ExecSpace, Model, Mem>& run) {
  const ExecSpace& exec = run.exec;
  const auto n = static_cast<std::int64_t>(run.state.planes[0].extent(0));
  const std::int64_t count = std::min<std::int64_t>(n, std::int64_t(1) << 11);
  const Kokkos::View<std::int64_t*, Mem> rows("eagle::probe_pace_rows", count);
  load_values(exec, rows, spaced_rows(n, count));
  const Launcher<ExecSpace, Model, Mem> pace = probe_of(run, rows, count);
  static_cast<void>(pace({{}, {}, count}, 1, false));
  const double before = probe_steps_taken(exec, pace.book, count);
  exec.fence();
  const Kokkos::Timer timer;
  static_cast<void>(pace({{}, {}, count}, 8, false));
  exec.fence();
  const double seconds = timer.seconds();
  const double taken = probe_steps_taken(exec, pace.book, count) - before;
  return seconds / (taken > 0.0 ? taken : static_cast<double>(count));
}

/// The rows of the run whose samples live longest: one top-rung launch over up to `most` of
/// them, spread over the batch, then those that ran all its steps, or as many steps as any did.
template <class ExecSpace, class Model, class Mem>
Kokkos::View<std::int64_t*, Mem> longest_lived_rows(const Launcher<ExecSpace, Model, Mem>& run, std::int64_t most) {
  const ExecSpace& exec = run.exec;
  const auto n = static_cast<std::int64_t>(run.state.planes[0].extent(0));
  const std::int64_t tried = std::min(n, most);
  const std::vector<std::int64_t> spaced = spaced_rows(n, tried);
  const Kokkos::View<std::int64_t*, Mem> spaced_view("eagle::probe_spaced_rows", tried);
  load_values(exec, spaced_view, spaced);
  const Launcher<ExecSpace, Model, Mem> trial = probe_of(run, spaced_view, tried);
  static_cast<void>(trial({{}, {}, tried}, top_rung, false));
  const std::vector<std::int64_t> lived = host_values<std::int64_t>(exec, trial.book.steps_taken);
  const std::int64_t longest = *std::max_element(lived.begin(), lived.end());
  std::vector<std::int64_t> picked;
  for (std::size_t j = 0; j < spaced.size(); ++j)
    if (lived[j] == longest) picked.push_back(spaced[j]);
  const Kokkos::View<std::int64_t*, Mem> rows("eagle::probe_rows", picked.size());
  load_values(exec, rows, picked);
  return rows;
}

/// How the probe's samples start: all running, every other one a step from the cap, or all finished.
enum class ProbeStart { running, half_capped, finished };

/// Every probe sample back at its start, as `how` says.
template <class ExecSpace, class T, int NS, class Mem>
void probe_reset(const ExecSpace& exec, const Fields<T, NS, Mem>& state, const Fields<T, NS, Mem>& start,
                 const Bookkeeping<Mem>& book, ProbeStart how, std::int64_t cap) {
  for (int f = 0; f < NS; ++f) Kokkos::deep_copy(exec, state.planes[f], start.planes[f]);
  Kokkos::parallel_for(
      "eagle::probe_reset", IndexRange<ExecSpace>(exec, 0, book.terminated.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t r) {
        const bool finished = how == ProbeStart::finished;
        book.terminated(r) = finished;
        book.status(r) = finished ? status::finished : status::running;
        book.steps_taken(r) = how == ProbeStart::half_capped && r % 2 == 1 ? cap - 1 : 0;
      });
}

/// Samples in the smaller of a rung's two probe sizes (the larger is eight times as many): twice the
/// space's concurrency at least (a GPU's time is flat below it), and past rung 8 fewer, so every
/// rung's probe does about the same work; `scale` (at most 1) shrinks all but that floor.
inline std::int64_t probe_samples(std::int64_t concurrency, int rung, double scale) {
  constexpr std::int64_t work = std::int64_t(1) << 17;  // sample-steps of the smaller probe
  const double wanted = scale * static_cast<double>(std::max(std::int64_t(1) << 11, work / std::max(rung, 8)));
  return std::max(2 * concurrency, static_cast<std::int64_t>(wanted));
}

/// What the whole probe may take: a run that asks for `auto` pays it once per process.
inline constexpr double probe_budget_seconds = 0.2;

/// The scale of probe_samples that fits the probe's launches (three of each of two sizes per rung,
/// and the half-capped rung 8) into the part of the budget left for them.
inline double probe_scale(double seconds_per_sample_step, double seconds) {
  double sample_steps = 0.0;
  for (int i = 0; i < rung_count; ++i) sample_steps += 27.0 * static_cast<double>(probe_samples(0, 1 << i, 1.0) << i);
  sample_steps += 27.0 * 4.5 * static_cast<double>(probe_samples(0, 8, 1.0));
  return std::min(1.0, seconds / (sample_steps * seconds_per_sample_step));
}

template <class ExecSpace, class Model, class Mem>
LaunchCosts measure_launch_costs(const Launcher<ExecSpace, Model, Mem>& run) {
  const Region region("eagle::measure_launch_costs");
  using T = typename ModelTraits<Model>::scalar_type;
  constexpr int NS = ModelTraits<Model>::state_count;
  const ExecSpace& exec = run.exec;
  const auto concurrency = static_cast<std::int64_t>(exec.concurrency());
  // A quarter of the budget for the trial that picks the samples, the rest for the rungs.
  const double pace = seconds_per_sample_step(run);
  const double trial_samples = probe_budget_seconds / 4.0 / (pace * static_cast<double>(top_rung));
  const auto tried = static_cast<std::int64_t>(
      std::clamp(trial_samples, 2.0 * static_cast<double>(concurrency), static_cast<double>(std::int64_t(1) << 14)));
  const double scale = probe_scale(pace, probe_budget_seconds * 0.75);
  const std::int64_t large = 8 * probe_samples(concurrency, 1, scale);

  Launcher<ExecSpace, Model, Mem> probe = probe_of(run, longest_lived_rows(run, tried), large);
  Fields<T, NS, Mem> start;
  for (int f = 0; f < NS; ++f) {
    start.planes[f] = probe.state.planes[f];
    probe.state.planes[f] =
        Kokkos::View<T*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::probe"), large);
  }

  const auto reset = [&](ProbeStart how) {
    return [&, how](std::int64_t) { probe_reset(exec, probe.state, start, probe.book, how, probe.max_steps); };
  };
  const auto steps = [&](std::int64_t k) {
    return [&, k](std::int64_t n) { static_cast<void>(probe({{}, {}, n}, k, false)); };
  };
  const auto full_rung = [&](int rung) {  // a sample's launch on the rung, from its cost per step taken
    const std::int64_t small = probe_samples(concurrency, rung, scale);
    const double seconds_small = best_seconds(exec, small, steps(rung), reset(ProbeStart::running));
    const double steps_small = probe_steps_taken(exec, probe.book, small);
    const double seconds_large = best_seconds(exec, 8 * small, steps(rung), reset(ProbeStart::running));
    const double steps_large = probe_steps_taken(exec, probe.book, 8 * small);
    return std::max(0.0, (seconds_large - seconds_small) / std::max(1.0, steps_large - steps_small)) * rung;
  };

  LaunchCosts c;
  for (int i = 0; i < rung_count; ++i) c.per_sample_seconds[i] = full_rung(1 << i);
  const std::int64_t small = probe_samples(concurrency, 8, scale);
  const double half_capped = slope(exec, small, 8 * small, steps(8), reset(ProbeStart::half_capped));
  c.masked_step_seconds =
      std::max(0.0, (2.0 * half_capped - c.per_sample_seconds[rung_index(8)] - c.per_sample_seconds[0]) / 7.0);
  c.finished_sample_seconds = slope(exec, small, 8 * small, steps(1), reset(ProbeStart::finished));
  const std::int64_t tiny = std::min<std::int64_t>(256, large);
  c.fixed_seconds = std::max(0.0, best_seconds(exec, tiny, steps(1), reset(ProbeStart::running)) -
                                      static_cast<double>(tiny) * c.per_sample_seconds[0]);
  c.measured = true;
  return c;
}

}  // namespace detail

/// The launch costs of `Model` on `ExecSpace` for one sample per work item, measured on first use
/// and kept for the process (at most about probe_budget_seconds).
template <class ExecSpace, class Model, class Mem>
const LaunchCosts& launch_costs(const detail::Launcher<ExecSpace, Model, Mem>& run) {
  static const LaunchCosts measured = detail::measure_launch_costs(run);
  return measured;
}

}  // namespace eagle
