#!/bin/sh
# A batch job's last minutes across ranks: the scheduler's warning (SIGUSR1, sent to mpirun, which
# passes it to every rank) stops each rank after its launch with a checkpoint, and the job ends
# well; a second job resumed from every rank's checkpoint must end bit-identical to one process
# running the whole batch (Mpi.DISABLED_JobWarnedBeforeItsEnd and Mpi.DISABLED_JobResumed).
#   signal_and_resume.sh MPIEXEC TEST_BINARY FOLDER [mpiexec options...]
set -u
mpiexec=$1 binary=$2 folder=$3
shift 3
rm -rf "$folder" && mkdir -p "$folder" || exit 1
export EAGLE_MPI_CHECKPOINT="$folder/run.ckpt"
"$mpiexec" -np 2 "$@" "$binary" --gtest_filter=Mpi.DISABLED_JobWarnedBeforeItsEnd --gtest_also_run_disabled_tests \
  > "$folder/warned.log" 2>&1 &
job=$!
tries=0
until [ -e "$folder/run.ckpt.started.rank0" ] && [ -e "$folder/run.ckpt.started.rank1" ]; do
  tries=$((tries + 1))
  if [ $tries -gt 600 ]; then
    echo "signal_and_resume: the ranks never started launching" >&2
    kill "$job"
    cat "$folder/warned.log" >&2
    exit 1
  fi
  sleep 0.1
done
kill -USR1 "$job"
if ! wait "$job"; then
  echo "signal_and_resume: the warned job failed" >&2
  cat "$folder/warned.log" >&2
  exit 1
fi
ls "$folder"/run.ckpt.rank0 "$folder"/run.ckpt.rank1 || exit 1
exec "$mpiexec" -np 2 "$@" "$binary" --gtest_filter=Mpi.DISABLED_JobResumed --gtest_also_run_disabled_tests
