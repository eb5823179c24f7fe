#pragma once
// eagle-simulate's command line: which arms against which batches, for how long, and where the
// results go. Pure C++ (no Kokkos, and CLI11 only behind src/args.cpp), so it is unit-tested and
// fuzzed on its own.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace eagle::simulate {

/// A command line eagle-simulate cannot run; the message says what and why.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// What runs in an arm: eagle, or one of the baselines it is measured against.
enum class ArmKind { eagle, naive, hand_simd, odeint };

/// An arm as data: what it runs and how, where it can run, and whether the model replays it.
struct ArmInfo {
  const char* name;
  const char* what;
  bool oscillator;  ///< runs the oscillator batches
  bool lorenz;      ///< runs the Lorenz peer batches
  ArmKind kind;
  bool host_only;  ///< needs a host execution space (the tile, hand code, Boost.Odeint)
  // eagle's arms:
  long long steps = 0;      ///< steps per launch; 0: auto
  bool tile = false;        ///< the host tile nest; else one sample per work item
  bool compacts = false;    ///< compaction automatic; else off
  long long in_flight = 0;  ///< revival: samples in flight; 0: all
  /// One sample per work item (eagle's GPU nest): its steps per launch (0: auto); the model replays
  /// such arms' policies on GPU profiles. -1: another kind of arm.
  long long per_sample_k() const { return kind == ArmKind::eagle && !tile ? steps : -1; }
  /// Costed by the model (eagle's arms and the naive baseline); the host-only baselines are not.
  bool modelled() const { return kind == ArmKind::eagle || kind == ArmKind::naive; }
};

/// Every arm eagle-simulate knows, in the order of --help and of the default run.
const std::vector<ArmInfo>& arm_catalogue();

/// The catalogue's entry for `name` (a name the command line accepted).
const ArmInfo& arm_info(const std::string& name);

/// The models batches run.
enum class Model { oscillator, lorenz };

/// One batch: a model, a size and how far its samples' lengths spread (1, 100 or 1000).
struct BatchSpec {
  Model model = Model::oscillator;
  std::int64_t n = 0;
  int spread = 1;

  /// The batch as tables show it: "uniform n=1000", "spread-100 n=100000", "lorenz n=100000".
  std::string name() const;
};

/// Everything eagle-simulate was asked to do.
struct Options {
  std::vector<std::string> arms;
  std::vector<BatchSpec> batches;
  double budget_seconds = 30.0;
  int max_repetitions = 5;
  std::string out_prefix = "eagle-simulate";
  bool model = false;  ///< --model: also predict the arms' times on GPU profiles
  bool help = false;
};

/// The text of --help.
std::string help_text();

/// Parses the arguments after the program name; throws UsageError naming the first problem.
Options parse_args(const std::vector<std::string>& args);

}  // namespace eagle::simulate
