#pragma once
// What eagle-simulate measures and keeps: the batches' constants, the job of several processes,
// each arm's timings per batch. Plain data; the measurement itself is eagle/simulate/measure.hpp.

#include <eagle/simulate/args.hpp>
#include <eagle/simulate/cost_model.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace eagle::simulate {

inline constexpr double dt = 1e-3;
inline constexpr std::int64_t max_steps = 1000000;
inline constexpr std::int64_t uniform_steps = 100;  ///< every sample of a uniform oscillator batch
inline constexpr std::int64_t lorenz_steps = 1000;  ///< every sample of the Lorenz peer batch

/// What simulate needs from a job of several processes (MPI in main.cpp); the default is one
/// process. Every rank runs its contiguous part of each batch; times are the slowest rank's.
struct Collective {
  int rank = 0;
  int ranks = 1;
  std::function<void()> barrier = [] {};
  std::function<double(double)> max = [](double x) { return x; };
  std::function<double(double)> sum = [](double x) { return x; };
  /// Rank 0's decision, on every rank.
  std::function<bool(bool)> agree = [](bool x) { return x; };
  /// Every rank's launches by K, summed, on every rank.
  std::function<std::map<std::int64_t, std::int64_t>(const std::map<std::int64_t, std::int64_t>&)> sum_counts =
      [](const std::map<std::int64_t, std::int64_t>& m) { return m; };
  /// Every rank's part of a plane, in the global order, on every rank.
  std::function<std::vector<double>(const std::vector<double>&)> gather = [](const std::vector<double>& v) {
    return v;
  };
};

/// Each sample's length in steps: uniform batches all the same, spread ones from 1 to the spread,
/// log-uniform (kernels/spread_batches.hpp, seed 11).
std::vector<double> lengths_of(const BatchSpec& b);

/// One timed run of an arm on a batch.
struct ArmRun {
  double seconds = 0;
  RunFeatures features;
  std::map<std::int64_t, std::int64_t> launches_by_k;
  std::string launch_costs;  ///< what steps = auto weighed (this rank's), or empty
  std::uint32_t checksum = 0;
};

/// Why an arm does not run a batch (none: it runs).
enum class Skip { none, other_model, host_only, no_odeint, out_of_time };

/// The reason in words, as the JSON and the tables give it.
const char* describe(Skip s);

/// Every timing of one arm on one batch.
struct Cell {
  std::size_t batch = 0;
  std::string arm;
  std::vector<double> seconds;
  ArmRun last;
  Skip skipped = Skip::none;  ///< why it was not measured

  /// The median of the timings; -1 when there are none.
  double median() const;
};

/// What simulate measured.
struct Results {
  std::vector<BatchSpec> batches;
  std::vector<Cell> cells;
  double budget_seconds = 0;
  double elapsed_seconds = 0;
  std::string execution_space;
  int ranks = 1;  ///< processes that shared every batch

  /// The measured cell with the smallest median for batch b, or nullptr.
  const Cell* fastest(std::size_t b) const;
};

}  // namespace eagle::simulate
