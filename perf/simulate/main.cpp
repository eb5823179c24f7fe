// eagle-simulate: arms against batches on Kokkos' default execution space; prints the fastest arm
// per batch and writes JSON, CSV and SVG. `eagle-simulate --help` explains the options.

#include "args.hpp"
#include "outputs.hpp"
#include "simulate.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
  namespace sim = eagle::simulate;
  sim::Options options;
  try {
    options = sim::parse_args(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const sim::UsageError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  if (options.help) {
    std::printf("%s", sim::help_text().c_str());
    return 0;
  }
  // Refuse an unwritable output path before spending the budget.
  const std::string json_path = options.out_prefix + ".json";
  try {
    eagle::perf::write_file(json_path, "");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "eagle-simulate: %s, before any run\n", e.what());
    return 1;
  }

  Kokkos::ScopeGuard kokkos(argc, argv);
  using Space = Kokkos::DefaultExecutionSpace;
  std::fprintf(stderr, "eagle-simulate: %zu arms x %zu batches on %s, budget %.0f s\n", options.arms.size(),
               options.batches.size(), Space::name(), options.budget_seconds);
  const sim::Results results = sim::measure<Space>(options, stderr);

  std::printf("\nMeasured on %s (medians, %.1f s of measurements):\n\n%s", Space::name(), results.elapsed_seconds,
              sim::table(results).c_str());
  std::printf("%s", sim::peer_table(results).c_str());
  sim::ModelReport model;
  if (options.model) {
    model = sim::model_report(results);
    std::printf("\n%s", sim::model_table(results, model).c_str());
  }
  eagle::perf::write_file(json_path, sim::to_json(results, options.model ? &model : nullptr));
  eagle::perf::write_file(options.out_prefix + ".csv", sim::to_csv(results));
  eagle::perf::write_file(options.out_prefix + "-times.svg", sim::times_svg(results));
  eagle::perf::write_file(options.out_prefix + "-launches-by-k.svg", sim::launches_svg(results));
  std::printf("\nwrote %s, %s.csv, %s-times.svg, %s-launches-by-k.svg\n", json_path.c_str(), options.out_prefix.c_str(),
              options.out_prefix.c_str(), options.out_prefix.c_str());
  return 0;
}
