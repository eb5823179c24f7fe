#pragma once
// eagle::simulate::measure: runs arms against batches on one execution space within a time
// budget and keeps every timing. The function behind eagle-simulate (main.cpp); a template on the
// execution space, so the tests run it on each backend they build.

#include <baselines/hand_limit.hpp>
#include <baselines/naive_kokkos.hpp>
#if defined(EAGLE_SIMULATE_HAS_ODEINT)
#include <baselines/odeint_lorenz.hpp>
#endif
#include <eagle/simulate/results.hpp>

#include <eagle/eagle.hpp>
#include <eagle/kernels/lorenz.hpp>
#include <eagle/kernels/oscillator.hpp>
#include <eagle/kernels/spread_batches.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace eagle::simulate {

/// A batch's planes in Space's memory, and the host values every run starts from.
template <class Space>
struct Batch {
  using Plane = Kokkos::View<double*, typename Space::memory_space>;

  /// The part [part.begin, part.end) of the batch `s` (all of it by default).
  explicit Batch(const BatchSpec& s, const Partition& part_) : spec(s), part(part_), done("done", part_.size()) {
    const std::vector<double> lengths = lengths_of(s);
    const auto n = static_cast<std::size_t>(part.size());
    sample_steps = 0;
    std::vector<double> sweep(n), ends(n);
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t i = j + static_cast<std::size_t>(part.begin);  // the global sample
      sweep[j] = s.model == Model::lorenz ? 20.0 + static_cast<double>(i % 1000) / 50.0
                                          : 1.0 + 2.0 * static_cast<double>(i % 1000) / 999.0;
      ends[j] = (lengths[i] - 0.5) * dt;
      sample_steps += lengths[i];
    }
    initial = s.model == Model::lorenz
                  ? std::vector<std::vector<double>>{std::vector<double>(n, 1.0), std::vector<double>(n, 1.0),
                                                     std::vector<double>(n, 1.0), std::vector<double>(n, 0.0)}
                  : std::vector<std::vector<double>>{std::vector<double>(n, 1.0), std::vector<double>(n, 0.0),
                                                     std::vector<double>(n, 0.0)};
    for (std::size_t f = 0; f < initial.size(); ++f) state.push_back(Plane("state", n));
    inputs = {to_plane(sweep), to_plane(ends)};
    reset();
  }

  void reset() const {
    for (std::size_t f = 0; f < initial.size(); ++f) {
      const auto host = Kokkos::create_mirror_view(state[f]);
      std::copy(initial[f].begin(), initial[f].end(), host.data());
      Kokkos::deep_copy(state[f], host);
    }
    Kokkos::deep_copy(done, false);
    Kokkos::fence();
  }

  /// CRC-32 of the whole batch's state planes, gathered in the global sample order: equal for runs
  /// with bit-identical per-sample results, whatever the ranks.
  std::uint32_t checksum(const Collective& job) const {
    std::uint32_t crc = 0;
    for (const Plane& p : state) {
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
      const std::vector<double> all = job.gather(std::vector<double>(host.data(), host.data() + host.extent(0)));
      crc = crc32(reinterpret_cast<const unsigned char*>(all.data()), all.size() * sizeof(double), crc);
    }
    return crc;
  }

  static Plane to_plane(const std::vector<double>& values) {
    Plane p("input", values.size());
    const auto host = Kokkos::create_mirror_view(p);
    std::copy(values.begin(), values.end(), host.data());
    Kokkos::deep_copy(p, host);
    return p;
  }

  BatchSpec spec;
  Partition part;
  double sample_steps = 0;  ///< of this part
  std::vector<std::vector<double>> initial;
  std::vector<Plane> state;
  std::vector<Plane> inputs;  ///< the sweep (omega or rho), then each sample's end time
  Kokkos::View<bool*, typename Space::memory_space> done;
};

/// Whether `arm` can run `batch` on Space (and in this build), and if not, why.
template <class Space>
Skip why_not(const std::string& arm, const BatchSpec& batch) {
  const ArmInfo& info = arm_info(arm);
  if (batch.model == Model::lorenz ? !info.lorenz : !info.oscillator) return Skip::other_model;
  constexpr bool host = std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value;
  if (!host && info.host_only) return Skip::host_only;
#if !defined(EAGLE_SIMULATE_HAS_ODEINT)
  if (info.kind == ArmKind::odeint) return Skip::no_odeint;
#endif
  return Skip::none;
}

namespace detail {

template <class Space, class Model, std::size_t... S>
Report run_eagle(const Batch<Space>& b, const Deployed<Model>& d, const RunOptions& o, std::index_sequence<S...>) {
  if constexpr (Model::input_count == 2) {
    return run_until_done(Space(), d, eagle::state(b.state[S]...), eagle::inputs(b.inputs[0], b.inputs[1]), max_steps,
                          o);
  } else {
    return run_until_done(Space(), d, eagle::state(b.state[S]...), eagle::inputs(b.inputs[0]), max_steps, o);
  }
}

template <class Space, class Model>
Report run_eagle_arm(const ArmInfo& arm, const Batch<Space>& b, const Model& model) {
  RunOptions o;
  o.compaction = arm.compacts ? Compaction::automatic : Compaction::off;
  o.in_flight = arm.in_flight;
  const Steps steps = arm.steps > 0 ? Steps::fixed(arm.steps) : Steps::automatic();
  const LoopNest nest = arm.tile ? LoopNest::tile : LoopNest::per_sample;
  return run_eagle(b, deploy(model, steps, nest), o, std::make_index_sequence<Model::state_count>{});
}

}  // namespace detail

/// Runs `arm` once on `b` (reset first; every rank its part, started together); the caller
/// checked why_not. Times are the slowest rank's, work summed, launches the most any rank made.
template <class Space>
ArmRun run_arm(const std::string& arm, const Batch<Space>& b, const Collective& job = {}) {
  b.reset();
  ArmRun r;
  job.barrier();
  Kokkos::Timer timer;
  const auto n = static_cast<double>(b.part.size());
  const ArmInfo& info = arm_info(arm);
  if (info.kind == ArmKind::naive) {
    using Plane = typename Batch<Space>::Plane;
    const std::int64_t steps = perf::naive_model(Space(), kernels::OscillatorUntil{dt},
                                                 std::array<Plane, 3>{b.state[0], b.state[1], b.state[2]},
                                                 std::array<Plane, 2>{b.inputs[0], b.inputs[1]}, b.done, max_steps);
    r.seconds = timer.seconds();
    r.features = {2.0 * static_cast<double>(steps), b.sample_steps, n * static_cast<double>(steps), 0};
    r.launches_by_k[1] = steps;
  } else if (info.kind == ArmKind::hand_simd) {
    if constexpr (std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value) {
      perf::limit_oscillator(b.state[0], b.state[1], b.state[2], b.inputs[0], 0.0, b.inputs[1], dt, max_steps);
      r.seconds = timer.seconds();
      r.features = {1, b.sample_steps, b.sample_steps, 0};
    }
  } else if (info.kind == ArmKind::odeint) {
#if defined(EAGLE_SIMULATE_HAS_ODEINT)
    if constexpr (std::is_same<typename Space::memory_space, Kokkos::HostSpace>::value) {
      const auto count = static_cast<std::size_t>(b.part.size());
      std::vector<double> xyz(3 * count);
      std::vector<double> rho(b.inputs[0].data(), b.inputs[0].data() + count);
      for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t f = 0; f < 3; ++f) xyz[3 * i + f] = b.state[f](i);
      }
      timer.reset();
      perf::odeint_lorenz(xyz, rho, dt, lorenz_steps);
      r.seconds = timer.seconds();
      for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t f = 0; f < 3; ++f) b.state[f](i) = xyz[3 * i + f];
        b.state[3](i) = static_cast<double>(lorenz_steps) * dt;
      }
      r.features = {static_cast<double>(lorenz_steps), b.sample_steps, b.sample_steps, 0};
    }
#endif
  } else {
    const Report rep = b.spec.model == Model::lorenz
                           ? detail::run_eagle_arm(info, b, kernels::Lorenz{{10.0, 8.0 / 3.0}, dt, lorenz_steps * dt})
                           : detail::run_eagle_arm(info, b, kernels::OscillatorUntil{dt});
    r.seconds = timer.seconds();
    r.features = {static_cast<double>(rep.launches), static_cast<double>(rep.sample_steps),
                  static_cast<double>(rep.lane_steps), static_cast<double>(rep.scanned_slots)};
    r.launches_by_k = rep.launches_by_k;
    r.launch_costs = rep.launch_costs ? describe(*rep.launch_costs) : std::string();
  }
  r.seconds = job.max(r.seconds);
  r.features = {job.max(r.features.launches), job.sum(r.features.sample_steps), job.sum(r.features.lane_steps),
                job.sum(r.features.scanned_slots)};
  r.launches_by_k = job.sum_counts(r.launches_by_k);
  r.checksum = b.checksum(job);
  return r;
}

/// Runs every (batch, arm) once, smallest batches first, then repeats them while the budget lasts,
/// up to max_repetitions each; `progress` (may be null) gets a line per run.
template <class Space>
Results measure(const Options& o, std::FILE* progress, const Collective& job = {}) {
  Results res;
  res.batches = o.batches;
  res.budget_seconds = o.budget_seconds;
  res.execution_space = Space::name();
  res.ranks = job.ranks;
  std::vector<std::size_t> order(o.batches.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return o.batches[a].n < o.batches[b].n; });
  for (std::size_t b : order) {
    for (const std::string& arm : o.arms) {
      Cell c;
      c.batch = b;
      c.arm = arm;
      c.skipped = why_not<Space>(arm, o.batches[b]);
      if (c.skipped != Skip::other_model) res.cells.push_back(c);
    }
  }
  const std::size_t runnable = static_cast<std::size_t>(
      std::count_if(res.cells.begin(), res.cells.end(), [](const Cell& c) { return c.skipped == Skip::none; }));

  // Untimed: each arm once on a small spread batch of each model, so that first-run costs (thread
  // start-up, the compaction rule measuring its constants) stay out of the measurements.
  for (Model model : {Model::oscillator, Model::lorenz}) {
    const BatchSpec warm{model, 512, model == Model::lorenz ? 1 : 1000};
    const Batch<Space> batch(warm, Partition::balanced(job.rank, job.ranks, warm.n));
    for (const std::string& arm : o.arms) {
      if (why_not<Space>(arm, warm) == Skip::none) run_arm(arm, batch, job);
    }
  }

  Kokkos::Timer clock;
  std::map<std::size_t, Batch<Space>> batches;
  std::size_t done_runs = 0;
  for (int pass = 0; pass < o.max_repetitions; ++pass) {
    bool ran = false;
    for (Cell& c : res.cells) {
      if (c.skipped != Skip::none || static_cast<int>(c.seconds.size()) != pass) continue;
      const double left = o.budget_seconds - clock.seconds();
      // The first pass runs while any budget is left; later ones only runs that fit in what is
      // left. Rank 0's clock decides for every rank.
      if (!job.agree(!(left <= 0 || (pass > 0 && c.median() > left)))) continue;
      auto it = batches.find(c.batch);
      if (it == batches.end()) {
        const BatchSpec& spec = o.batches[c.batch];
        it = batches.emplace(c.batch, Batch<Space>(spec, Partition::balanced(job.rank, job.ranks, spec.n))).first;
      }
      if (progress != nullptr && job.rank == 0) {
        std::fprintf(progress, "[run %zu, pass %d] %-22s %-15s (%zu arm-batch pairs, %.1f s of %.0f s left)\n",
                     ++done_runs, pass + 1, o.batches[c.batch].name().c_str(), c.arm.c_str(), runnable, left,
                     o.budget_seconds);
        std::fflush(progress);
      }
      c.last = run_arm(c.arm, it->second, job);
      c.seconds.push_back(c.last.seconds);
      ran = true;
    }
    if (!ran) break;
  }
  for (Cell& c : res.cells) {
    if (c.skipped == Skip::none && c.seconds.empty()) c.skipped = Skip::out_of_time;
  }
  res.elapsed_seconds = clock.seconds();
  return res;
}

}  // namespace eagle::simulate
