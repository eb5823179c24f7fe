// Eagle::mpi from a user's code: each rank runs its balanced part of one batch, the job's report
// is reduced once, and every rank checks its samples against the serial loop.

#include "decay.hpp"

#include <eagle/eagle.hpp>
#include <eagle/mpi.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int ok = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const std::int64_t total = 1001;  // odd: the parts differ in size
    // [snippet partition]
    const eagle::Partition part = eagle::mpi::partition(MPI_COMM_WORLD, total);  // balanced, contiguous
    Kokkos::View<double*> y("y", part.size()), lambda("lambda", part.size());
    Kokkos::deep_copy(y, 1.0);
    auto lambda_host = Kokkos::create_mirror_view(lambda);
    for (std::int64_t i = 0; i < part.size(); ++i) lambda_host(i) = decay_rate(part.begin + i);
    Kokkos::deep_copy(lambda, lambda_host);

    const Decay model;
    // reports.local: this rank's report; reports.global: the job's, reduced once
    const eagle::mpi::Reports reports = eagle::mpi::run_until_done(
        MPI_COMM_WORLD, part, Kokkos::DefaultExecutionSpace(), eagle::deploy(model, eagle::Steps::automatic()),
        eagle::state(y), eagle::inputs(lambda), 100000);
    // [snippet end]

    auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    int wrong = 0;
    for (std::int64_t i = 0; i < part.size(); ++i) wrong += y_host(i) != decay_reference(model, lambda_host(i)).y;
    // The slowest sample of the whole batch is the first one (the smallest rate).
    const std::int64_t longest = decay_reference(model, decay_rate(0)).steps;
    int mine_ok = wrong == 0 && reports.global.finished == total && reports.global.longest_sample_steps == longest;
    MPI_Allreduce(&mine_ok, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (eagle::mpi::rank_of(MPI_COMM_WORLD) == 0) {
      std::printf("eagle-consumer-mpi: %s; %s\n", ok ? "ok" : "FAILED", reports.global.summary().c_str());
    }
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
