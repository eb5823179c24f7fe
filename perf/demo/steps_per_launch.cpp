// The seed's "Steps per launch" comparison: the oscillator, one step body run with k=1, k=16 and
// auto, and the launches, steps and exact_steps each took. Writes the seed's figure, launches by
// K for auto, as SVG and CSV.
//
//   eagle-demo [--n SAMPLES] [--out DIRECTORY]

#include "../plots/bar_chart.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/oscillator.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;

eagle::Report run(const eagle::Deployed<eagle::kernels::Oscillator>& deployed, std::int64_t n) {
  Kokkos::View<double*, Mem> x("x", n), v("v", n), t("t", n), omega("omega", n);
  Kokkos::deep_copy(x, 1.0);
  const double spread = n > 1 ? 2.0 / static_cast<double>(n - 1) : 0.0;
  Kokkos::parallel_for(
      "demo::omega", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { omega(i) = 1.0 + spread * static_cast<double>(i); });
  eagle::RunOptions options;
  options.observer = eagle::ProgressLine(deployed.steps.describe());
  return eagle::run_until_done(Space(), deployed, eagle::state(x, v, t), eagle::inputs(omega), /*max_steps=*/10000,
                               options);
}

void print(const std::string& name, const eagle::Report& r) {
  std::printf("%12s: %4lld launches, %5lld steps, exact_steps=%s   (%s, %.3f s)\n", name.c_str(),
              static_cast<long long>(r.launches), static_cast<long long>(r.steps), r.exact_steps ? "True" : "False",
              r.loop_nest.c_str(), r.seconds);
}

std::int64_t parse_count(const char* flag, const char* text) {
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value <= 0) {
    throw std::invalid_argument(std::string(flag) + " needs a positive integer, got '" + text + "'");
  }
  return value;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    std::int64_t n = host_space ? 100000 : 1000000;
    std::string out = ".";
    for (int a = 1; a < argc; ++a) {
      const std::string arg = argv[a];
      if (arg == "--n" && a + 1 < argc) n = parse_count("--n", argv[++a]);
      else if (arg == "--out" && a + 1 < argc) out = argv[++a];
      else throw std::invalid_argument("unknown argument '" + arg + "' (usage: eagle-demo [--n SAMPLES] [--out DIRECTORY])");
    }
    const std::string svg_path = out + "/eagle-demo-launches-by-k.svg", csv_path = out + "/eagle-demo-launches-by-k.csv";
    for (const std::string& path : {svg_path, csv_path}) eagle::perf::write_file(path, "");  // fail before the runs
    std::printf("running on %s (concurrency %d), Kokkos %d.%d.%d, n = %lld\n", Space::name(), Space().concurrency(),
                KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100, static_cast<long long>(n));

    const eagle::kernels::Oscillator oscillator{/*t_end=*/1.0, /*dt=*/1e-3};
    print("k=1", run(eagle::deploy(oscillator, 1), n));
    print("k=16", run(eagle::deploy(oscillator, 16), n));
    const eagle::Report automatic = run(eagle::deploy(oscillator, eagle::Steps::automatic()), n);
    print("auto", automatic);
    if (automatic.loop_nest == "tile") {
      std::printf("              tile: %lld lanes, %lld tiles (%s)\n", static_cast<long long>(automatic.tile_lanes),
                  static_cast<long long>(automatic.tiles), automatic.tile_reason.c_str());
    }
    // The device-style rule, which the seed's figure shows; on a device space it is auto itself.
    const eagle::Report per_sample =
        run(eagle::deploy(oscillator, eagle::Steps::automatic(), eagle::LoopNest::per_sample), n);
    print("auto/sample", per_sample);

    eagle::perf::BarChart chart{"steps=auto (one sample per work item): launches by K on " + std::string(Space::name()),
                                "steps in that launch (k)", "number of launches", {}};
    std::string csv = "arm,k,launches\n";
    for (const auto& [k, count] : per_sample.launches_by_k) {
      chart.bars.emplace_back(std::to_string(k), static_cast<double>(count));
      csv += "auto/sample," + std::to_string(k) + "," + std::to_string(count) + "\n";
    }
    for (const auto& [k, count] : automatic.launches_by_k) {
      csv += "auto," + std::to_string(k) + "," + std::to_string(count) + "\n";
    }
    eagle::perf::write_file(svg_path, eagle::perf::to_svg(chart));
    eagle::perf::write_file(csv_path, csv);
    std::printf("wrote %s/eagle-demo-launches-by-k.svg and .csv\n", out.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "eagle-demo: %s\n", e.what());
    return 1;
  }
  return 0;
}
