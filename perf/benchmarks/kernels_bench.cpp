// The kernels library on the host's default execution space: sample-steps per second for each
// model, with the device-style auto rule (one sample per work item) and the host tile; for Lorenz
// and the Boris pusher also A, naive Kokkos, B, the limit (hand code for this ISA), and C, each
// sample run to completion in one parallel_for (the loop a user writes first), with the tile's
// ratios printed. `--check-only`: their arms compared (to rounding, or bit for bit), no timing.
//
//   eagle-bench-kernels --benchmark_repetitions=3 --benchmark_out=kernels.json

#include <baselines/hand_limit.hpp>
#include <baselines/naive_kokkos.hpp>
#include <baselines/run_to_completion.hpp>
#include "bench_context.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/boris.hpp>
#include <eagle/kernels/dopri5_oscillator.hpp>
#include <eagle/kernels/duffing.hpp>
#include <eagle/kernels/first_passage.hpp>
#include <eagle/kernels/lorenz.hpp>
#if defined(EAGLE_BENCH_HAS_KOKKOS_KERNELS)
#include <eagle/kernels/robertson.hpp>
#endif

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
using Plane = Kokkos::View<double*, Kokkos::HostSpace>;

/// Planes for a model, each filled per sample by a function of the sample index.
template <class Model>
struct Batch {
  using Fill = std::function<double(std::int64_t)>;
  Batch(std::int64_t n, std::vector<Fill> state_fill, std::vector<Fill> input_fill)
      : n(n), state_fill(std::move(state_fill)), input_fill(std::move(input_fill)) {
    for (std::size_t f = 0; f < this->state_fill.size(); ++f) state[f] = Plane("state", n);
    for (std::size_t f = 0; f < this->input_fill.size(); ++f) {
      in[f] = Plane("input", n);
      for (std::int64_t i = 0; i < n; ++i) in[f](i) = this->input_fill[f](i);
    }
  }
  void reset() {
    for (std::size_t f = 0; f < state_fill.size(); ++f) {
      for (std::int64_t i = 0; i < n; ++i) state[f](i) = state_fill[f](i);
    }
  }
  template <std::size_t... S, std::size_t... I>
  eagle::Report run(const eagle::Deployed<Model>& d, std::index_sequence<S...>, std::index_sequence<I...>) {
    return eagle::run_until_done(Space(), d, eagle::state(state[S]...), eagle::inputs(in[I]...), 100000000);
  }
  eagle::Report run(const eagle::Deployed<Model>& d) {
    return run(d, std::make_index_sequence<Model::state_count>{}, std::make_index_sequence<Model::input_count>{});
  }
  std::int64_t n;
  std::vector<Fill> state_fill, input_fill;
  std::array<Plane, Model::state_count> state;
  std::array<Plane, Model::input_count> in;
};

template <class Model>
void bench(benchmark::State& st, Model model, Batch<Model> batch, eagle::LoopNest nest) {
  std::int64_t work = 0;
  for (auto _ : st) {
    st.PauseTiming();
    batch.reset();
    st.ResumeTiming();
    const eagle::Report r = batch.run(eagle::deploy(model, eagle::Steps::automatic(), nest));
    work += r.sample_steps;
  }
  st.counters["sample_steps_per_s"] = benchmark::Counter(static_cast<double>(work), benchmark::Counter::kIsRate);
}

double spread(std::int64_t i, std::int64_t n, double a, double b) {
  return a + (b - a) * static_cast<double>(i) / static_cast<double>(n > 1 ? n - 1 : 1);
}

template <class Model>
void register_model(const std::string& name, const Model& model, const Batch<Model>& batch) {
  for (auto [nest, suffix] :
       {std::pair{eagle::LoopNest::per_sample, "/auto_per_sample"}, std::pair{eagle::LoopNest::tile, "/tile"}}) {
    benchmark::RegisterBenchmark((name + suffix).c_str(), bench<Model>, model, batch, nest)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

/// B, the limit, on a batch's planes: hand lanes for each model that has them.
void run_limit(const eagle::kernels::Lorenz& m, const Batch<eagle::kernels::Lorenz>& b) {
  eagle::perf::limit_lorenz(b.state[0], b.state[1], b.state[2], b.state[3], b.in[0], m.system.sigma, m.system.beta,
                            m.dt, m.t_end, 100000000);
}
void run_limit(const eagle::kernels::Boris& m, const Batch<eagle::kernels::Boris>& b) {
  eagle::perf::limit_boris(b.state, b.in, m.dt, m.t_end, 100000000);
}

/// A model's baselines, run on a batch's planes: A, B or C.
template <class Model>
void run_baseline(const std::string& arm, const Batch<Model>& b) {
  const Model m;
  if (arm == "A_naive_kokkos") {
    eagle::perf::naive_model(Space(), m, b.state, b.in, Kokkos::View<bool*, Kokkos::HostSpace>("done", b.n), 100000000);
  } else if (arm == "C_run_to_completion") {
    eagle::perf::run_to_completion(Space(), m, b.state, b.in, 100000000);
  } else {
    run_limit(m, b);
  }
}

template <class Model>
void bench_baseline(benchmark::State& st, std::string arm, Batch<Model> batch) {
  for (auto _ : st) {
    st.PauseTiming();
    batch.reset();
    st.ResumeTiming();
    run_baseline(arm, batch);
  }
}

const char* const baseline_arms[] = {"A_naive_kokkos", "B_limit", "C_run_to_completion"};

/// Every arm of a model with baselines against the per-sample nest.
template <class Model>
bool arms_agree(const std::string& name, Batch<Model> reference, bool to_rounding) {
  Batch<Model> b = reference;
  for (auto& plane : b.state) plane = Plane("state", b.n);
  reference.reset();
  reference.run(eagle::deploy(Model{}, eagle::Steps::automatic(), eagle::LoopNest::per_sample));
  bool ok = true;
  for (const std::string arm : {"tile", "A_naive_kokkos", "B_limit", "C_run_to_completion"}) {
    b.reset();
    if (arm == "tile")
      b.run(eagle::deploy(Model{}, eagle::Steps::automatic()));
    else
      run_baseline(arm, b);
    eagle::perf::Agreement agreement;
    for (std::size_t f = 0; f < b.state.size(); ++f) {
      for (std::int64_t i = 0; i < b.n; ++i) agreement.compare(b.state[f](i), reference.state[f](i));
    }
    ok = agreement.check("eagle-bench-kernels", name + " " + arm + " vs the per-sample nest", to_rounding) && ok;
  }
  return ok;
}

/// The tile's row and the baselines' rows of a model.
template <class Model>
void register_with_baselines(const std::string& name, const Batch<Model>& batch) {
  register_model(name, Model{}, batch);
  for (const std::string arm : baseline_arms) {
    benchmark::RegisterBenchmark((name + "/" + arm).c_str(), bench_baseline<Model>, arm, batch)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  const eagle::perf::BenchmarkProcess process(argc, argv);
  using namespace eagle::kernels;
  const auto zero = [](std::int64_t) { return 0.0; };
  const auto one = [](std::int64_t) { return 1.0; };

  const auto lorenz_batch = [&](std::int64_t n) {
    return Batch<Lorenz>(n, {one, one, one, zero}, {[=](std::int64_t i) { return spread(i, n, 0.0, 30.0); }});
  };
  // Omega from 1 to 80 in size, turning through every direction over the samples.
  const auto boris_batch = [&](std::int64_t n) {
    const auto size = [=](std::int64_t i) { return spread(i, n, 1.0, 80.0); };
    const auto a = [](std::int64_t i) { return 0.7 * static_cast<double>(i); };
    const auto b = [](std::int64_t i) { return 0.3 * static_cast<double>(i); };
    return Batch<Boris>(n,
                        {zero, [](std::int64_t) { return 0.5; }, zero, one, [](std::int64_t) { return -0.5; },
                         [](std::int64_t) { return 2.0; }, zero},
                        {[=](std::int64_t i) { return size(i) * std::sin(b(i)) * std::cos(a(i)); },
                         [=](std::int64_t i) { return size(i) * std::sin(b(i)) * std::sin(a(i)); },
                         [=](std::int64_t i) { return size(i) * std::cos(b(i)); }});
  };
  bool to_rounding = true;
  const bool only_check = eagle::perf::check_only(argc, argv, to_rounding);
  const bool agree = arms_agree("lorenz", lorenz_batch(4099), to_rounding);
  if (!(arms_agree("boris", boris_batch(4099), to_rounding) && agree)) return 1;
  if (only_check) {
    std::printf("eagle-bench-kernels: every Lorenz and Boris arm agrees with the per-sample nest %s (%s)\n",
                to_rounding ? "to rounding" : "bit for bit", eagle::native_isa().c_str());
    return 0;
  }
  eagle::perf::add_context();
  register_with_baselines("lorenz_rk4", lorenz_batch(100000));
  register_with_baselines("boris", boris_batch(100000));
  const std::int64_t n_duffing = 20000;
  register_model("duffing_event", Duffing{},
                 Batch<Duffing>(n_duffing, {[](std::int64_t) { return 0.5; }, zero, zero},
                                {[=](std::int64_t i) { return spread(i, n_duffing, 0.2, 0.5); }}));
  const std::int64_t n_dopri = 20000;
  register_model("dopri5_adaptive", Dopri5Oscillator{},
                 Batch<Dopri5Oscillator>(n_dopri, {one, zero, zero, [](std::int64_t) { return 1e-3; }},
                                         {[=](std::int64_t i) { return spread(i, n_dopri, 0.5, 6.0); }}));
#if defined(EAGLE_BENCH_HAS_KOKKOS_KERNELS)
  Robertson robertson;
  robertson.t_end = 1.0;
  const std::int64_t n_robertson = 2000;
  register_model("robertson_implicit", robertson,
                 Batch<Robertson>(n_robertson, {one, zero, zero, zero, [](std::int64_t) { return 1e-6; }},
                                  {[=](std::int64_t i) { return spread(i, n_robertson, 0.5, 2.0); }}));
#endif
  const std::int64_t n_walk = 100000;
  register_model("first_passage", FirstPassage{},
                 Batch<FirstPassage>(n_walk, {zero, zero},
                                     {[=](std::int64_t i) { return std::floor(spread(i, n_walk, 3.0, 30.0)); },
                                      [](std::int64_t i) { return static_cast<double>(i); }}));
  eagle::perf::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (const std::string model : {"lorenz_rk4", "boris"}) {
    std::vector<std::string> others;
    for (const std::string arm : baseline_arms) others.push_back(model + "/" + arm);
    reporter.print_ratios(model + "/tile", others);
  }
  benchmark::Shutdown();
  return 0;
}
