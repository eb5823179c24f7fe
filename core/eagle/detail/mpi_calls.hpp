#pragma once
// MPI calls as eagle makes them: every failure thrown with the call's name, and an error on one
// rank ended on every rank so that none is left waiting in a collective.

#include <mpi.h>

#include <exception>
#include <stdexcept>
#include <string>

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

namespace detail {

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
}  // namespace eagle::mpi
