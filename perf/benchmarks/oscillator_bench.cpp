// The oscillator (dt = 1e-3) on the host's default execution space, on three batches: uniform
// (every sample 1000 steps), spread-100 and spread-1000 (each sample its own length, log-uniform
// over 10 to 1000 and 1 to 1000 steps). Arms: A, naive Kokkos (a parallel_for and a parallel_reduce
// per step); B, the limit (hand code for this ISA, perf/baselines/hand_limit.hpp); plain, the
// run-to-completion block loop of hand vectors (uniform batches only: the guard on B); C, the loop
// a user writes first (each sample run to completion in one parallel_for); eagle's per-sample nest
// at k=1, k=16 and auto; eagle's tile. After the runs, the tile's and k=1's medians against the
// others, per batch and n, and a warning wherever plain beats B by more than 3 % (B is then not
// the limit).
//
//   eagle-bench-oscillator --benchmark_repetitions=5 --benchmark_out=oscillator.json

#include <baselines/hand_limit.hpp>
#include <baselines/naive_kokkos.hpp>
#include <baselines/run_to_completion.hpp>
#include "bench_context.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/oscillator.hpp>
#include <eagle/kernels/spread_batches.hpp>

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
using Plane = Kokkos::View<double*, Kokkos::HostSpace>;
constexpr double dt = 1e-3;
constexpr std::int64_t max_steps = 10000;
constexpr std::int64_t ns[] = {100000, 1000000};  ///< the batch sizes of every batch's rows

/// The seed's batch, rebuilt before every timed run; `spread`: the end times' spread.
struct Batch {
  Batch(std::int64_t n, eagle::kernels::Spread spread)
      : spread(spread), x("x", n), v("v", n), t("t", n), omega("omega", n), ends("t_end", n), done("done", n) {
    const std::vector<double> lengths =
        eagle::kernels::sample_lengths(spread, n, 1000.0 / static_cast<int>(spread), 11);
    for (std::int64_t i = 0; i < n; ++i) {
      omega(i) = 1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
      ends(i) = spread == eagle::kernels::Spread::uniform ? 1.0 : (lengths[static_cast<std::size_t>(i)] - 0.5) * dt;
    }
    reset();
  }
  void reset() {
    Kokkos::deep_copy(x, 1.0);
    Kokkos::deep_copy(v, 0.0);
    Kokkos::deep_copy(t, 0.0);
    Kokkos::deep_copy(done, false);
    Kokkos::fence();
  }
  bool uniform() const { return spread == eagle::kernels::Spread::uniform; }
  eagle::kernels::Spread spread;
  Plane x, v, t, omega, ends;
  Kokkos::View<bool*, Kokkos::HostSpace> done;
};

enum class Arm { naive, limit, plain, run_to_completion, k1, k16, auto_per_sample, tile };
const std::map<Arm, const char*> arm_names = {{Arm::naive, "A_naive_kokkos"},
                                              {Arm::limit, "B_limit"},
                                              {Arm::plain, "plain"},
                                              {Arm::run_to_completion, "C_run_to_completion"},
                                              {Arm::k1, "eagle_k1"},
                                              {Arm::k16, "eagle_k16"},
                                              {Arm::auto_per_sample, "eagle_auto"},
                                              {Arm::tile, "eagle_tile"}};

template <class Model, class Inputs>
eagle::Report run_eagle(Arm arm, const Model& model, const Inputs& inputs, Batch& b) {
  const auto state = eagle::state(b.x, b.v, b.t);
  const auto per_sample = eagle::LoopNest::per_sample;
  switch (arm) {
    case Arm::k1:
      return eagle::run_until_done(Space(), eagle::deploy(model, 1, per_sample), state, inputs, max_steps);
    case Arm::k16:
      return eagle::run_until_done(Space(), eagle::deploy(model, 16, per_sample), state, inputs, max_steps);
    case Arm::auto_per_sample:
      return eagle::run_until_done(Space(), eagle::deploy(model, eagle::Steps::automatic(), per_sample), state, inputs,
                                   max_steps);
    default:
      return eagle::run_until_done(Space(), eagle::deploy(model, eagle::Steps::automatic()), state, inputs, max_steps);
  }
}

/// Calls `call(model, input planes...)` with the model every arm but the limit runs on this batch:
/// the oscillator on uniform batches, the one with a per-sample end time on spread ones.
template <class Call>
void with_batch_model(const Batch& b, Call&& call) {
  if (b.uniform())
    call(eagle::kernels::Oscillator{1.0, dt}, b.omega);
  else
    call(eagle::kernels::OscillatorUntil{dt}, b.omega, b.ends);
}

eagle::Report run_arm(Arm arm, Batch& b) {
  eagle::Report report;
  switch (arm) {
    case Arm::naive:
      with_batch_model(b, [&](const auto& model, const auto&... in) {
        eagle::perf::naive_model(Space(), model, std::array<Plane, 3>{b.x, b.v, b.t},
                                 std::array<Plane, sizeof...(in)>{in...}, b.done, max_steps);
      });
      break;
    case Arm::run_to_completion:
      with_batch_model(b, [&](const auto& model, const auto&... in) {
        eagle::perf::run_to_completion(Space(), model, std::array<Plane, 3>{b.x, b.v, b.t},
                                       std::array<Plane, sizeof...(in)>{in...}, max_steps);
      });
      break;
    case Arm::plain:
      eagle::perf::plain_oscillator(b.x, b.v, b.t, b.omega, 1.0, dt, max_steps);
      break;
    case Arm::limit:
      eagle::perf::limit_oscillator(b.x, b.v, b.t, b.omega, 1.0, b.uniform() ? Plane() : b.ends, dt, max_steps);
      break;
    default:
      with_batch_model(
          b, [&](const auto& model, const auto&... in) { report = run_eagle(arm, model, eagle::inputs(in...), b); });
  }
  return report;
}

void bench(benchmark::State& st, Arm arm, eagle::kernels::Spread spread) {
  const std::int64_t n = st.range(0);
  Batch b(n, spread);
  eagle::Report report;
  for (auto _ : st) {
    st.PauseTiming();
    b.reset();
    st.ResumeTiming();
    report = run_arm(arm, b);
    Kokkos::fence();
  }
  if (report.launches > 0) {
    st.counters["launches"] = static_cast<double>(report.launches);
    st.counters["tile_lanes"] = static_cast<double>(report.tile_lanes);
  }
}

/// The tile with a fixed K per launch, n = 10^5: how long K must be for launches to cost under 1 %
/// of the run (tile_steps_per_launch).
void bench_tile_k(benchmark::State& st) {
  Batch b(100000, eagle::kernels::Spread::uniform);
  const eagle::kernels::Oscillator model{1.0, dt};
  eagle::Report report;
  for (auto _ : st) {
    st.PauseTiming();
    b.reset();
    st.ResumeTiming();
    report = eagle::run_until_done(Space(), eagle::deploy(model, st.range(0)), eagle::state(b.x, b.v, b.t),
                                   eagle::inputs(b.omega), max_steps);
  }
  st.counters["launches"] = static_cast<double>(report.launches);
}

const eagle::kernels::Spread spreads[] = {eagle::kernels::Spread::uniform, eagle::kernels::Spread::x100,
                                          eagle::kernels::Spread::x1000};

/// Whether `arm` runs on batches of `spread`: the plain loop has no refill, for uniform ones only.
bool runs_on(Arm arm, eagle::kernels::Spread spread) {
  return arm != Arm::plain || spread == eagle::kernels::Spread::uniform;
}

/// Says so wherever the plain loop beats B by more than 3 %: then B is not the limit.
void check_limit(const eagle::perf::RatioReporter& reporter) {
  for (std::int64_t n : ns) {
    const std::string arg = std::to_string(n);
    const double plain = reporter.median("uniform/plain", arg), limit = reporter.median("uniform/B_limit", arg);
    if (plain <= 0.0 || limit <= 0.0) continue;
    if (plain * 1.03 < limit)
      std::printf("\neagle-bench-oscillator: B IS NOT THE LIMIT at uniform/%s: plain %.2f ms, B %.2f ms (%.2fx)\n",
                  arg.c_str(), plain, limit, limit / plain);
    else
      std::printf("\nuniform/%s: B %.2f ms, plain %.2f ms: plain / B = %.2f (B holds the limit)\n", arg.c_str(), limit,
                  plain, plain / limit);
  }
}

/// All arms must compute the same numbers: each once on small batches against eagle_k1.
bool arms_agree(bool to_rounding) {
  bool ok = true;
  for (auto spread : spreads) {
    Batch reference(4099, spread);
    run_arm(Arm::k1, reference);
    for (const auto& [arm, name] : arm_names) {
      if (!runs_on(arm, spread)) continue;
      Batch b(4099, spread);
      run_arm(arm, b);
      eagle::perf::Agreement agreement;
      for (auto [mine, theirs] :
           {std::pair{b.x, reference.x}, std::pair{b.v, reference.v}, std::pair{b.t, reference.t}}) {
        for (std::int64_t i = 0; i < 4099; ++i) agreement.compare(mine(i), theirs(i));
      }
      ok = agreement.check("eagle-bench-oscillator",
                           std::string(name) + " vs eagle_k1, " + eagle::kernels::describe(spread), to_rounding) &&
           ok;
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
  const eagle::perf::BenchmarkProcess process(argc, argv);
  bool to_rounding = true;
  const bool only_check = eagle::perf::check_only(argc, argv, to_rounding);
  if (!arms_agree(to_rounding)) return 1;
  if (only_check) {
    std::printf("eagle-bench-oscillator: every arm agrees with eagle_k1 %s (%s)\n",
                to_rounding ? "to rounding" : "bit for bit", eagle::native_isa().c_str());
    return 0;
  }
  eagle::perf::add_context();
  for (auto spread : spreads) {
    for (std::int64_t n : ns) {
      for (const auto& [arm, name] : arm_names) {
        if (!runs_on(arm, spread)) continue;
        benchmark::RegisterBenchmark((std::string(eagle::kernels::describe(spread)) + "/" + name).c_str(), bench, arm,
                                     spread)
            ->Arg(n)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
  benchmark::RegisterBenchmark("uniform/eagle_tile_fixed_k/100000", bench_tile_k)
      ->RangeMultiplier(4)
      ->Range(16, 1024)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  eagle::perf::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (auto spread : spreads) {
    const std::string b = std::string(eagle::kernels::describe(spread)) + "/";
    reporter.print_ratios(b + "eagle_tile", {b + "B_limit", b + "plain", b + "A_naive_kokkos",
                                             b + "C_run_to_completion", b + "eagle_auto"});
    reporter.print_ratios(b + "eagle_auto", {b + "C_run_to_completion"});
    reporter.print_ratios(b + "eagle_k1", {b + "A_naive_kokkos"});
  }
  check_limit(reporter);
  benchmark::Shutdown();
  return 0;
}
