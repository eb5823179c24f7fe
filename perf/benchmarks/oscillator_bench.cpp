// The oscillator (dt = 1e-3, t_end = 1: 1000 steps) on the host's default execution space:
// baseline A (naive Kokkos), baseline B (hand SIMD limit), and eagle's arms. After the runs, the
// ratios the policies issue asks for are printed from the same run's medians.
//
//   eagle-bench-oscillator --benchmark_repetitions=5 --benchmark_out=oscillator.json

#include "../baselines/hand_simd.hpp"
#include "../baselines/naive_kokkos.hpp"
#include "../process/thread_binding.hpp"
#include "bench_context.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/oscillator.hpp>

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
using Plane = Kokkos::View<double*, Kokkos::HostSpace>;
constexpr double t_end = 1.0;
constexpr double dt = 1e-3;
constexpr std::int64_t max_steps = 10000;

/// The seed's batch, rebuilt before every timed run.
struct Batch {
  explicit Batch(std::int64_t n)
      : x("x", n), v("v", n), t("t", n), omega("omega", n), ends("t_end", n), done("done", n) {
    Kokkos::deep_copy(ends, t_end);  // baseline A reads each sample's end time
    auto w = omega;
    Kokkos::parallel_for("bench::omega", Kokkos::RangePolicy<Space>(0, n), [=](const std::int64_t i) {
      w(i) = 1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    });
    reset();
  }
  void reset() {
    Kokkos::deep_copy(x, 1.0);
    Kokkos::deep_copy(v, 0.0);
    Kokkos::deep_copy(t, 0.0);
    Kokkos::deep_copy(done, false);
    Kokkos::fence();
  }
  Plane x, v, t, omega, ends;
  Kokkos::View<bool*, Kokkos::HostSpace> done;
};

enum class Arm { naive, hand, k1, k16, auto_per_sample, tile };
const std::map<Arm, const char*> arm_names = {
    {Arm::naive, "A_naive_kokkos"}, {Arm::hand, "B_hand_simd"},           {Arm::k1, "eagle_k1"},
    {Arm::k16, "eagle_k16"},        {Arm::auto_per_sample, "eagle_auto"}, {Arm::tile, "eagle_tile"}};

eagle::Report run_arm(Arm arm, Batch& b) {
  const eagle::kernels::Oscillator model{t_end, dt};
  const auto state = eagle::state(b.x, b.v, b.t);
  const auto inputs = eagle::inputs(b.omega);
  switch (arm) {
    case Arm::naive:
      eagle::perf::naive_oscillator(Space(), b.x, b.v, b.t, Plane::const_type(b.omega), Plane::const_type(b.ends),
                                    b.done, dt, max_steps);
      return {};
    case Arm::hand:
      eagle::perf::hand_simd_oscillator(b.x, b.v, b.t, b.omega, t_end, {}, dt, max_steps);
      return {};
    case Arm::k1:
      return eagle::run_until_done(Space(), eagle::deploy(model, 1, eagle::LoopNest::per_sample), state, inputs,
                                   max_steps);
    case Arm::k16:
      return eagle::run_until_done(Space(), eagle::deploy(model, 16, eagle::LoopNest::per_sample), state, inputs,
                                   max_steps);
    case Arm::auto_per_sample:
      return eagle::run_until_done(Space(),
                                   eagle::deploy(model, eagle::Steps::automatic(), eagle::LoopNest::per_sample), state,
                                   inputs, max_steps);
    case Arm::tile:
      return eagle::run_until_done(Space(), eagle::deploy(model, eagle::Steps::automatic()), state, inputs, max_steps);
  }
  return {};
}

void bench(benchmark::State& st, Arm arm) {
  const std::int64_t n = st.range(0);
  Batch b(n);
  eagle::Report report;
  for (auto _ : st) {
    st.PauseTiming();
    b.reset();
    st.ResumeTiming();
    report = run_arm(arm, b);
    Kokkos::fence();
  }
  st.counters["sample_steps_per_s"] = benchmark::Counter(
      static_cast<double>(n) * 1000.0 * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  if (report.launches > 0) {
    st.counters["launches"] = static_cast<double>(report.launches);
    st.counters["tile_lanes"] = static_cast<double>(report.tile_lanes);
  }
}

/// All arms must compute the same numbers: run each once on a small batch and compare bit for bit.
bool arms_agree() {
  Batch reference(4096);
  run_arm(Arm::k1, reference);
  bool ok = true;
  for (const auto& [arm, name] : arm_names) {
    Batch b(4096);
    run_arm(arm, b);
    for (auto [mine, theirs] :
         {std::pair{b.x, reference.x}, std::pair{b.v, reference.v}, std::pair{b.t, reference.t}}) {
      if (std::memcmp(mine.data(), theirs.data(), sizeof(double) * 4096) != 0) {
        std::fprintf(stderr, "eagle-bench-oscillator: arm %s disagrees with eagle_k1\n", name);
        ok = false;
      }
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
  eagle::perf::bind_threads_by_default(argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (!arms_agree()) return 1;
  eagle::perf::add_context();
  for (std::int64_t n : {100000, 1000000}) {
    for (const auto& [arm, name] : arm_names) {
      benchmark::RegisterBenchmark(name, bench, arm)->Arg(n)->Unit(benchmark::kMillisecond)->UseRealTime();
    }
  }
  eagle::perf::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios("eagle_tile", {"A_naive_kokkos", "B_hand_simd", "eagle_k1", "eagle_k16", "eagle_auto"});
  benchmark::Shutdown();
  return 0;
}
