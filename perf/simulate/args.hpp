#pragma once
// eagle-simulate's command line: which arms against which batches, for how long, and where the
// results go. Pure C++ (no Kokkos), so it is unit-tested and fuzzed on its own.

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace eagle::simulate {

/// A command line eagle-simulate cannot run; the message says what and why.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// What an arm is: its name on the command line, what it runs, and which models it serves.
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

inline const std::vector<ArmInfo>& arm_catalogue() {
  using K = ArmKind;
  static const std::vector<ArmInfo> arms = {
      {"k1", "eagle, one step per launch, one sample per work item", true, true, K::eagle, false, 1, false, true},
      {"k8", "eagle, 8 fused steps per launch, one sample per work item", true, true, K::eagle, false, 8, false, true},
      {"k64", "eagle, 64 fused steps per launch, one sample per work item", true, true, K::eagle, false, 64, false,
       true},
      {"auto", "eagle, steps=auto, one sample per work item, compaction auto", true, true, K::eagle, false, 0, false,
       true},
      {"auto-nocompact", "eagle, steps=auto, one sample per work item, compaction off", true, false, K::eagle, false, 0,
       false, false},
      {"tile", "eagle, host tile, compaction auto (host spaces)", true, true, K::eagle, true, 0, true, true},
      {"tile-nocompact", "eagle, host tile, compaction off (host spaces)", true, false, K::eagle, true, 0, true, false},
      {"revive", "eagle, host tile, 2^16 samples in flight, revival (host spaces)", true, false, K::eagle, true, 0,
       true, true, 1LL << 16},
      {"naive", "baseline A: a Kokkos parallel_for and parallel_reduce per step", true, false, K::naive, false},
      {"hand-simd", "baseline B, the limit: hand code for the build's ISA (host spaces)", true, false, K::hand_simd,
       true},
      {"odeint", "Boost.Odeint runge_kutta4 over OpenMP, static schedule (Lorenz only)", false, true, K::odeint, true},
  };
  return arms;
}

/// The catalogue's entry for `name` (a name the command line accepted).
inline const ArmInfo& arm_info(const std::string& name) {
  const auto& c = arm_catalogue();
  const auto it = std::find_if(c.begin(), c.end(), [&](const ArmInfo& a) { return name == a.name; });
  if (it == c.end()) throw std::invalid_argument("eagle-simulate: no arm named '" + name + "'");
  return *it;
}

/// The models batches run.
enum class Model { oscillator, lorenz };

/// One batch: a model, a size and how far its samples' lengths spread (1, 100 or 1000).
struct BatchSpec {
  Model model = Model::oscillator;
  std::int64_t n = 0;
  int spread = 1;

  std::string name() const {
    std::ostringstream s;
    s << (model == Model::lorenz ? "lorenz"
          : spread == 1          ? "uniform"
                                 : "spread-" + std::to_string(spread))
      << " n=" << n;
    return s.str();
  }
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

inline std::string help_text() {
  std::ostringstream h;
  h << "usage: eagle-simulate [--arms A,B,...] [--batches B,...] [--budget SECONDS] [--repetitions N]\n"
       "                      [--out PREFIX] [--model] [--help]\n\n"
       "Runs arms against batches on Kokkos' default execution space and prints, for each batch, the\n"
       "fastest arm and its closest rivals (median times). Writes PREFIX.json, PREFIX.csv and\n"
       "PREFIX-times.svg, PREFIX-launches-by-k.svg.\n\n"
       "  --arms       arms to run (default: all that apply):\n";
  for (const ArmInfo& a : arm_catalogue()) h << "                 " << a.name << ": " << a.what << "\n";
  h << "  --batches    batches, each MODEL:N:SPREAD or N:SPREAD (oscillator), N like 1e5 or 100000,\n"
       "               SPREAD uniform, spread-100 or spread-1000; lorenz:N is the Boost.Odeint peer batch\n"
       "               (default: 1e3,1e4,1e5,1e6 x uniform,spread-100,spread-1000 and lorenz:1e5)\n"
       "  --budget     seconds for all measurements (default 30): decides the repetitions\n"
       "  --repetitions  at most this many timed runs per arm and batch (default 5)\n"
       "  --out        prefix of the output files (default eagle-simulate)\n"
       "  --model      also fit the cost model and predict the arms on GPU profiles\n";
  return h.str();
}

namespace detail {

/// A positive sample count: digits, or a mantissa and exponent like 1e5; at most 2^31 - 1.
inline std::int64_t parse_count(const std::string& text) {
  if (text.empty() || text.size() > 32 || text.find_first_not_of("0123456789eE.") != std::string::npos) {
    throw UsageError("eagle-simulate: '" + text + "' is not a sample count (like 1000 or 1e5)");
  }
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !(value >= 1.0) || value > 2147483647.0 || value != std::floor(value)) {
    throw UsageError("eagle-simulate: '" + text + "' is not a sample count between 1 and 2^31 - 1");
  }
  return static_cast<std::int64_t>(value);
}

inline int parse_spread(const std::string& text) {
  if (text == "uniform") return 1;
  if (text == "spread-100") return 100;
  if (text == "spread-1000") return 1000;
  throw UsageError("eagle-simulate: unknown spread '" + text + "' (uniform, spread-100 or spread-1000)");
}

inline std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, by)) parts.push_back(part);
  if (!text.empty() && text.back() == by) parts.emplace_back();
  return parts;
}

inline BatchSpec parse_batch(const std::string& text) {
  const std::vector<std::string> p = split(text, ':');
  BatchSpec b;
  if (p.size() == 2 && p[0] == "lorenz") {
    b.model = Model::lorenz;
    b.n = parse_count(p[1]);
  } else if (p.size() == 2) {
    b.n = parse_count(p[0]);
    b.spread = parse_spread(p[1]);
  } else if (p.size() == 3 && p[0] == "oscillator") {
    b.n = parse_count(p[1]);
    b.spread = parse_spread(p[2]);
  } else {
    throw UsageError("eagle-simulate: batch '" + text + "' is not N:SPREAD, oscillator:N:SPREAD or lorenz:N");
  }
  return b;
}

inline std::vector<BatchSpec> default_batches() {
  std::vector<BatchSpec> all;
  for (int spread : {1, 100, 1000}) {
    for (std::int64_t n : {1000, 10000, 100000, 1000000}) all.push_back({Model::oscillator, n, spread});
  }
  all.push_back({Model::lorenz, 100000, 1});
  return all;
}

}  // namespace detail

/// Parses the arguments after the program name; throws UsageError naming the first problem.
inline Options parse_args(const std::vector<std::string>& args) {
  Options o;
  bool batches_given = false;
  bool arms_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError("eagle-simulate: " + flag + " needs a value (see --help)");
      return args[++i];
    };
    if (flag == "--help" || flag == "-h") {
      o.help = true;
    } else if (flag == "--arms") {
      arms_given = true;
      o.arms.clear();
      for (const std::string& name : detail::split(value(), ',')) {
        const auto& c = arm_catalogue();
        if (std::none_of(c.begin(), c.end(), [&](const ArmInfo& a) { return name == a.name; })) {
          throw UsageError("eagle-simulate: unknown arm '" + name + "' (see --help for the list)");
        }
        if (std::find(o.arms.begin(), o.arms.end(), name) == o.arms.end()) o.arms.push_back(name);
      }
    } else if (flag == "--batches") {
      batches_given = true;
      o.batches.clear();
      for (const std::string& b : detail::split(value(), ',')) o.batches.push_back(detail::parse_batch(b));
    } else if (flag == "--budget") {
      const std::string& text = value();
      char* end = nullptr;
      const double seconds = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(seconds > 0.0) || seconds > 86400.0) {
        throw UsageError("eagle-simulate: --budget needs seconds between 0 and 86400, got '" + text + "'");
      }
      o.budget_seconds = seconds;
    } else if (flag == "--repetitions") {
      const std::string& text = value();
      if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos ||
          std::stoi(text) < 1 || std::stoi(text) > 100) {
        throw UsageError("eagle-simulate: --repetitions needs an integer from 1 to 100, got '" + text + "'");
      }
      o.max_repetitions = std::stoi(text);
    } else if (flag == "--out") {
      o.out_prefix = value();
      if (o.out_prefix.empty()) throw UsageError("eagle-simulate: --out needs a non-empty prefix");
    } else if (flag == "--model") {
      o.model = true;
    } else {
      throw UsageError("eagle-simulate: unknown argument '" + flag + "' (see --help)");
    }
  }
  if (arms_given && o.arms.empty()) throw UsageError("eagle-simulate: --arms lists no arm");
  if (!arms_given) {
    for (const ArmInfo& a : arm_catalogue()) o.arms.push_back(a.name);
  }
  if (!batches_given) o.batches = detail::default_batches();
  if (o.batches.empty()) throw UsageError("eagle-simulate: --batches lists no batch");
  return o;
}

}  // namespace eagle::simulate
