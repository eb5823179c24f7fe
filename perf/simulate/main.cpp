// eagle-simulate: arms against batches on Kokkos' default execution space; prints the fastest arm
// per batch and writes JSON, CSV and SVG. `eagle-simulate --help` explains the options. Built with
// MPI, `mpirun -np R eagle-simulate ...` shares every batch among R ranks (contiguous parts) and
// rank 0 writes one set of outputs for the job.

#include <eagle/simulate/args.hpp>
#include <eagle/simulate/measure.hpp>
#include <eagle/simulate/outputs.hpp>
#include <eagle/thread_binding.hpp>
#include <plots/bar_chart.hpp>

#include <Kokkos_Core.hpp>
#if defined(EAGLE_SIMULATE_HAS_MPI)
#include <mpi.h>
#include <eagle/mpi.hpp>
#endif

#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <vector>

namespace {

namespace sim = eagle::simulate;

#if defined(EAGLE_SIMULATE_HAS_MPI)
/// The job over MPI_COMM_WORLD.
sim::Collective world() {
  sim::Collective job;
  job.rank = eagle::mpi::rank_of(MPI_COMM_WORLD);
  job.ranks = eagle::mpi::size_of(MPI_COMM_WORLD);
  job.barrier = [] { MPI_Barrier(MPI_COMM_WORLD); };
  const auto reduce = [](double x, MPI_Op op) {
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
    return x;
  };
  job.max = [reduce](double x) { return reduce(x, MPI_MAX); };
  job.sum = [reduce](double x) { return reduce(x, MPI_SUM); };
  job.agree = [](bool x) {
    int value = x ? 1 : 0;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return value != 0;
  };
  job.sum_counts = [](const std::map<std::int64_t, std::int64_t>& m) {
    return eagle::mpi::detail::sum_maps(MPI_COMM_WORLD, m);
  };
  job.gather = [ranks = job.ranks](const std::vector<double>& mine) {
    std::vector<int> counts(ranks), offsets(ranks);
    const int count = static_cast<int>(mine.size());
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < ranks; ++r) {
      offsets[r] = total;
      total += counts[r];
    }
    std::vector<double> all(static_cast<std::size_t>(total));
    MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE,
                   MPI_COMM_WORLD);
    return all;
  };
  return job;
}

/// MPI around the whole program, so that every return path finalises it.
struct MpiSession {
  MpiSession(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
  ~MpiSession() { MPI_Finalize(); }
};
#endif

}  // namespace

int main(int argc, char* argv[]) {
  eagle::bind_threads_by_default(argv);
#if defined(EAGLE_SIMULATE_HAS_MPI)
  const MpiSession mpi(argc, argv);
  const sim::Collective job = world();
#else
  const sim::Collective job;
#endif
  sim::Options options;
  try {
    options = sim::parse_args(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const sim::UsageError& e) {
    if (job.rank == 0) std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  if (options.help) {
    if (job.rank == 0) std::printf("%s", sim::help_text().c_str());
    return 0;
  }
  // Refuse an unwritable output path before spending the budget (rank 0 writes the outputs).
  const std::string json_path = options.out_prefix + ".json";
  bool writable = true;
  if (job.rank == 0) {
    try {
      eagle::perf::write_file(json_path, "");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "eagle-simulate: %s, before any run\n", e.what());
      writable = false;
    }
  }
  if (!job.agree(writable)) return 1;

  Kokkos::ScopeGuard kokkos(argc, argv);
  using Space = Kokkos::DefaultExecutionSpace;
  if (job.rank == 0) {
    std::fprintf(stderr, "eagle-simulate: %zu arms x %zu batches on %s x %d ranks, budget %.0f s\n",
                 options.arms.size(), options.batches.size(), Space::name(), job.ranks, options.budget_seconds);
  }
  const sim::Results results = sim::measure<Space>(options, stderr, job);
  if (job.rank != 0) return 0;

  std::printf("\nMeasured on %s x %d ranks (medians, %.1f s of measurements):\n\n%s", Space::name(), job.ranks,
              results.elapsed_seconds, sim::table(results).c_str());
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
