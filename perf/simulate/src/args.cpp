// eagle-simulate's command line over CLI11: CLI11 splits the arguments (--flag value, --flag=value,
// repeated flags: the last counts); eagle checks each value and words every refusal itself, so the
// messages stay those docs/RUNS.md and the tests name.

#include <eagle/simulate/args.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <sstream>

namespace eagle::simulate {

const std::vector<ArmInfo>& arm_catalogue() {
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

namespace {

const ArmInfo* find_arm(const std::string& name) {
  const auto& c = arm_catalogue();
  const auto it = std::find_if(c.begin(), c.end(), [&](const ArmInfo& a) { return name == a.name; });
  return it == c.end() ? nullptr : &*it;
}

}  // namespace

const ArmInfo& arm_info(const std::string& name) {
  const ArmInfo* arm = find_arm(name);
  if (arm == nullptr) throw std::invalid_argument("eagle-simulate: no arm named '" + name + "'");
  return *arm;
}

std::string BatchSpec::name() const {
  std::ostringstream s;
  s << (model == Model::lorenz ? "lorenz" : spread == 1 ? "uniform" : "spread-" + std::to_string(spread)) << " n=" << n;
  return s.str();
}

std::string help_text() {
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

namespace {

/// A positive sample count: digits, or a mantissa and exponent like 1e5; at most 2^31 - 1.
std::int64_t parse_count(const std::string& text) {
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

int parse_spread(const std::string& text) {
  if (text == "uniform") return 1;
  if (text == "spread-100") return 100;
  if (text == "spread-1000") return 1000;
  throw UsageError("eagle-simulate: unknown spread '" + text + "' (uniform, spread-100 or spread-1000)");
}

/// `text` split at each `by`; an empty text is one empty part, a trailing `by` ends with one.
std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, by)) parts.push_back(part);
  if (!text.empty() && text.back() == by) parts.emplace_back();
  return parts;
}

BatchSpec parse_batch(const std::string& text) {
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

std::vector<BatchSpec> default_batches() {
  std::vector<BatchSpec> all;
  for (int spread : {1, 100, 1000}) {
    for (std::int64_t n : {1000, 10000, 100000, 1000000}) all.push_back({Model::oscillator, n, spread});
  }
  all.push_back({Model::lorenz, 100000, 1});
  return all;
}

std::vector<std::string> parse_arms(const std::string& text) {
  std::vector<std::string> arms;
  for (const std::string& name : split(text, ',')) {
    if (find_arm(name) == nullptr)
      throw UsageError("eagle-simulate: unknown arm '" + name + "' (see --help for the list)");
    if (std::find(arms.begin(), arms.end(), name) == arms.end()) arms.push_back(name);
  }
  if (arms.empty()) throw UsageError("eagle-simulate: --arms lists no arm");
  return arms;
}

std::vector<BatchSpec> parse_batches(const std::string& text) {
  std::vector<BatchSpec> batches;
  for (const std::string& b : split(text, ',')) batches.push_back(parse_batch(b));
  if (batches.empty()) throw UsageError("eagle-simulate: --batches lists no batch");
  return batches;
}

double parse_budget(const std::string& text) {
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(seconds > 0.0) || seconds > 86400.0) {
    throw UsageError("eagle-simulate: --budget needs seconds between 0 and 86400, got '" + text + "'");
  }
  return seconds;
}

int parse_repetitions(const std::string& text) {
  if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(text) < 1 || std::stoi(text) > 100) {
    throw UsageError("eagle-simulate: --repetitions needs an integer from 1 to 100, got '" + text + "'");
  }
  return std::stoi(text);
}

/// What CLI11 records for a flag given without its value: no argument can hold a NUL byte.
const std::string no_value("\0", 1);

/// A flag that takes one value: CLI11 collects what follows it (no_value, when the next argument is
/// another flag or there is none), and `parse` checks it once the whole line is split.
struct ValueFlag {
  const char* name;
  std::function<void(const std::string&)> parse;
  std::vector<std::string> values{};
};

}  // namespace

Options parse_args(const std::vector<std::string>& args) {
  Options o;
  std::vector<ValueFlag> flags = {
      {"--arms", [&](const std::string& v) { o.arms = parse_arms(v); }},
      {"--batches", [&](const std::string& v) { o.batches = parse_batches(v); }},
      {"--budget", [&](const std::string& v) { o.budget_seconds = parse_budget(v); }},
      {"--repetitions", [&](const std::string& v) { o.max_repetitions = parse_repetitions(v); }},
      {"--out",
       [&](const std::string& v) {
         if (v.empty()) throw UsageError("eagle-simulate: --out needs a non-empty prefix");
         o.out_prefix = v;
       }},
  };
  CLI::App app("eagle-simulate");
  app.set_help_flag();  // --help prints eagle's own text (help_text)
  app.allow_extras();   // an unknown argument is refused below, by name
  app.add_flag("-h,--help", o.help);
  app.add_flag("--model", o.model);
  for (ValueFlag& f : flags) {
    // Zero or one value, every occurrence kept: a missing value is named here, not by CLI11.
    app.add_option(f.name, f.values)
        ->expected(0, 1)
        ->default_str(no_value)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::Error& e) {
    throw UsageError(std::string("eagle-simulate: ") + e.what() + " (see --help)");
  }
  if (!app.remaining().empty()) {
    throw UsageError("eagle-simulate: unknown argument '" + app.remaining().front() + "' (see --help)");
  }
  for (const ValueFlag& f : flags) {
    if (f.values.empty()) continue;
    if (std::find(f.values.begin(), f.values.end(), no_value) != f.values.end()) {
      throw UsageError(std::string("eagle-simulate: ") + f.name + " needs a value (see --help)");
    }
    f.parse(f.values.back());
  }
  if (o.arms.empty()) {
    for (const ArmInfo& a : arm_catalogue()) o.arms.push_back(a.name);
  }
  if (o.batches.empty()) o.batches = default_batches();
  return o;
}

}  // namespace eagle::simulate
