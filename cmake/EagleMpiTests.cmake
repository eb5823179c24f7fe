# How eagle's tests run MPI programs, under mpirun or as singletons (an MPI build's eagle-simulate
# initialises MPI even when started alone).
#
# OpenMPI refuses root and more ranks than cores unless told (CI runs as root on 2 cores). One MPI
# job at a time: OpenMPI 4.1 creates its session folder /tmp/ompi.<host>.<uid> at every start, and
# of two jobs starting at once under `ctest -j` the second can fail at MPI_Init with "File exists".
# (A session folder per test would need a short path: PMIx puts its sockets there, 108 bytes at most.)
function(eagle_mpi_test_environment test)
  set(env OMP_NUM_THREADS=1 OMP_PROC_BIND=false OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
          OMPI_MCA_rmaps_base_oversubscribe=1 ${ARGN})
  set_tests_properties(${test} PROPERTIES ENVIRONMENT "${env}" RESOURCE_LOCK eagle_mpi_session)
endfunction()
