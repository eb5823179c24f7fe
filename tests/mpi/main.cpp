// GoogleTest main for the MPI tests: MPI, then Kokkos, around all tests; only rank 0 prints, and
// the exit code says whether any rank failed.
#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  Kokkos::initialize(argc, argv);
  int failed = RUN_ALL_TESTS();
  Kokkos::finalize();
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}
