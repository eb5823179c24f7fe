#pragma once
// The constants of steps = auto's cost rule (eagle/auto_steps.hpp), measured on this machine with the
// run's own fused functor on copies of the run's own samples: what a launch costs whatever its size,
// what each sample costs a launch on each rung, and what a finished sample's idle lane costs a step.
// Slopes between two batch sizes, best of three (detail/measure.hpp), so the fixed cost drops out:
//   K steps on rung K, per step taken, times K:          C(K), for every rung
//   eight steps, every other sample capped after one:    (C(8) + C(1) + 7 M) / 2
//   a step, every sample finished:                       V, a finished sample a launch still visits
// Per step taken, because the run's samples may finish inside a probe: a batch whose samples all
// stop after 100 steps takes 100, not 256, on rung 256, and a rung is only as cheap as its real steps.
// On a GPU the capped lanes idle beside running ones in their warp (M near a step); on a host a
// capped sample's work item just ends (M near 0).

#include <eagle/auto_steps.hpp>
#include <eagle/detail/active_set.hpp>
#include <eagle/detail/launch.hpp>
#include <eagle/detail/measure.hpp>
#include <eagle/detail/region.hpp>
#include <eagle/ladder.hpp>
#include <eagle/status.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace eagle {
namespace detail {

/// `large` samples copied round-robin from `from` (the run's own), so the probe steps real states.
template <class ExecSpace, class T, class Mem>
Kokkos::View<T*, Mem> probe_copy(const ExecSpace& exec, const Kokkos::View<const T*, Mem>& from, std::int64_t large) {
  const Kokkos::View<T*, Mem> to(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::probe_copy"), large);
  const auto n = static_cast<std::int64_t>(from.extent(0));
  Kokkos::parallel_for(
      "eagle::probe_copy", IndexRange<ExecSpace>(exec, 0, large),
      KOKKOS_LAMBDA(const std::int64_t i) { to(i) = from(i % n); });
  return to;
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

/// Samples in the smaller of a rung's two probe sizes (the larger is eight times as many): twice the
/// space's concurrency at least (a GPU's time is flat below it), and past rung 8 fewer, so every
/// rung's probe does about the same work.
inline std::int64_t probe_samples(std::int64_t concurrency, int rung) {
  constexpr std::int64_t work = std::int64_t(1) << 17;  // sample-steps of the smaller probe
  return std::max({2 * concurrency, std::int64_t(1) << 11, work / std::max(rung, 8)});
}

template <class ExecSpace, class Model, class Mem>
LaunchCosts measure_launch_costs(const Launcher<ExecSpace, Model, Mem>& run) {
  const Region region("eagle::measure_launch_costs");
  using T = typename ModelTraits<Model>::scalar_type;
  constexpr int NS = ModelTraits<Model>::state_count;
  constexpr int NI = ModelTraits<Model>::input_count;
  constexpr std::int64_t cap = std::int64_t(1) << 40;
  const ExecSpace& exec = run.exec;
  const auto concurrency = static_cast<std::int64_t>(exec.concurrency());
  const std::int64_t large = 8 * probe_samples(concurrency, 1);

  Launcher<ExecSpace, Model, Mem> probe = run;
  probe.max_steps = cap;
  Fields<T, NS, Mem> start;
  for (int f = 0; f < NS; ++f) {
    start.planes[f] = probe_copy<ExecSpace, T, Mem>(exec, run.state.planes[f], large);
    probe.state.planes[f] =
        Kokkos::View<T*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::probe"), large);
  }
  for (int f = 0; f < NI; ++f)
    probe.inputs.planes[f] = probe_copy<ExecSpace, T, Mem>(exec, run.inputs.planes[f], large);
  probe.book = probe_bookkeeping<Mem>(large);

  const auto reset = [&](ProbeStart how) {
    return [&, how](std::int64_t) { probe_reset(exec, probe.state, start, probe.book, how, cap); };
  };
  const auto steps = [&](std::int64_t k) {
    return [&, k](std::int64_t n) { static_cast<void>(probe({{}, {}, n}, k, false)); };
  };
  const auto full_rung = [&](int rung) {  // a sample's launch on the rung, from its cost per step taken
    const std::int64_t small = probe_samples(concurrency, rung);
    const double seconds_small = best_seconds(exec, small, steps(rung), reset(ProbeStart::running));
    const double steps_small = probe_steps_taken(exec, probe.book, small);
    const double seconds_large = best_seconds(exec, 8 * small, steps(rung), reset(ProbeStart::running));
    const double steps_large = probe_steps_taken(exec, probe.book, 8 * small);
    return std::max(0.0, (seconds_large - seconds_small) / std::max(1.0, steps_large - steps_small)) * rung;
  };

  LaunchCosts c;
  for (int i = 0; i < rung_count; ++i) c.per_sample_seconds[i] = full_rung(1 << i);
  const std::int64_t small = probe_samples(concurrency, 8);
  const double half_capped = slope(exec, small, 8 * small, steps(8), reset(ProbeStart::half_capped));
  c.masked_step_seconds =
      std::max(0.0, (2.0 * half_capped - c.per_sample_seconds[rung_index(8)] - c.per_sample_seconds[0]) / 7.0);
  c.finished_sample_seconds = slope(exec, small, 8 * small, steps(1), reset(ProbeStart::finished));
  constexpr std::int64_t tiny = 256;
  c.fixed_seconds = std::max(0.0, best_seconds(exec, tiny, steps(1), reset(ProbeStart::running)) -
                                      static_cast<double>(tiny) * c.per_sample_seconds[0]);
  c.measured = true;
  return c;
}

}  // namespace detail

/// The launch costs of `Model` on `ExecSpace` for one sample per work item, measured on first use
/// and kept for the process (a few milliseconds).
template <class ExecSpace, class Model, class Mem>
const LaunchCosts& launch_costs(const detail::Launcher<ExecSpace, Model, Mem>& run) {
  static const LaunchCosts measured = detail::measure_launch_costs(run);
  return measured;
}

}  // namespace eagle
