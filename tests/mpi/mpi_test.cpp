// eagle across ranks (run with mpirun -np 1, 2 and 3): every rank's part, run by eagle::mpi,
// gathered in the global sample order, is bit-identical to one process running the whole batch,
// and the reduced report agrees with that run.

#include "../unit/batch.hpp"
#include "../unit/spin_batch.hpp"
#include "../unit/walk_model.hpp"

#include <eagle/eagle.hpp>
#include <eagle/mpi.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace eagle::test {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
constexpr std::int64_t max_steps = 3000;

/// The whole batch run in this process: the reference every rank compares against.
struct Reference {
  HostBatch end;
  ReferenceOutcome outcome;
  std::int64_t work = 0, finished = 0;
};
Reference reference(const HostBatch& start) {
  Reference r{start, {}, 0, 0};
  r.outcome = reference_run(Spin{}, r.end, max_steps);
  for (std::size_t i = 0; i < r.outcome.steps.size(); ++i) {
    r.work += r.outcome.steps[i];
    r.finished += r.outcome.status[i] == status::running ? 0 : 1;
  }
  return r;
}

/// This rank's slice of the global batch as host planes.
struct Slice {
  Slice(const HostBatch& b, const Partition& p) {
    for (int f = 0; f < Spin::state_count; ++f) state.planes[f] = host_plane(b.state[f], p);
    for (int f = 0; f < Spin::input_count; ++f) in.planes[f] = host_plane(b.inputs[f], p);
  }
  static Kokkos::View<double*, Kokkos::HostSpace> host_plane(const std::vector<double>& v, const Partition& p) {
    Kokkos::View<double*, Kokkos::HostSpace> out("slice", p.size());
    std::copy(v.begin() + p.begin, v.begin() + p.end, out.data());
    return out;
  }
  Fields<double, Spin::state_count, Kokkos::HostSpace> state;
  Fields<const double, Spin::input_count, Kokkos::HostSpace> in;
};

/// Gathers every rank's state planes on every rank, in the global order, as bit patterns.
std::vector<std::vector<std::uint64_t>> gathered(const Slice& s, const Partition& p) {
  const int ranks = mpi::size_of(MPI_COMM_WORLD);
  std::vector<int> counts(ranks), offsets(ranks);
  const int mine = static_cast<int>(p.size());
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 1; r < ranks; ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
  std::vector<std::vector<double>> planes;
  for (int f = 0; f < Spin::state_count; ++f) {
    std::vector<double> all(static_cast<std::size_t>(p.total));
    MPI_Allgatherv(s.state.planes[f].data(), mine, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE,
                   MPI_COMM_WORLD);
    planes.push_back(all);
  }
  return bits(planes);
}

/// Launch counts the job must report, from runs of its pieces in this process: the most launches
/// any rank made (ranks run side by side), and launches by K summed over every piece.
struct PieceLaunches {
  std::int64_t most = 0;
  std::map<std::int64_t, std::int64_t> by_k;
};

/// Each rank's part of `start` (and, with `chunk` > 0, each chunk of it) run here on its own.
template <class Model>
PieceLaunches piece_launches(const HostBatch& start, const Deployed<Model>& deployed, std::int64_t chunk = 0,
                             const RunOptions& options = {}) {
  PieceLaunches expected;
  const int ranks = mpi::size_of(MPI_COMM_WORLD);
  const auto total = static_cast<std::int64_t>(start.state[0].size());
  for (int rank = 0; rank < ranks; ++rank) {
    const Partition part = Partition::balanced(rank, ranks, total);
    const std::int64_t step = chunk > 0 ? chunk : std::max<std::int64_t>(part.size(), 1);
    std::int64_t launches = 0;
    for (std::int64_t begin = part.begin; begin < part.end; begin += step) {
      const Slice s(start, Partition(begin, std::min(part.end, begin + step), total));
      const Report one = run_until_done(Host(), deployed, s.state, s.in, max_steps, options);
      launches += one.launches;
      for (const auto& [k, count] : one.launches_by_k) expected.by_k[k] += count;
    }
    expected.most = std::max(expected.most, launches);
  }
  return expected;
}

void expect_like_one_process(const mpi::Reports& r, const Slice& s, const Reference& ref) {
  EXPECT_EQ(gathered(s, r.part), bits(ref.end.state));
  EXPECT_EQ(r.global.samples, r.part.total);
  EXPECT_EQ(r.global.sample_steps, ref.work);
  EXPECT_EQ(r.global.finished, ref.finished);
  EXPECT_EQ(r.global.unfinished, r.part.total - ref.finished);
}

HostBatch batch(std::int64_t n) {
  HostBatch b = spin_batch(kernels::Spread::x1000, n, 3.0);
  b.terminated.assign(static_cast<std::size_t>(n), false);  // the MPI runs take no entry flags
  return b;
}

TEST(Mpi, EachRankItsPartMatchesOneProcess) {
  const HostBatch start = batch(3001);
  const Reference ref = reference(start);
  for (auto nest : {LoopNest::per_sample, LoopNest::tile}) {
    const Partition part = mpi::partition(MPI_COMM_WORLD, 3001);
    const Slice s(start, part);
    const mpi::Reports r =
        mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deploy(Spin{}, 5, nest), s.state, s.in, max_steps);
    expect_like_one_process(r, s, ref);
    const PieceLaunches expected = piece_launches(start, deploy(Spin{}, 5, nest));
    EXPECT_EQ(r.global.launches, expected.most);
    EXPECT_EQ(r.global.launches_by_k, expected.by_k);
  }
}

TEST(Mpi, EachStepSeesItsSamplesIndexInTheWholeBatch) {
  constexpr std::int64_t n = 1001, cap = 250;
  HostBatch whole{{std::vector<double>(n, 0.0)}, {}, std::vector<bool>(n, false)};
  reference_run(Walk{}, whole, cap);
  const Partition part = mpi::partition(MPI_COMM_WORLD, n);
  for (const bool balanced : {false, true}) {
    SCOPED_TRACE(balanced ? "run_balanced (chunks move between ranks)" : "run_until_done");
    const Kokkos::View<double*, Kokkos::HostSpace> x("x", static_cast<std::size_t>(part.size()));
    if (balanced) {
      mpi::run_balanced(MPI_COMM_WORLD, part, Host(), deploy(Walk{}), state(x),
                        Fields<const double, 0, Kokkos::HostSpace>{}, cap, 64);
    } else {
      mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deploy(Walk{}), state(x), no_inputs, cap);
    }
    for (std::int64_t i = 0; i < part.size(); ++i)
      EXPECT_EQ(x(i), whole.state[0][static_cast<std::size_t>(part.begin + i)]) << "sample " << part.begin + i;
  }
}

TEST(Mpi, BalancedRanksStealFromTheSlowOneAndMatchOneProcess) {
  // The longest samples first: rank 0 holds most of the work, the others finish early and steal.
  HostBatch start = batch(4000);
  std::sort(start.inputs[Spin::length].begin(), start.inputs[Spin::length].end(), std::greater<>());
  const Reference ref = reference(start);
  const Partition part = mpi::partition(MPI_COMM_WORLD, 4000);
  const Slice s(start, part);
  // Compaction costs given, not measured: auto's K follows the slots compaction leaves, and
  // measured costs could differ between this process's pieces and the job's.
  RunOptions o;
  o.compaction_costs = CompactionCosts{1e-9, 2e-10, 1e-9, 1e-10, 5e-6, "given by the test"};
  const auto deployed = deploy(Spin{}, Steps::automatic());
  const mpi::Reports r = mpi::run_balanced(MPI_COMM_WORLD, part, Host(), deployed, s.state, s.in, max_steps, 64, o);
  expect_like_one_process(r, s, ref);
  // Who ran which chunk varies; what each chunk's run launched does not.
  EXPECT_EQ(r.global.launches_by_k, piece_launches(start, deployed, 64, o).by_k);
  if (mpi::size_of(MPI_COMM_WORLD) > 1) {
    EXPECT_GT(r.chunks_stolen_global, 0);
  } else {
    EXPECT_EQ(r.chunks_stolen_global, 0);
  }
}

TEST(Mpi, BalancedReportSumsEveryCounterOverTheChunks) {
  // Reorders inside each chunk's run: the job's rows moved and slots scanned are the sums over all
  // chunks, each chunk run here on its own as the reference.
  const std::int64_t total = 3000, chunk = 256;
  const HostBatch start = batch(total);
  RunOptions o;
  o.compaction = Compaction::reorder;
  const auto deployed = deploy(Spin{}, 5, LoopNest::per_sample);
  const int ranks = mpi::size_of(MPI_COMM_WORLD);
  std::int64_t moved = 0, scanned = 0, launches = 0;
  for (int rank = 0; rank < ranks; ++rank) {
    const Partition part = Partition::balanced(rank, ranks, total);
    for (std::int64_t begin = part.begin; begin < part.end; begin += chunk) {
      const Partition piece(begin, std::min(part.end, begin + chunk), total);
      const Slice s(start, piece);
      const Report one = run_until_done(Host(), deployed, s.state, s.in, max_steps, o);
      moved += one.rows_moved;
      scanned += one.scanned_slots;
      launches += one.launches;
    }
  }
  ASSERT_GT(moved, 0);
  const Partition part = mpi::partition(MPI_COMM_WORLD, total);
  const Slice s(start, part);
  const mpi::Reports r = mpi::run_balanced(MPI_COMM_WORLD, part, Host(), deployed, s.state, s.in, max_steps, chunk, o);
  EXPECT_EQ(r.global.rows_moved, moved);
  EXPECT_EQ(r.global.scanned_slots, scanned);
  std::int64_t local_launches = r.local.launches;  // a rank's chunks run one after another: summed
  MPI_Allreduce(MPI_IN_PLACE, &local_launches, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(local_launches, launches);
}

/// Runs `deployed` on this rank's part of `start` with a checkpoint at `path` every `every`
/// launches, interrupted by an exception at launch `stop` on every rank.
template <class Model>
void interrupted_job(const HostBatch& start, const Partition& part, const Deployed<Model>& deployed,
                     const std::string& path, std::int64_t every, std::int64_t stop) {
  const Slice s(start, part);
  RunOptions o;
  o.checkpoint.path = path;
  o.checkpoint.every_launches = every;
  o.observer = [stop](const Progress& p) {
    if (p.launch == stop) throw std::runtime_error("interrupted");
  };
  EXPECT_THROW(mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deployed, s.state, s.in, max_steps, o),
               std::runtime_error);
}

/// A folder every rank sees, made by rank 0.
std::string shared_folder() {
  char path[256] = {};
  if (mpi::rank_of(MPI_COMM_WORLD) == 0) {
    std::snprintf(path, sizeof path, "%s/eagle-mpi-checkpoint-XXXXXX",
                  std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
    if (::mkdtemp(path) == nullptr) path[0] = '\0';
  }
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  return path;
}

TEST(Mpi, CheckpointsAreOneFilePerRankAndResumeBitIdentical) {
  const HostBatch start = batch(3001);
  const Reference ref = reference(start);
  const std::string path = shared_folder() + "/run.ckpt";
  ASSERT_NE(path, "/run.ckpt");
  const Partition part = mpi::partition(MPI_COMM_WORLD, 3001);
  const auto deployed = deploy(Spin{}, 5, LoopNest::per_sample);
  interrupted_job(start, part, deployed, path, /*every=*/2, /*stop=*/5);
  const Slice s(start, part);
  const int rank = mpi::rank_of(MPI_COMM_WORLD);
  EXPECT_EQ(read_checkpoint_file(path + ".rank" + std::to_string(rank)).history.size(), 4u);
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << "no rank writes the shared name";

  RunOptions again;
  again.resume_from = path;
  const mpi::Reports r = mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deployed, s.state, s.in, max_steps, again);
  EXPECT_EQ(r.local.note, "resumed after launch 4");
  expect_like_one_process(r, s, ref);
}

TEST(Mpi, ResumeWithAnotherPartitionOrRankCountIsRefusedByName) {
  const std::int64_t total = 3001;
  const HostBatch start = batch(total + 1);
  const std::string path = shared_folder() + "/run.ckpt";
  const Partition part = mpi::partition(MPI_COMM_WORLD, total);
  interrupted_job(start, part, deploy(Spin{}, 5), path, /*every=*/1, /*stop=*/2);
  const int rank = mpi::rank_of(MPI_COMM_WORLD), ranks = mpi::size_of(MPI_COMM_WORLD);
  RunOptions resume;
  resume.resume_from = path;
  const auto expect_refused = [&](MPI_Comm comm, const Partition& other, const std::string& theirs) {
    const Slice s(start, other);
    const auto first_plane = [&] {
      const double* x = s.state.planes[0].data();
      return bits(std::vector<std::vector<double>>{std::vector<double>(x, x + other.size())});
    };
    const auto before = first_plane();
    try {
      mpi::run_until_done(comm, other, Host(), deploy(Spin{}, 5), s.state, s.in, max_steps, resume);
      ADD_FAILURE() << "resumed";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("was written for part " + theirs + ", this run has " +
                                           mpi::detail::describe_part(other, mpi::rank_of(comm), mpi::size_of(comm))),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(first_plane(), before);
  };
  const std::string mine = mpi::detail::describe_part(part, rank, ranks);
  // The same ranks over a batch of another size: every part differs.
  expect_refused(MPI_COMM_WORLD, mpi::partition(MPI_COMM_WORLD, total + 1), mine);
  if (ranks > 1) {  // one rank fewer: the last one sits out
    MPI_Comm fewer;
    MPI_Comm_split(MPI_COMM_WORLD, rank < ranks - 1 ? 0 : MPI_UNDEFINED, rank, &fewer);
    if (fewer != MPI_COMM_NULL) {
      expect_refused(fewer, mpi::partition(fewer, total), mine);
      MPI_Comm_free(&fewer);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// The two halves of the kill-and-resume check, run by tests/mpi/kill_and_resume.sh as two mpirun
// jobs (disabled: never part of a plain run). The first job checkpoints every launch; its last
// rank kills itself with SIGKILL after launch 10, and mpirun ends the others wherever they are
// (mid-launch, mid-write). The second job resumes every rank from its own last checkpoint and
// must end bit-identical to one process running the whole batch.
constexpr std::int64_t killed_batch = 3001;

/// What the scripted jobs share: the checkpoint path their script gives, the batch, this rank's
/// part of it and that part's planes.
struct ScriptedJob {
  const char* path = std::getenv("EAGLE_MPI_CHECKPOINT");
  HostBatch start = batch(killed_batch);
  Partition part = mpi::partition(MPI_COMM_WORLD, killed_batch);
  Slice s{start, part};
};

TEST(Mpi, DISABLED_JobKilledMidRun) {
  const ScriptedJob job;
  const char* path = job.path;
  ASSERT_NE(path, nullptr) << "run by tests/mpi/kill_and_resume.sh only";
  const Partition& part = job.part;
  const Slice& s = job.s;
  const bool victim = mpi::rank_of(MPI_COMM_WORLD) == mpi::size_of(MPI_COMM_WORLD) - 1;
  RunOptions o;
  o.checkpoint.path = path;
  o.checkpoint.every_launches = 1;
  o.observer = [victim](const Progress& p) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (victim && p.launch == 10) ::raise(SIGKILL);
  };
  mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deploy(Spin{}, 2, LoopNest::per_sample), s.state, s.in, max_steps,
                      o);
}

// The first half of tests/mpi/signal_and_resume.sh: a job a scheduler warns before its end (SIGUSR1
// to mpirun, which passes it to every rank). Each rank stops after its launch with a checkpoint
// and reports itself interrupted; the job ends well, and DISABLED_JobResumed continues it.
TEST(Mpi, DISABLED_JobWarnedBeforeItsEnd) {
  const ScriptedJob job;
  const char* path = job.path;
  ASSERT_NE(path, nullptr) << "run by tests/mpi/signal_and_resume.sh only";
  const Partition& part = job.part;
  const Slice& s = job.s;
  const int rank = mpi::rank_of(MPI_COMM_WORLD);
  const std::string started = std::string(path) + ".started.rank" + std::to_string(rank);
  RunOptions o;
  o.checkpoint.path = path;
  o.checkpoint.on_signal = SIGUSR1;
  o.observer = [&](const Progress& p) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (p.launch == 3) std::ofstream(started) << "launching\n";  // the script sends the signal once both are
  };
  const mpi::Reports r = mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deploy(Spin{}, 2, LoopNest::per_sample),
                                             s.state, s.in, max_steps, o);
  EXPECT_TRUE(r.local.interrupted) << r.local.summary();
  EXPECT_TRUE(r.global.interrupted);
  EXPECT_FALSE(r.global.capped);
  EXPECT_GT(r.global.unfinished, 0);
  const std::string mine = std::string(path) + ".rank" + std::to_string(rank);
  EXPECT_EQ(static_cast<std::int64_t>(read_checkpoint_file(mine).history.size()), r.local.launches);
}

TEST(Mpi, DISABLED_JobResumed) {
  const ScriptedJob job;
  ASSERT_NE(job.path, nullptr) << "run by tests/mpi/kill_and_resume.sh or signal_and_resume.sh only";
  const char* path = job.path;
  const Reference ref = reference(job.start);
  const Partition& part = job.part;
  const Slice& s = job.s;
  RunOptions o;
  o.resume_from = path;
  const mpi::Reports r = mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deploy(Spin{}, 2, LoopNest::per_sample),
                                             s.state, s.in, max_steps, o);
  EXPECT_EQ(r.local.note.rfind("resumed after launch ", 0), 0u) << r.local.note;
  expect_like_one_process(r, s, ref);
}

TEST(Mpi, ARankWithNothingToDoTakesPart) {
  const int ranks = mpi::size_of(MPI_COMM_WORLD);
  const std::int64_t n = ranks - 1;  // the last rank holds no sample
  const HostBatch start = batch(std::max<std::int64_t>(n, 1));
  HostBatch trimmed = start;
  for (auto& p : trimmed.state) p.resize(static_cast<std::size_t>(n));
  for (auto& p : trimmed.inputs) p.resize(static_cast<std::size_t>(n));
  trimmed.terminated.resize(static_cast<std::size_t>(n));
  const Reference ref = reference(trimmed);
  const Partition part = mpi::partition(MPI_COMM_WORLD, n);
  const Slice s(trimmed, part);
  const mpi::Reports r = mpi::run_until_done(MPI_COMM_WORLD, part, Host(), deploy(Spin{}, 2), s.state, s.in, max_steps);
  EXPECT_EQ(r.global.launches, piece_launches(trimmed, deploy(Spin{}, 2)).most);
  if (part.size() == 0) {
    EXPECT_EQ(r.local.note, "no samples: no launch");
    EXPECT_EQ(r.global.note, "this rank held no samples");
  }
  expect_like_one_process(r, s, ref);
}

}  // namespace
}  // namespace eagle::test
