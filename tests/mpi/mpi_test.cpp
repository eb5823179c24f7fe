// eagle across ranks (run with mpirun -np 1, 2 and 3): every rank's part, run by eagle::mpi,
// gathered in the global sample order, is bit-identical to one process running the whole batch,
// and the reduced report agrees with that run.

#include "../unit/batch.hpp"
#include "../unit/spin_batch.hpp"

#include <eagle/eagle.hpp>
#include <eagle/mpi.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <functional>
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

void expect_like_one_process(const mpi::Reports& r, const Slice& s, const Reference& ref) {
  EXPECT_EQ(gathered(s, r.part), bits(ref.end.state));
  EXPECT_EQ(r.global.samples, r.part.total);
  EXPECT_EQ(r.global.sample_steps, ref.work);
  EXPECT_EQ(r.global.finished, ref.finished);
  EXPECT_EQ(r.global.unfinished, r.part.total - ref.finished);
  // Launches and steps: the most any rank made; launches by K: every rank's summed.
  std::int64_t launches = r.local.launches, by_k = 0;
  for (const auto& [k, count] : r.local.launches_by_k) by_k += count;
  MPI_Allreduce(MPI_IN_PLACE, &launches, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &by_k, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(r.global.launches, launches);
  std::int64_t global_by_k = 0;
  for (const auto& [k, count] : r.global.launches_by_k) global_by_k += count;
  EXPECT_EQ(global_by_k, by_k);
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
  }
}

TEST(Mpi, BalancedRanksStealFromTheSlowOneAndMatchOneProcess) {
  // The longest samples first: rank 0 holds most of the work, the others finish early and steal.
  HostBatch start = batch(4000);
  std::sort(start.inputs[Spin::length].begin(), start.inputs[Spin::length].end(), std::greater<>());
  const Reference ref = reference(start);
  const Partition part = mpi::partition(MPI_COMM_WORLD, 4000);
  const Slice s(start, part);
  const mpi::Reports r =
      mpi::run_balanced(MPI_COMM_WORLD, part, Host(), deploy(Spin{}, Steps::automatic()), s.state, s.in, max_steps, 64);
  expect_like_one_process(r, s, ref);
  if (mpi::size_of(MPI_COMM_WORLD) > 1) {
    EXPECT_GT(r.chunks_stolen_global, 0);
  } else {
    EXPECT_EQ(r.chunks_stolen_global, 0);
  }
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
  if (part.size() == 0) {
    EXPECT_EQ(r.local.note, "no samples: no launch");
    EXPECT_EQ(r.global.note, "this rank held no samples");
  }
  expect_like_one_process(r, s, ref);
}

}  // namespace
}  // namespace eagle::test
