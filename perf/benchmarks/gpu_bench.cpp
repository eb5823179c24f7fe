// The seed's question on the default execution space (the GPU where Kokkos has one): sample-steps
// per second for the Lorenz rho-sweep in double and in float and for an oscillator batch whose
// samples need 100 to 10^4 steps, with K = 1, K = 16 and auto, compaction automatic and off, beside
// A, naive Kokkos (a launch per step), and C, one thread per sample run to completion (how GPU
// ensemble codes are written by hand). Also the cost of one empty launch. Every arm's final states
// are compared with C's before anything is timed.
//
//   eagle-bench-gpu --sizes=100000,1000000,10000000 --svg=gpu.svg --benchmark_out=gpu.json
//   eagle-bench-gpu --budget=120      rows that would start after 120 s are skipped, named in the JSON
//   eagle-bench-gpu --check-only      the comparison alone (CI)

#include <baselines/naive_kokkos.hpp>
#include <baselines/run_to_completion.hpp>
#include <plots/bar_chart.hpp>
#include "bench_context.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/lorenz.hpp>
#include <eagle/kernels/oscillator.hpp>
#include <eagle/kernels/spread_batches.hpp>

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Clock = std::chrono::steady_clock;
constexpr std::int64_t max_steps = 1000000;

/// Rows that would start after this are skipped (--budget): Google Benchmark writes its JSON only
/// at the end, so a run cut from outside would leave none.
Clock::time_point deadline = Clock::time_point::max();

/// False, and the row marked skipped, once the budget is spent.
bool within_budget(benchmark::State& st) {
  if (Clock::now() < deadline) return true;
  st.SkipWithError("skipped: the run's --budget was spent");
  return false;
}

/// A model's planes on the execution space, filled on the host by a function of (field, sample).
template <class Model>
struct Batch {
  using T = typename Model::scalar_type;
  using Plane = Kokkos::View<T*, Mem>;
  static constexpr int ns = Model::state_count, ni = Model::input_count;

  Batch(const Model& model, std::int64_t n, const std::function<T(int, std::int64_t)>& initial_state,
        const std::function<T(int, std::int64_t)>& input)
      : model(model), n(n), done("done", n) {
    for (int f = 0; f < ns; ++f) {
      state[f] = Plane("state", n);
      initial[f] = filled("initial", f, initial_state);
    }
    for (int f = 0; f < ni; ++f) in[f] = filled("input", f, input);
  }
  void reset() const {
    for (int f = 0; f < ns; ++f) Kokkos::deep_copy(state[f], initial[f]);
    Kokkos::deep_copy(done, false);
    Kokkos::fence();
  }
  template <std::size_t... S, std::size_t... I>
  eagle::Report run(const eagle::Deployed<Model>& d, const eagle::RunOptions& o, std::index_sequence<S...>,
                    std::index_sequence<I...>) const {
    return eagle::run_until_done(Space(), d, eagle::state(state[S]...), eagle::inputs(in[I]...), max_steps, o);
  }
  /// One arm, from the states reset() left; returns the launches it took.
  std::int64_t run_arm(const std::string& arm) const {
    if (arm == "A_naive_kokkos") return 2 * eagle::perf::naive_model(Space(), model, state, in, done, max_steps);
    if (arm == "C_run_to_completion") {
      eagle::perf::run_to_completion(Space(), model, state, in, max_steps);
      Kokkos::fence();
      return 1;
    }
    // "k1", "k16", "auto", each with "_no_compaction" or not.
    eagle::RunOptions o;
    if (arm.find("_no_compaction") != std::string::npos) o.compaction = eagle::Compaction::off;
    const eagle::Steps steps =
        arm.rfind("auto", 0) == 0 ? eagle::Steps::automatic() : eagle::Steps::fixed(std::stoll(arm.substr(1)));
    const eagle::Report r =
        run(eagle::deploy(model, steps), o, std::make_index_sequence<ns>{}, std::make_index_sequence<ni>{});
    sample_steps = r.sample_steps;
    return r.launches;
  }
  std::array<std::vector<T>, ns> final_states() const {
    std::array<std::vector<T>, ns> out;
    for (int f = 0; f < ns; ++f) {
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state[f]);
      out[f].assign(h.data(), h.data() + n);
    }
    return out;
  }

  Model model;
  std::int64_t n;
  std::array<Plane, ns> state, initial;
  std::array<Plane, ni> in;
  Kokkos::View<bool*, Mem> done;          ///< the naive arm's flags
  mutable std::int64_t sample_steps = 0;  ///< the work, the same for every arm: read off eagle's report

 private:
  Plane filled(const char* label, int f, const std::function<T(int, std::int64_t)>& value) const {
    Plane p(std::string(label), n);
    const auto h = Kokkos::create_mirror_view(p);
    for (std::int64_t i = 0; i < n; ++i) h(i) = value(f, i);
    Kokkos::deep_copy(p, h);
    return p;
  }
};

const std::vector<std::string> arms = {"k1",
                                       "k1_no_compaction",
                                       "k16",
                                       "k16_no_compaction",
                                       "auto",
                                       "auto_no_compaction",
                                       "A_naive_kokkos",
                                       "C_run_to_completion"};

template <class T>
Batch<eagle::kernels::BasicLorenz<T>> lorenz_sweep(std::int64_t n) {
  return {{},
          n,
          [](int f, std::int64_t) { return f == eagle::kernels::BasicLorenz<T>::time ? T(0) : T(1); },
          [n](int, std::int64_t i) { return T(30.0 * static_cast<double>(i) / static_cast<double>(n)); }};
}

/// Per-sample lengths of 100 to 10^4 steps, log-uniform (the spread batches of eagle-simulate).
Batch<eagle::kernels::OscillatorUntil> oscillator_spread(std::int64_t n) {
  using eagle::kernels::OscillatorUntil;
  const OscillatorUntil model;
  const std::vector<double> lengths = eagle::kernels::sample_lengths(eagle::kernels::Spread::x100, n, 100.0, 7);
  return {model, n, [](int f, std::int64_t) { return f == OscillatorUntil::x ? 1.0 : 0.0; },
          [&](int f, std::int64_t i) {
            const double length = lengths[static_cast<std::size_t>(i)];
            return f == OscillatorUntil::omega ? 0.5 + 1.5 * static_cast<double>(i % 97) / 96.0
                                               : (length - 0.5) * model.dt;
          }};
}

/// Every arm's final states against C's: to rounding (scalar code may contract to FMA differently in
/// each kernel), relative to the values' size or 1.
template <class Model>
bool arms_agree(const std::string& name, const Batch<Model>& b) {
  using T = typename Model::scalar_type;
  const double tolerance = std::is_same<T, float>::value ? 1e-4 : 1e-10;
  b.reset();
  b.run_arm("C_run_to_completion");
  const auto reference = b.final_states();
  bool ok = true;
  for (const std::string& arm : arms) {
    b.reset();
    b.run_arm(arm);
    const auto mine = b.final_states();
    double worst = 0.0;
    for (int f = 0; f < Batch<Model>::ns; ++f) {
      for (std::size_t i = 0; i < mine[f].size(); ++i) {
        const double a = mine[f][i], c = reference[f][i];
        worst = std::max(worst, std::abs(a - c) / std::max({1.0, std::abs(a), std::abs(c)}));
        if (a != a) worst = std::numeric_limits<double>::infinity();
      }
    }
    if (!(worst <= tolerance)) {
      std::fprintf(stderr, "eagle-bench-gpu: %s %s: final states %.2e from C's (allowed %.0e)\n", name.c_str(),
                   arm.c_str(), worst, tolerance);
      ok = false;
    }
  }
  return ok;
}

template <class Model>
void register_model(const std::string& name, const std::function<Batch<Model>(std::int64_t)>& make,
                    const std::vector<std::int64_t>& sizes) {
  for (const std::int64_t n : sizes) {
    const auto batch = std::make_shared<Batch<Model>>(make(n));
    batch->reset();
    batch->run_arm("auto");  // the work every arm does, for the rate
    for (const std::string& arm : arms) {
      benchmark::RegisterBenchmark(
          (name + "/" + arm + "/" + std::to_string(n)).c_str(),
          [batch, arm](benchmark::State& st) {
            if (!within_budget(st)) return;
            std::int64_t launches = 0;
            for (auto _ : st) {
              st.PauseTiming();
              batch->reset();
              st.ResumeTiming();
              launches = batch->run_arm(arm);
            }
            st.counters["sample_steps_per_s"] =
                benchmark::Counter(static_cast<double>(batch->sample_steps) * static_cast<double>(st.iterations()),
                                   benchmark::Counter::kIsRate);
            st.counters["launches"] = static_cast<double>(launches);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

/// A kernel that does nothing.
struct Empty {
  KOKKOS_FUNCTION void operator()(int) const {}
};

/// What one empty kernel launch costs, the launch and the wait for it together.
void empty_launch(benchmark::State& st) {
  if (!within_budget(st)) return;
  for (auto _ : st) {
    Kokkos::parallel_for("eagle_bench_gpu::empty", Kokkos::RangePolicy<Space>(0, 1), Empty{});
    Kokkos::fence();
  }
}

/// The console reporter, which keeps each run's sample-steps per second for the chart.
class RateReporter : public benchmark::ConsoleReporter {
 public:
  RateReporter() : ConsoleReporter(OO_Tabular) {}  // no colour codes: the output is read from logs too
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const auto it = run.counters.find("sample_steps_per_s");
      if (run.run_type == Run::RT_Iteration && it != run.counters.end())
        rates_[run.run_name.function_name] = it->second;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  /// Lorenz in double at the largest size: each arm's sample-steps per second.
  eagle::perf::BarChart chart(std::int64_t n) const {
    eagle::perf::BarChart c{"Lorenz rho-sweep (double, n = " + std::to_string(n) + ") on " + Space::name(),
                            "arm",
                            "sample-steps per second",
                            {}};
    for (const std::string& arm : arms) {
      const auto it = rates_.find("lorenz/" + arm + "/" + std::to_string(n));
      if (it != rates_.end()) c.bars.emplace_back(arm, it->second);
    }
    return c;
  }

 private:
  std::map<std::string, double> rates_;
};

/// `--sizes=a,b,...` (default 10^5, 10^6, 10^7), `--svg=FILE`, `--budget=SECONDS` and `--check-only`
/// from what Google Benchmark left.
struct Options {
  std::vector<std::int64_t> sizes{100000, 1000000, 10000000};
  std::string svg;
  double budget_seconds = 0.0;  ///< 0: none
  bool check_only = false;
};

Options parse(int argc, char* argv[]) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--check-only") {
      o.check_only = true;
    } else if (a.rfind("--svg=", 0) == 0) {
      o.svg = a.substr(6);
    } else if (a.rfind("--budget=", 0) == 0) {
      o.budget_seconds = std::atof(a.substr(9).c_str());
      if (!(o.budget_seconds > 0.0))
        throw std::invalid_argument("eagle-bench-gpu: --budget needs seconds > 0, got '" + a + "'");
    } else if (a.rfind("--sizes=", 0) == 0) {
      o.sizes.clear();
      std::size_t pos = 8;
      while (pos <= a.size()) {
        const std::size_t comma = std::min(a.find(',', pos), a.size());
        const double v = std::atof(a.substr(pos, comma - pos).c_str());  // 1e6 as well as 1000000
        if (!(v >= 1.0 && v <= 1e9)) throw std::invalid_argument("eagle-bench-gpu: bad size in '" + a + "' (1 to 1e9)");
        o.sizes.push_back(static_cast<std::int64_t>(v));
        pos = comma + 1;
      }
    } else {
      throw std::invalid_argument("eagle-bench-gpu: unknown argument '" + a +
                                  "' (--sizes=a,b,..., --svg=FILE, --budget=SECONDS, --check-only, "
                                  "Google Benchmark's --benchmark_*)");
    }
  }
  return o;
}

}  // namespace

int main(int argc, char* argv[]) {
  const Clock::time_point start = Clock::now();
  const eagle::perf::BenchmarkProcess process(argc, argv);
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  const std::int64_t n_check = 4099;
  const bool ok = arms_agree("lorenz", lorenz_sweep<double>(n_check)) &&
                  arms_agree("lorenz_fp32", lorenz_sweep<float>(n_check)) &&
                  arms_agree("oscillator_spread", oscillator_spread(n_check));
  if (!ok) return 1;
  std::printf("eagle-bench-gpu: every arm agrees with C on %s (Lorenz in double and float, a spread oscillator)\n",
              Space::name());
  if (o.check_only) return 0;
  if (o.budget_seconds > 0.0) {
    deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.budget_seconds));
  }

  eagle::perf::add_context();
  benchmark::AddCustomContext("kokkos_execution_space", Space::name());
  benchmark::RegisterBenchmark("launch/empty_parallel_for", empty_launch)->Unit(benchmark::kMicrosecond)->UseRealTime();
  register_model<eagle::kernels::Lorenz>("lorenz", lorenz_sweep<double>, o.sizes);
  register_model<eagle::kernels::LorenzFp32>("lorenz_fp32", lorenz_sweep<float>, o.sizes);
  register_model<eagle::kernels::OscillatorUntil>("oscillator_spread", oscillator_spread, o.sizes);
  RateReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  if (!o.svg.empty()) eagle::perf::write_file(o.svg, eagle::perf::to_svg(reporter.chart(o.sizes.back())));
  benchmark::Shutdown();
  return 0;
}
