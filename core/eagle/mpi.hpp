#pragma once
// eagle across MPI ranks (optional: include this header and link MPI). Each rank holds a
// contiguous part of the global batch (eagle::Partition::balanced) with its own execution space,
// policy and tiles, and runs it with run_until_done; the reports are then reduced once.
//
// Collectives: none per launch. Every policy eagle has decides from what its own rank saw: K
// (fixed, the tile's 1024, or auto from the rank's launch history), compaction (the rank's
// slots) and revival (the rank's window). Only a policy that wanted the same K on every rank
// would need an allreduce per launch, and none does: ranks' launches are independent.
// Dynamic balance (run_balanced) moves work with MPI one-sided operations: the owner of the
// samples takes no part.

#include <eagle/run.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace eagle::mpi {

/// Throws naming the call when an MPI call fails (with MPI_ERRORS_RETURN set on the communicator).
inline void check(int code, const char* what) {
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string("eagle::mpi: ") + what + " failed: " + std::string(text, length));
  }
}

inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}
inline int size_of(MPI_Comm comm) {
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

/// This rank's part of a global batch of `total` samples.
inline Partition partition(MPI_Comm comm, std::int64_t total) {
  return Partition::balanced(rank_of(comm), size_of(comm), total);
}

/// A rank's report and the job's.
struct Reports {
  Report local;
  Report global;
  Partition part{0, 0, 0};
  std::int64_t chunks_stolen = 0;         ///< (run_balanced) chunks this rank ran for other ranks
  std::int64_t chunks_stolen_global = 0;  ///< summed over ranks
};

namespace detail {

/// Every rank's (key, count) pairs summed, on every rank.
template <class Key>
std::map<Key, std::int64_t> sum_maps(MPI_Comm comm, const std::map<Key, std::int64_t>& mine) {
  std::ostringstream out;
  for (const auto& [key, count] : mine) out << key << '\t' << count << '\n';
  const std::string text = out.str();
  const int size = size_of(comm);
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(size), offsets(size);
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm), "MPI_Allgather");
  int all = 0;
  for (int r = 0; r < size; ++r) {
    offsets[r] = all;
    all += lengths[r];
  }
  std::string gathered(static_cast<std::size_t>(all), '\0');
  check(MPI_Allgatherv(text.data(), length, MPI_CHAR, gathered.data(), lengths.data(), offsets.data(), MPI_CHAR, comm),
        "MPI_Allgatherv");
  std::map<Key, std::int64_t> sum;
  std::istringstream in(gathered);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t tab = line.find('\t');
    std::istringstream key_text(line.substr(0, tab));
    Key key{};
    if constexpr (std::is_same<Key, std::string>::value)
      key = line.substr(0, tab);
    else
      key_text >> key;
    sum[key] += std::stoll(line.substr(tab + 1));
  }
  return sum;
}

}  // namespace detail

/// The job's report from every rank's: samples, statuses, work and launches by K summed; launches,
/// steps, the longest sample and time as the maximum over ranks. Failing samples are named by
/// their global index (`index_offset` shifts the local ones). Collective over `comm`.
inline Report reduce(MPI_Comm comm, const Report& local, std::int64_t index_offset) {
  Report g = local;
  const auto combine = [&](const auto& fields, MPI_Op op) {
    constexpr int count = static_cast<int>(std::extent<std::remove_reference_t<decltype(fields)>>::value);
    std::int64_t values[count];
    for (int i = 0; i < count; ++i) values[i] = local.*fields[i];
    check(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_INT64_T, op, comm), "MPI_Allreduce");
    for (int i = 0; i < count; ++i) g.*fields[i] = values[i];
  };
  combine(report_fields::summed, MPI_SUM);
  combine(report_fields::sequential, MPI_MAX);  // ranks run side by side
  combine(report_fields::largest, MPI_MAX);
  check(MPI_Allreduce(MPI_IN_PLACE, &g.seconds, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  g.exact_steps = g.longest_sample_steps == g.steps;
  g.capped = g.unfinished > 0;
  g.launches_by_k = detail::sum_maps(comm, local.launches_by_k);
  g.failures = {};
  for (const auto& [code, count] :
       detail::sum_maps(comm, std::map<int, std::int64_t>(local.failures.begin(), local.failures.end()))) {
    g.failures[code] = count;
  }
  g.compaction_actions = detail::sum_maps(comm, local.compaction_actions);
  std::map<std::int64_t, std::int64_t> named;
  for (const auto& [sample, code] : local.first_failures) named[sample + index_offset] = code;
  g.first_failures.clear();
  for (const auto& [sample, code] : detail::sum_maps(comm, named)) {
    if (g.first_failures.size() < Report::failures_named) g.first_failures.push_back({sample, static_cast<int>(code)});
  }
  g.note = local.samples == 0 ? "this rank held no samples" : local.note;
  return g;
}

namespace detail {

/// This rank's own checkpoint file: ranks never write, rename or read one another's.
inline std::string rank_path(const std::string& path, int rank) { return path + ".rank" + std::to_string(rank); }

/// The part of the batch a rank's checkpoint belongs to; a resume must be for the same.
inline std::string describe_part(const Partition& part, int rank, int ranks) {
  return "rank " + std::to_string(rank) + " of " + std::to_string(ranks) + ", samples [" + std::to_string(part.begin) +
         ", " + std::to_string(part.end) + ") of " + std::to_string(part.total);
}

/// Runs `local` on every rank; when it throws on any rank it throws on every rank (its own
/// exception where it failed, a note naming the first failed rank elsewhere), so that no rank is
/// left waiting in a collective. Collective over `comm`.
template <class Local>
void on_every_rank(MPI_Comm comm, const char* function, Local&& local) {
  std::exception_ptr failure;
  try {
    local();
  } catch (...) {
    failure = std::current_exception();
  }
  const int ranks = size_of(comm);
  int first_failed = failure ? rank_of(comm) : ranks;
  check(MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (failure) std::rethrow_exception(failure);
  if (first_failed < ranks) {
    throw std::runtime_error(std::string(function) + ": rank " + std::to_string(first_failed) +
                             " failed (its own error says why); this rank stopped with it");
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
  if (static_cast<std::int64_t>(state.planes[0].extent(0)) != part.size()) {
    throw std::invalid_argument("eagle::mpi::run_until_done: this rank's planes hold " +
                                std::to_string(state.planes[0].extent(0)) + " samples, its partition " +
                                std::to_string(part.size()));
  }
  const int rank = rank_of(comm);
  RunOptions mine = options;
  if (!options.checkpoint.path.empty()) mine.checkpoint.path = detail::rank_path(options.checkpoint.path, rank);
  if (!options.resume_from.empty()) mine.resume_from = detail::rank_path(options.resume_from, rank);
  mine.checkpoint.part = detail::describe_part(part, rank, size_of(comm));
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
  if (static_cast<std::int64_t>(state.planes[0].extent(0)) != part.size()) {
    throw std::invalid_argument("eagle::mpi::run_balanced: this rank's planes hold " +
                                std::to_string(state.planes[0].extent(0)) + " samples, its partition " +
                                std::to_string(part.size()));
  }
  const int rank = rank_of(comm), ranks = size_of(comm);
  // Every rank's part size, so that a thief knows the owner's chunks.
  std::vector<std::int64_t> sizes(ranks), begins(ranks);
  const std::int64_t mine = part.size();
  check(MPI_Allgather(&mine, 1, MPI_INT64_T, sizes.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");
  check(MPI_Allgather(&part.begin, 1, MPI_INT64_T, begins.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");

  // One window per plane (state, inputs) and one for the next-chunk counter of each rank. A job of
  // one rank has nobody to share with and opens none (some MPI builds refuse one-sided windows
  // there).
  const bool shared = ranks > 1;
  std::vector<MPI_Win> planes;
  const auto expose = [&](const void* data, std::int64_t count) {
    MPI_Win w;
    check(MPI_Win_create(const_cast<void*>(data), static_cast<MPI_Aint>(count * sizeof(T)), sizeof(T), MPI_INFO_NULL,
                         comm, &w),
          "MPI_Win_create");
    planes.push_back(w);
  };
  std::int64_t own_next = 0;
  std::int64_t* counter = &own_next;
  MPI_Win counters = MPI_WIN_NULL;
  if (shared) {
    for (int f = 0; f < NS; ++f) expose(state.planes[f].data(), mine);
    for (int f = 0; f < NI; ++f) expose(inputs.planes[f].data(), mine);
    check(MPI_Win_allocate(sizeof(std::int64_t), sizeof(std::int64_t), MPI_INFO_NULL, comm, &counter, &counters),
          "MPI_Win_allocate");
    *counter = 0;
    check(MPI_Barrier(comm), "MPI_Barrier");
    for (MPI_Win w : planes) check(MPI_Win_lock_all(0, w), "MPI_Win_lock_all");
    check(MPI_Win_lock_all(0, counters), "MPI_Win_lock_all");
  }

  Reports r;
  r.part = part;
  r.local.samples = 0;
  Kokkos::Timer timer;
  const auto take = [&](int owner) -> std::int64_t {  // the owner's next unstarted chunk, or -1
    const std::int64_t one = 1;
    std::int64_t got = 0;
    if (shared) {
      check(MPI_Fetch_and_op(&one, &got, MPI_INT64_T, owner, 0, MPI_SUM, counters), "MPI_Fetch_and_op");
      check(MPI_Win_flush(owner, counters), "MPI_Win_flush");
    } else {
      got = (*counter)++;
    }
    return got * chunk < sizes[owner] ? got : -1;
  };
  const auto merge = [&](const Report& part_report, std::int64_t first_index) {
    Report& l = r.local;
    for (const auto& [sample, code] : part_report.first_failures) {
      if (l.first_failures.size() < Report::failures_named) l.first_failures.push_back({first_index + sample, code});
    }
    if (l.model.empty()) {
      const auto named = l.first_failures;
      l = part_report;
      l.first_failures = named;
    } else {
      for (auto field : report_fields::summed) l.*field += part_report.*field;
      for (auto field : report_fields::sequential) l.*field += part_report.*field;  // chunks run one after another
      for (auto field : report_fields::largest) l.*field = std::max(l.*field, part_report.*field);
      for (const auto& [k, count] : part_report.launches_by_k) l.launches_by_k[k] += count;
      for (const auto& [code, count] : part_report.failures) l.failures[code] += count;
      for (const auto& [action, count] : part_report.compaction_actions) l.compaction_actions[action] += count;
    }
  };
  for (int step = 0; step < ranks; ++step) {
    const int owner = (rank + step) % ranks;
    for (std::int64_t c = take(owner); c >= 0; c = take(owner)) {
      const std::int64_t begin = c * chunk, count = std::min(chunk, sizes[owner] - begin);
      if (owner == rank) {  // own chunk: run in place on sub-views
        Fields<T, NS, Kokkos::HostSpace> s;
        Fields<const T, NI, Kokkos::HostSpace> in;
        const auto range = std::make_pair(begin, begin + count);
        for (int f = 0; f < NS; ++f) s.planes[f] = Kokkos::subview(state.planes[f], range);
        for (int f = 0; f < NI; ++f) in.planes[f] = Kokkos::subview(inputs.planes[f], range);
        merge(eagle::run_until_done(exec, deployed, s, in, max_steps, options), begins[owner] + begin);
        continue;
      }
      // Stolen: read the owner's rows, run them here, write the results back.
      Fields<T, NS, Kokkos::HostSpace> s;
      Fields<T, NI, Kokkos::HostSpace> in;
      const auto get = [&](MPI_Win w, T* to) {
        check(MPI_Get(to, static_cast<int>(count * sizeof(T)), MPI_BYTE, owner, static_cast<MPI_Aint>(begin),
                      static_cast<int>(count * sizeof(T)), MPI_BYTE, w),
              "MPI_Get");
        check(MPI_Win_flush(owner, w), "MPI_Win_flush");
      };
      for (int f = 0; f < NS; ++f) {
        s.planes[f] = Kokkos::View<T*, Kokkos::HostSpace>("eagle::stolen_state", count);
        get(planes[f], s.planes[f].data());
      }
      Fields<const T, NI, Kokkos::HostSpace> in_const;
      for (int f = 0; f < NI; ++f) {
        in.planes[f] = Kokkos::View<T*, Kokkos::HostSpace>("eagle::stolen_input", count);
        get(planes[NS + f], in.planes[f].data());
        in_const.planes[f] = in.planes[f];
      }
      merge(eagle::run_until_done(exec, deployed, s, in_const, max_steps, options), begins[owner] + begin);
      for (int f = 0; f < NS; ++f) {
        check(MPI_Put(s.planes[f].data(), static_cast<int>(count * sizeof(T)), MPI_BYTE, owner,
                      static_cast<MPI_Aint>(begin), static_cast<int>(count * sizeof(T)), MPI_BYTE, planes[f]),
              "MPI_Put");
        check(MPI_Win_flush(owner, planes[f]), "MPI_Win_flush");
      }
      ++r.chunks_stolen;
    }
  }
  if (shared) {
    check(MPI_Win_unlock_all(counters), "MPI_Win_unlock_all");
    for (MPI_Win w : planes) check(MPI_Win_unlock_all(w), "MPI_Win_unlock_all");
    check(MPI_Barrier(comm), "MPI_Barrier");  // every Put has landed before owners read their planes
    for (MPI_Win& w : planes) MPI_Win_free(&w);
    MPI_Win_free(&counters);
  }

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
