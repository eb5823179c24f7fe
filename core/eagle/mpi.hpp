#pragma once
// eagle across MPI ranks (optional: include this header and link MPI). Each rank holds a
// contiguous part of the global batch (eagle::Partition::balanced) with its own execution space,
// policy and tiles, and runs it with run_until_done; the reports are then reduced once.
//
// Collectives: none per launch. Every policy eagle has decides from what its own rank saw: K
// (fixed, or auto: the tile's long launches, the device rule from the rank's launch history),
// compaction (the rank's slots) and revival (the rank's window). Only a policy that wanted the same K on every rank
// would need an allreduce per launch, and none does: ranks' launches are independent.
// Dynamic balance (run_balanced) moves work with MPI one-sided operations: the owner of the
// samples takes no part.

#include <eagle/detail/mpi_calls.hpp>
#include <eagle/detail/mpi_reports.hpp>
#include <eagle/detail/mpi_work_stealing.hpp>
#include <eagle/partition.hpp>
#include <eagle/run.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace eagle::mpi {

/// This rank's part of a global batch of `total` samples.
inline Partition partition(MPI_Comm comm, std::int64_t total) {
  return Partition::balanced(rank_of(comm), size_of(comm), total);
}

/// A rank's report and the job's.
struct Reports {
  /// This rank's report.
  Report local;
  /// The job's report: every rank's reduced (eagle::mpi::reduce), the same on every rank.
  Report global;
  /// This rank's part of the batch.
  Partition part{0, 0, 0};
  std::int64_t chunks_stolen = 0;         ///< (run_balanced) chunks this rank ran for other ranks
  std::int64_t chunks_stolen_global = 0;  ///< summed over ranks
};

namespace detail {

/// This rank's own checkpoint file: ranks never write, rename or read one another's.
inline std::string rank_path(const std::string& path, int rank) { return path + ".rank" + std::to_string(rank); }

/// The part of the batch a rank's checkpoint belongs to; a resume must be for the same.
inline std::string describe_part(const Partition& part, int rank, int ranks) {
  return "rank " + std::to_string(rank) + " of " + std::to_string(ranks) + ", samples [" + std::to_string(part.begin) +
         ", " + std::to_string(part.end) + ") of " + std::to_string(part.total);
}

/// Throws unless this rank's planes hold its part of the batch.
template <class Planes>
void require_part(const char* function, const Planes& state, const Partition& part) {
  if (static_cast<std::int64_t>(state.planes[0].extent(0)) != part.size()) {
    throw std::invalid_argument(std::string(function) + ": this rank's planes hold " +
                                std::to_string(state.planes[0].extent(0)) + " samples, its partition " +
                                std::to_string(part.size()));
  }
}

}  // namespace detail

/// run_until_done on this rank's part of the batch (`state`, `inputs`: the rank's planes for
/// `part`), then one reduction of the reports. Collective over `comm`; a rank may hold nothing.
/// Checkpoints are one file per rank (`path.rank<r>`, each written atomically), naming the rank,
/// the rank count and the part; a resume with another rank count or partition is refused by name.
/// Ranks never wait on one another between launches, so each rank's last checkpoint continues its
/// part bit for bit, whichever launch the others saved at. An error on any rank (a refused
/// resume, say) ends the call on every rank.
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs>
Reports run_until_done(MPI_Comm comm, const Partition& part, const ExecSpace& exec, const Deployed<Model>& deployed,
                       const Fields<T, NS, Mem>& state, const Inputs& inputs, std::int64_t max_steps,
                       const RunOptions& options = {}) {
  detail::require_part("eagle::mpi::run_until_done", state, part);
  const int rank = rank_of(comm);
  RunOptions mine = options;
  if (!options.checkpoint.path.empty()) mine.checkpoint.path = detail::rank_path(options.checkpoint.path, rank);
  if (!options.resume_from.empty()) mine.resume_from = detail::rank_path(options.resume_from, rank);
  mine.checkpoint.part = detail::describe_part(part, rank, size_of(comm));
  mine.first_sample = options.first_sample + part.begin;
  Reports r;
  r.part = part;
  detail::on_every_rank(comm, "eagle::mpi::run_until_done",
                        [&] { r.local = eagle::run_until_done(exec, deployed, state, inputs, max_steps, mine); });
  r.global = reduce(comm, r.local, part.begin);
  return r;
}

/// As run_until_done, with dynamic balance for spread batches: each rank's part is cut into chunks
/// of `chunk` samples; a rank runs its own chunks, then takes unstarted chunks from other ranks
/// through a counter on each rank advanced with MPI_Fetch_and_op, reading the chunk's planes from
/// the owner with MPI_Get and writing the results back with MPI_Put. Results are bit-identical to
/// one process (samples are independent). Host memory planes only (MPI reads them directly).
template <class ExecSpace, class Model, class T, int NS, int NI>
Reports run_balanced(MPI_Comm comm, const Partition& part, const ExecSpace& exec, const Deployed<Model>& deployed,
                     const Fields<T, NS, Kokkos::HostSpace>& state,
                     const Fields<const T, NI, Kokkos::HostSpace>& inputs, std::int64_t max_steps, std::int64_t chunk,
                     const RunOptions& options = {}) {
  static_assert(std::is_trivially_copyable<T>::value, "eagle::mpi::run_balanced: planes of plain numbers only");
  if (chunk <= 0)
    throw std::invalid_argument("eagle::mpi::run_balanced: chunk must be positive, got " + std::to_string(chunk));
  if (!options.checkpoint.path.empty() || !options.resume_from.empty()) {
    throw std::invalid_argument(
        "eagle::mpi::run_balanced: checkpoints are per call, and chunks move between ranks: "
        "use eagle::mpi::run_until_done to checkpoint");
  }
  detail::require_part("eagle::mpi::run_balanced", state, part);
  const int rank = rank_of(comm), ranks = size_of(comm);
  detail::ChunkPool<T, NS, NI> pool(comm, part, state, inputs, chunk);
  RunOptions mine = options;
  Reports r;
  r.part = part;
  r.local.samples = 0;
  Kokkos::Timer timer;
  for (int step = 0; step < ranks; ++step) {  // own chunks first, then the next rank's, and so on
    const int owner = (rank + step) % ranks;
    for (auto [begin, count] = pool.take(owner); count > 0; std::tie(begin, count) = pool.take(owner)) {
      const std::int64_t first_index = pool.global_begin(owner) + begin;
      if (owner == rank) {  // own chunk: run in place on sub-views
        Fields<T, NS, Kokkos::HostSpace> s;
        Fields<const T, NI, Kokkos::HostSpace> in;
        const auto range = std::make_pair(begin, begin + count);
        for (int f = 0; f < NS; ++f) s.planes[f] = Kokkos::subview(state.planes[f], range);
        for (int f = 0; f < NI; ++f) in.planes[f] = Kokkos::subview(inputs.planes[f], range);
        mine.first_sample = options.first_sample + first_index;
        detail::add_chunk(r.local, eagle::run_until_done(exec, deployed, s, in, max_steps, mine), first_index);
        continue;
      }
      const auto [s, in] = pool.fetch(owner, begin, count);  // stolen: run here, results back
      mine.first_sample = options.first_sample + first_index;
      detail::add_chunk(r.local, eagle::run_until_done(exec, deployed, s, in, max_steps, mine), first_index);
      pool.put_back(owner, begin, count, s);
      ++r.chunks_stolen;
    }
  }
  pool.close(comm);
  r.local.seconds = timer.seconds();
  r.local.exact_steps = r.local.longest_sample_steps == r.local.steps;
  r.local.capped = r.local.unfinished > 0;
  if (r.local.model.empty()) {
    r.local.model = ModelTraits<Model>::name();
    r.local.note = "this rank held and took no samples";
  }
  r.global = reduce(comm, r.local, 0);  // first failures already carry global indices
  check(MPI_Allreduce(&r.chunks_stolen, &r.chunks_stolen_global, 1, MPI_INT64_T, MPI_SUM, comm), "MPI_Allreduce");
  return r;
}

}  // namespace eagle::mpi
