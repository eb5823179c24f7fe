#pragma once
// What every eagle benchmark records beside its timings, and the ratio table printed after a run.

#include <eagle/thread_binding.hpp>

#include <eagle/host_caches.hpp>
#include <eagle/pack.hpp>

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <eagle_git_revision.hpp>  // generated at build time (perf/CMakeLists.txt)

#ifndef EAGLE_PERF_FLAGS
#define EAGLE_PERF_FLAGS ""
#endif

namespace eagle::perf {

/// Kokkos version and backend, threads, hwloc caches, compiler, flags and git revision.
inline void add_context() {
  const CacheSizes& c = host_caches();
  benchmark::AddCustomContext("eagle_git_revision", EAGLE_GIT_REVISION);
  benchmark::AddCustomContext("kokkos_version", std::to_string(KOKKOS_VERSION / 10000) + "." +
                                                    std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                                                    std::to_string(KOKKOS_VERSION % 100));
  benchmark::AddCustomContext("kokkos_host_space", Kokkos::DefaultHostExecutionSpace::name());
  benchmark::AddCustomContext("kokkos_host_concurrency",
                              std::to_string(Kokkos::DefaultHostExecutionSpace().concurrency()));
  benchmark::AddCustomContext("hwloc_caches_per_core", c.source + ": L1d " + std::to_string(c.l1d) + " B, L2 " +
                                                           std::to_string(c.l2) + " B, L3 " + std::to_string(c.l3) +
                                                           " B");
  benchmark::AddCustomContext("compiler", __VERSION__);
  benchmark::AddCustomContext("isa", native_isa());
  benchmark::AddCustomContext("compile_flags", EAGLE_PERF_FLAGS);
}

/// How far two runs' final states lie apart: values that differ in any bit, the largest relative
/// difference.
struct Agreement {
  std::int64_t differ = 0;
  double largest = 0.0;
  void compare(double mine, double theirs) {
    if (std::memcmp(&mine, &theirs, sizeof(double)) == 0) return;
    ++differ;
    const double scale = std::max(std::abs(mine), std::abs(theirs));
    largest = std::max(largest, scale > 0.0 ? std::abs(mine - theirs) / scale : 0.0);
  }
  /// Bit for bit, or (`to_rounding`) within 1e-10 relative: FMA contraction may differ between
  /// the tile's packs and scalar code (docs/REPRODUCIBILITY.md). Prints and returns the verdict.
  bool check(const char* tool, const std::string& what, bool to_rounding) const {
    const bool ok = differ == 0 || (to_rounding && largest <= 1e-10);
    if (differ > 0) {
      std::fprintf(ok ? stdout : stderr, "%s: %s: %lld values differ, by at most %.2e relative%s\n", tool, what.c_str(),
                   static_cast<long long>(differ), largest, ok ? " (rounding)" : "");
    }
    return ok;
  }
};

/// `--check-only=bitwise` or `--check-only=rounding` as the first argument: compare the arms, time
/// nothing. Returns false when absent; `to_rounding` says which.
inline bool check_only(int argc, char* argv[], bool& to_rounding) {
  if (argc < 2) return false;
  const std::string a = argv[1];
  if (a != "--check-only=bitwise" && a != "--check-only=rounding") return false;
  to_rounding = a == "--check-only=rounding";
  return true;
}

/// What every benchmark's main starts with, for the whole run: threads bound unless the user bound
/// them, Kokkos initialised, Google Benchmark's flags taken out of argv.
class BenchmarkProcess {
 public:
  BenchmarkProcess(int& argc, char* argv[]) : kokkos_(bind_threads(argc, argv), argv) {
    benchmark::Initialize(&argc, argv);
  }
  /// Registered benchmarks may hold Kokkos views: they go before Kokkos is finalised.
  ~BenchmarkProcess() { benchmark::ClearRegisteredBenchmarks(); }
  BenchmarkProcess(const BenchmarkProcess&) = delete;
  BenchmarkProcess& operator=(const BenchmarkProcess&) = delete;

 private:
  static int& bind_threads(int& argc, char* argv[]) {
    bind_threads_by_default(argv);
    return argc;
  }
  Kokkos::ScopeGuard kokkos_;
};

/// The console reporter, which also keeps each benchmark's real times, so that after the run it
/// prints one arm's median against the others' for each argument.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::pair<std::string, std::string> key{run.run_name.function_name, run.run_name.args};
      if (run.run_type == Run::RT_Iteration)
        times_[key].push_back(run.GetAdjustedRealTime());
      else if (run.aggregate_name == "median")
        medians_[key] = run.GetAdjustedRealTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }

  /// Median real time of `name` at argument `args`, or a negative number when it did not run.
  double median(const std::string& name, const std::string& args) const {
    const auto key = std::make_pair(name, args);
    if (auto it = times_.find(key); it != times_.end() && !it->second.empty()) {
      std::vector<double> t = it->second;
      std::sort(t.begin(), t.end());
      return t.size() % 2 == 1 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
    }
    if (auto it = medians_.find(key); it != medians_.end()) return it->second;
    return -1.0;
  }

  void print_ratios(const std::string& arm, const std::vector<std::string>& others) const {
    std::vector<std::string> args;
    for (const auto& [key, _] : times_) {
      if (key.first == arm) args.push_back(key.second);
    }
    for (const auto& [key, _] : medians_) {
      if (key.first == arm && std::find(args.begin(), args.end(), key.second) == args.end()) args.push_back(key.second);
    }
    for (const std::string& a : args) {
      const double mine = median(arm, a);
      std::printf("\n%s at %s: median %.2f ms\n", arm.c_str(), a.c_str(), mine);
      for (const std::string& other : others) {
        const double theirs = median(other, a);
        if (theirs <= 0.0 || mine <= 0.0) continue;
        std::printf("  %-16s %9.2f ms   %s is %6.2fx %s\n", other.c_str(), theirs, arm.c_str(),
                    theirs >= mine ? theirs / mine : mine / theirs, theirs >= mine ? "faster" : "slower");
      }
    }
  }

 private:
  std::map<std::pair<std::string, std::string>, std::vector<double>> times_;
  std::map<std::pair<std::string, std::string>, double> medians_;
};

}  // namespace eagle::perf
