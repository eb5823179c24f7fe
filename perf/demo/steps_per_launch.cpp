// The seed's "Steps per launch" comparison: the oscillator, one step body run with k=1, k=16 and
// auto, and the launches, steps and exact_steps each took; the seed's tile rule beside the tile
// the run used; the seed's figure, launches by K for auto, as SVG and CSV. `eagle-demo --help`
// lists the options.

#include <eagle/thread_binding.hpp>
#include <plots/bar_chart.hpp>

#include <eagle/eagle.hpp>
#include <eagle/kernels/oscillator.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;

constexpr const char* usage = R"(usage: eagle-demo [--n SAMPLES] [--dt STEP] [--out DIRECTORY] [Kokkos options]

The seed's "Steps per launch" comparison: the oscillator x'' = -omega^2 x (omega from 1 to 3 over
the batch) stepped to t = 1 with k=1, k=16 and auto, on Kokkos' default execution space.

  --n SAMPLES      samples in the batch (default 100000 on a host space, 1000000 on a device)
  --dt STEP        the time step (default 1e-3: 1000 steps; the seed's "Try this" is --dt 1e-4)
  --out DIRECTORY  where eagle-demo-launches-by-k.svg and .csv go (default: here)
  --help           this text

Kokkos' own options (--kokkos-threads=N, --kokkos-numa=N, --kokkos-device-id=N, ...) are passed
to Kokkos; --kokkos-help lists them. Unless OMP_PROC_BIND or OMP_PLACES is set, OpenMP threads
are bound (OMP_PROC_BIND=spread, OMP_PLACES=threads).
)";

struct DemoOptions {
  std::int64_t n = host_space ? 100000 : 1000000;
  double dt = 1e-3;
  std::string out = ".";
};

double parse_positive(const char* flag, const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (*end != '\0' || !(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string(flag) + " needs a positive number, got '" + text + "'");
  }
  return value;
}

// Kokkos has taken its own arguments out of argv by now; the rest are eagle-demo's.
DemoOptions parse(int argc, char* argv[]) {
  DemoOptions o;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    const bool has_value = a + 1 < argc;
    if (arg == "--n" && has_value) {
      const double n = parse_positive("--n", argv[++a]);
      if (n != std::floor(n) || n > 1e12) throw std::invalid_argument("--n needs a whole number of samples");
      o.n = static_cast<std::int64_t>(n);
    } else if (arg == "--dt" && has_value) {
      o.dt = parse_positive("--dt", argv[++a]);
    } else if (arg == "--out" && has_value) {
      o.out = argv[++a];
    } else {
      throw std::invalid_argument("unknown argument '" + arg + "' (eagle-demo --help lists the options)");
    }
  }
  return o;
}

eagle::Report run(const eagle::Deployed<eagle::kernels::Oscillator>& deployed, std::int64_t n, std::int64_t max_steps) {
  Kokkos::View<double*, Mem> x("x", n), v("v", n), t("t", n), omega("omega", n);
  Kokkos::deep_copy(x, 1.0);
  const double spread = n > 1 ? 2.0 / static_cast<double>(n - 1) : 0.0;
  Kokkos::parallel_for(
      "demo::omega", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { omega(i) = 1.0 + spread * static_cast<double>(i); });
  eagle::RunOptions options;
  options.observer = eagle::ProgressLine(deployed.steps.describe());
  return eagle::run_until_done(Space(), deployed, eagle::state(x, v, t), eagle::inputs(omega), max_steps, options);
}

void print(const std::string& name, const eagle::Report& r) {
  std::string by_k;
  // Appended piece by piece: GCC 12 in C++20 mode warns falsely (-Wrestrict) on `" " + std::string`.
  for (const auto& [k, launches] : r.launches_by_k) {
    by_k.append(" ").append(std::to_string(launches)).append("xK=").append(std::to_string(k));
  }
  std::printf("%12s: %4lld launches, %5lld steps, exact_steps=%s   (%s, %.3f s; launches by K:%s)\n", name.c_str(),
              static_cast<long long>(r.launches), static_cast<long long>(r.steps), r.exact_steps ? "True" : "False",
              r.loop_nest.c_str(), r.seconds, by_k.c_str());
}

// The seed's notebook asks its tile rule for 24 bytes a sample (x, v, t); eagle's rule, and the
// tile the run chose for the oscillator's full working set (state and input), side by side.
void print_tiles(std::int64_t n, const eagle::Report& automatic) {
  const eagle::Partition batch(0, n, n);
  const std::int64_t tiles = eagle::tile_count(batch, 24);
  std::printf(
      "  seed's call: tile_count(Partition(0, n, n), 24) = %lld tiles of about %lld samples "
      "(the seed's machine: 25 of about 4000)\n",
      static_cast<long long>(tiles), static_cast<long long>(tiles > 0 ? (n + tiles - 1) / tiles : 0));
  if (automatic.loop_nest == "tile") {
    std::printf("  this run's plan: %lld lanes, %lld tiles (%s)\n", static_cast<long long>(automatic.tile_lanes),
                static_cast<long long>(automatic.tiles), automatic.tile_reason.c_str());
  }
}

void write_figure(const DemoOptions& o, const eagle::Report& automatic, const eagle::Report& per_sample) {
  eagle::perf::BarChart chart{"steps=auto (one sample per work item): launches by K on " + std::string(Space::name()),
                              "steps in that launch (k)",
                              "number of launches",
                              {}};
  std::string csv = "arm,k,launches\n";
  for (const auto& [k, count] : per_sample.launches_by_k) {
    chart.bars.emplace_back(std::to_string(k), static_cast<double>(count));
    csv += "auto/sample," + std::to_string(k) + "," + std::to_string(count) + "\n";
  }
  for (const auto& [k, count] : automatic.launches_by_k) {
    csv += "auto," + std::to_string(k) + "," + std::to_string(count) + "\n";
  }
  eagle::perf::write_file(o.out + "/eagle-demo-launches-by-k.svg", eagle::perf::to_svg(chart));
  eagle::perf::write_file(o.out + "/eagle-demo-launches-by-k.csv", csv);
  std::printf("wrote %s/eagle-demo-launches-by-k.svg and .csv\n", o.out.c_str());
}

void demo(const DemoOptions& o) {
  for (const char* name : {"/eagle-demo-launches-by-k.svg", "/eagle-demo-launches-by-k.csv"}) {
    eagle::perf::write_file(o.out + name, "");  // fail before the runs
  }
  // The seed caps at 10000 steps; a finer dt keeps the cap at ten times the steps it needs.
  const auto needed = static_cast<std::int64_t>(std::ceil(1.0 / o.dt));
  const std::int64_t max_steps = std::max<std::int64_t>(10000, 10 * needed);
  std::printf("running on %s (concurrency %d), Kokkos %d.%d.%d, n = %lld, dt = %g (%lld steps), max_steps = %lld\n",
              Space::name(), Space().concurrency(), KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
              KOKKOS_VERSION % 100, static_cast<long long>(o.n), o.dt, static_cast<long long>(needed),
              static_cast<long long>(max_steps));
  std::printf("built for %s\n", eagle::native_isa().c_str());

  const eagle::kernels::Oscillator oscillator{/*t_end=*/1.0, o.dt};
  print("k=1", run(eagle::deploy(oscillator, 1), o.n, max_steps));
  const eagle::Report k16 = run(eagle::deploy(oscillator, 16), o.n, max_steps);
  print("k=16", k16);
  const eagle::Report automatic = run(eagle::deploy(oscillator, eagle::Steps::automatic()), o.n, max_steps);
  print("auto", automatic);
  print_tiles(o.n, automatic);
  // The device-style rule, which the seed's figure shows; on a device space it is auto itself. It
  // weighs launch costs measured on this space, so its K here is this machine's, not a GPU's.
  const eagle::Report per_sample =
      run(eagle::deploy(oscillator, eagle::Steps::automatic(), eagle::LoopNest::per_sample), o.n, max_steps);
  print("auto/sample", per_sample);
  std::printf("  auto/sample weighed these measured costs: %s\n", describe(*per_sample.launch_costs).c_str());
  const auto verdict = [&](const char* name, const eagle::Report& r) {
    std::printf("  %s: %lld launches against k=16's %lld: %s on launch count\n", name,
                static_cast<long long>(r.launches), static_cast<long long>(k16.launches),
                r.launches < k16.launches    ? "auto wins"
                : r.launches == k16.launches ? "a tie"
                                             : "k=16 wins");
  };
  verdict("auto", automatic);
  verdict("auto/sample", per_sample);
  write_figure(o, automatic, per_sample);
}

bool asks_for_help(int argc, char* argv[]) {
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--help" || arg == "-h") return true;
  }
  return false;
}

}  // namespace

int main(int argc, char* argv[]) {
  // Before Kokkos, which would print its own help for --help and then leave it in argv.
  if (asks_for_help(argc, argv)) {
    std::printf("%s", usage);
    return 0;
  }
  eagle::bind_threads_by_default(argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    demo(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "eagle-demo: %s\n", e.what());
    return 1;
  }
  return 0;
}
