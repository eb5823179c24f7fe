// Finished samples on the host's default execution space: what compaction, reorder and revival buy
// (or cost) on uniform and spread batches of the oscillator with per-sample end times. Uniform:
// every sample 1000 steps; spread-100 and spread-1000: 10 .. 1000 and 10 .. 10000 steps,
// log-uniform. After the runs, each arm's median against "off" in the same run, and the bytes per
// sample of the maps beside the planes.
//
//   eagle-bench-compaction --benchmark_repetitions=3 --benchmark_out=compaction.json

#include "bench_context.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/oscillator.hpp>
#include <eagle/kernels/spread_batches.hpp>

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
using Plane = Kokkos::View<double*, Kokkos::HostSpace>;
using eagle::kernels::OscillatorUntil;
using eagle::kernels::Spread;
constexpr double dt = 1e-3;

struct Batch {
  Batch(Spread spread, std::int64_t n) : x("x", n), v("v", n), t("t", n), omega("omega", n), t_end("t_end", n) {
    const double base = spread == Spread::uniform ? 1000.0 : 10.0;
    const std::vector<double> lengths = eagle::kernels::sample_lengths(spread, n, base, 7);
    for (std::int64_t i = 0; i < n; ++i) {
      omega(i) = 1.0 + 2.0 * static_cast<double>(i % 1000) / 999.0;
      t_end(i) = (lengths[i] - 0.5) * dt;
    }
  }
  void reset() const {
    Kokkos::deep_copy(x, 1.0);
    Kokkos::deep_copy(v, 0.0);
    Kokkos::deep_copy(t, 0.0);
    Kokkos::fence();
  }
  Plane x, v, t, omega, t_end;
};

struct Arm {
  std::string name;
  eagle::LoopNest nest;
  eagle::Compaction compaction;
  std::int64_t in_flight;
};

const std::vector<Arm> arms = {
    {"tile_off", eagle::LoopNest::tile, eagle::Compaction::off, 0},
    {"tile_auto", eagle::LoopNest::tile, eagle::Compaction::automatic, 0},
    {"tile_map", eagle::LoopNest::tile, eagle::Compaction::map, 0},
    {"tile_reorder", eagle::LoopNest::tile, eagle::Compaction::reorder, 0},
    {"tile_revive", eagle::LoopNest::tile, eagle::Compaction::automatic, 1 << 16},
    {"per_sample_off", eagle::LoopNest::per_sample, eagle::Compaction::off, 0},
    {"per_sample_auto", eagle::LoopNest::per_sample, eagle::Compaction::automatic, 0},
    {"per_sample_map", eagle::LoopNest::per_sample, eagle::Compaction::map, 0},
    {"per_sample_reorder", eagle::LoopNest::per_sample, eagle::Compaction::reorder, 0},
};

void bench(benchmark::State& st, const Arm& arm, Spread spread) {
  const Batch batch(spread, st.range(0));
  eagle::RunOptions options;
  options.compaction = arm.compaction;
  options.in_flight = arm.in_flight;
  const auto deployed = eagle::deploy(OscillatorUntil{dt}, eagle::Steps::automatic(), arm.nest);
  eagle::Report r;
  std::int64_t work = 0;
  for (auto _ : st) {
    st.PauseTiming();
    batch.reset();
    st.ResumeTiming();
    r = eagle::run_until_done(Space(), deployed, eagle::state(batch.x, batch.v, batch.t),
                              eagle::inputs(batch.omega, batch.t_end), 100000, options);
    work += r.sample_steps;
  }
  const auto n = static_cast<double>(st.range(0));
  st.counters["sample_steps_per_s"] = benchmark::Counter(static_cast<double>(work), benchmark::Counter::kIsRate);
  st.counters["extra_bytes_per_sample"] = static_cast<double>(r.extra_bytes_peak) / n;
  st.counters["maps"] = static_cast<double>(r.compaction_actions["map"]);
  st.counters["reorders"] = static_cast<double>(r.compaction_actions["reorder"]);
  st.counters["launches"] = static_cast<double>(r.launches);
}

}  // namespace

int main(int argc, char* argv[]) {
  const eagle::perf::BenchmarkProcess process(argc, argv);
  eagle::perf::add_context();
  for (Spread spread : {Spread::uniform, Spread::x100, Spread::x1000}) {
    for (const Arm& arm : arms) {
      benchmark::RegisterBenchmark((arm.name + "/" + eagle::kernels::describe(spread)).c_str(), bench, arm, spread)
          ->RangeMultiplier(10)
          ->Range(1000, 1000000)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  {
    // Measure the automatic rule's costs before the clock runs (once per process and loop nest).
    const Batch warm(Spread::x1000, 64);
    for (auto nest : {eagle::LoopNest::tile, eagle::LoopNest::per_sample}) {
      warm.reset();
      eagle::run_until_done(Space(), eagle::deploy(OscillatorUntil{dt}, eagle::Steps::automatic(), nest),
                            eagle::state(warm.x, warm.v, warm.t), eagle::inputs(warm.omega, warm.t_end), 100000);
    }
  }
  eagle::perf::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (Spread spread : {Spread::uniform, Spread::x100, Spread::x1000}) {
    const std::string s = std::string("/") + eagle::kernels::describe(spread);
    for (const char* nest : {"tile", "per_sample"}) {
      std::vector<std::string> others;
      for (const Arm& arm : arms) {
        if (arm.name.rfind(nest, 0) == 0 && arm.name != std::string(nest) + "_off") others.push_back(arm.name + s);
      }
      reporter.print_ratios(std::string(nest) + "_off" + s, others);
    }
  }
  benchmark::Shutdown();
  return 0;
}
