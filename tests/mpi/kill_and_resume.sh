#!/bin/sh
# Checkpoints across ranks, end to end: a job of 2 ranks whose last rank is killed with SIGKILL
# mid-run must fail, and the same job resumed from every rank's last checkpoint must pass (its
# states bit-identical to one process running the whole batch; see Mpi.DISABLED_Job* in
# mpi_test.cpp).
#   kill_and_resume.sh MPIEXEC TEST_BINARY FOLDER [mpiexec options...]
set -u
mpiexec=$1 binary=$2 folder=$3
shift 3
rm -rf "$folder" && mkdir -p "$folder" || exit 1
export EAGLE_MPI_CHECKPOINT="$folder/run.ckpt"
if "$mpiexec" -np 2 "$@" "$binary" --gtest_filter=Mpi.DISABLED_JobKilledMidRun --gtest_also_run_disabled_tests \
  > "$folder/killed.log" 2>&1; then
  echo "kill_and_resume: the job whose rank was killed ended well" >&2
  exit 1
fi
ls "$folder"/run.ckpt.rank0 "$folder"/run.ckpt.rank1 || exit 1
exec "$mpiexec" -np 2 "$@" "$binary" --gtest_filter=Mpi.DISABLED_JobResumed --gtest_also_run_disabled_tests
