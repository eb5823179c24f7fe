#pragma once
// Work stealing for eagle::mpi::run_balanced: every rank's part of the batch cut into chunks, a
// counter on each rank handing out its unstarted chunks (MPI_Fetch_and_op), and the owner's planes
// exposed so that a thief reads a chunk (MPI_Get) and writes its results back (MPI_Put). The owner
// takes no part in a theft. A job of one rank has nobody to share with and opens no window (some
// MPI builds refuse one-sided windows there).

#include <eagle/detail/mpi_calls.hpp>
#include <eagle/fields.hpp>
#include <eagle/partition.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace eagle::mpi::detail {

template <class T, int NS, int NI>
class ChunkPool {
 public:
  using Host = Kokkos::HostSpace;

  /// Collective over `comm`: every rank's part size and start are gathered, windows opened.
  ChunkPool(MPI_Comm comm, const Partition& part, const Fields<T, NS, Host>& state,
            const Fields<const T, NI, Host>& inputs, std::int64_t chunk)
      : ranks_(size_of(comm)), chunk_(chunk), sizes_(ranks_), begins_(ranks_) {
    const std::int64_t mine = part.size();
    check(MPI_Allgather(&mine, 1, MPI_INT64_T, sizes_.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");
    check(MPI_Allgather(&part.begin, 1, MPI_INT64_T, begins_.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");
    if (ranks_ == 1) return;
    for (int f = 0; f < NS; ++f) expose(comm, state.planes[f].data(), mine);
    for (int f = 0; f < NI; ++f) expose(comm, inputs.planes[f].data(), mine);
    check(MPI_Win_allocate(sizeof(std::int64_t), sizeof(std::int64_t), MPI_INFO_NULL, comm, &counter_, &counters_),
          "MPI_Win_allocate");
    *counter_ = 0;
    check(MPI_Barrier(comm), "MPI_Barrier");
    for (MPI_Win w : planes_) check(MPI_Win_lock_all(0, w), "MPI_Win_lock_all");
    check(MPI_Win_lock_all(0, counters_), "MPI_Win_lock_all");
  }
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;

  /// The owner's next unstarted chunk: [begin, begin + count) of its part; count 0 when none is left.
  std::pair<std::int64_t, std::int64_t> take(int owner) {
    const std::int64_t one = 1;
    std::int64_t got = 0;
    if (ranks_ > 1) {
      check(MPI_Fetch_and_op(&one, &got, MPI_INT64_T, owner, 0, MPI_SUM, counters_), "MPI_Fetch_and_op");
      check(MPI_Win_flush(owner, counters_), "MPI_Win_flush");
    } else {
      got = own_next_++;
    }
    const std::int64_t begin = got * chunk_;
    return {begin, begin < sizes_[owner] ? std::min(chunk_, sizes_[owner] - begin) : 0};
  }

  /// The owner's part starts here in the global batch.
  std::int64_t global_begin(int owner) const { return begins_[owner]; }

  /// A copy of the owner's rows [begin, begin + count): state planes, then input planes.
  std::pair<Fields<T, NS, Host>, Fields<const T, NI, Host>> fetch(int owner, std::int64_t begin,
                                                                  std::int64_t count) const {
    Fields<T, NS, Host> s;
    Fields<const T, NI, Host> in;
    for (int f = 0; f < NS; ++f) {
      s.planes[f] = Kokkos::View<T*, Host>("eagle::stolen_state", count);
      get(owner, planes_[f], begin, count, s.planes[f].data());
    }
    for (int f = 0; f < NI; ++f) {
      const Kokkos::View<T*, Host> plane("eagle::stolen_input", count);
      get(owner, planes_[NS + f], begin, count, plane.data());
      in.planes[f] = plane;
    }
    return {s, in};
  }

  /// The stolen rows' results back into the owner's state planes.
  void put_back(int owner, std::int64_t begin, std::int64_t count, const Fields<T, NS, Host>& s) const {
    for (int f = 0; f < NS; ++f) {
      check(MPI_Put(s.planes[f].data(), bytes(count), MPI_BYTE, owner, static_cast<MPI_Aint>(begin), bytes(count),
                    MPI_BYTE, planes_[f]),
            "MPI_Put");
      check(MPI_Win_flush(owner, planes_[f]), "MPI_Win_flush");
    }
  }

  /// Collective: every Put has landed before owners read their planes again; the windows closed.
  void close(MPI_Comm comm) {
    if (ranks_ == 1) return;
    check(MPI_Win_unlock_all(counters_), "MPI_Win_unlock_all");
    for (MPI_Win w : planes_) check(MPI_Win_unlock_all(w), "MPI_Win_unlock_all");
    check(MPI_Barrier(comm), "MPI_Barrier");
    for (MPI_Win& w : planes_) MPI_Win_free(&w);
    MPI_Win_free(&counters_);
  }

 private:
  static int bytes(std::int64_t count) { return static_cast<int>(count * static_cast<std::int64_t>(sizeof(T))); }

  void expose(MPI_Comm comm, const void* data, std::int64_t count) {
    MPI_Win w;
    check(MPI_Win_create(const_cast<void*>(data), static_cast<MPI_Aint>(count * sizeof(T)), sizeof(T), MPI_INFO_NULL,
                         comm, &w),
          "MPI_Win_create");
    planes_.push_back(w);
  }

  void get(int owner, MPI_Win w, std::int64_t begin, std::int64_t count, T* to) const {
    check(MPI_Get(to, bytes(count), MPI_BYTE, owner, static_cast<MPI_Aint>(begin), bytes(count), MPI_BYTE, w),
          "MPI_Get");
    check(MPI_Win_flush(owner, w), "MPI_Win_flush");
  }

  int ranks_;
  std::int64_t chunk_;
  std::vector<std::int64_t> sizes_, begins_;  // every rank's part
  std::vector<MPI_Win> planes_;               // state planes, then input planes
  std::int64_t* counter_ = nullptr;           // this rank's next unstarted chunk, in its window
  MPI_Win counters_ = MPI_WIN_NULL;
  std::int64_t own_next_ = 0;  // the counter of a job of one rank
};

}  // namespace eagle::mpi::detail
