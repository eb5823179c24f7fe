#pragma once
// Thread binding for programs that run eagle on OpenMP (eagle's own tools use it too). OpenMP
// reads OMP_PROC_BIND and OMP_PLACES when the program loads, before main runs, so setting them in
// main is too late: when the user set neither, the program starts itself again with both set.
// Linux only (it re-executes /proc/self/exe).

#include <cstdlib>

#include <unistd.h>

namespace eagle {

/// Call first in main, before MPI or Kokkos start: `eagle::bind_threads_by_default(argv);`. When neither OMP_PROC_BIND
/// nor OMP_PLACES is set, runs this program again (same process, same arguments) with OMP_PROC_BIND=spread and
/// OMP_PLACES=threads: one thread per hardware thread, spread over the cores, which is what Kokkos
/// recommends for speed (and what keeps its warning about an unset OMP_PROC_BIND away). A user's
/// own setting is never changed. If the restart fails the program goes on unbound.
inline void bind_threads_by_default(char* argv[]) {
  if (std::getenv("OMP_PROC_BIND") != nullptr || std::getenv("OMP_PLACES") != nullptr) return;
  setenv("OMP_PROC_BIND", "spread", 1);
  setenv("OMP_PLACES", "threads", 1);
  execv("/proc/self/exe", argv);
}

}  // namespace eagle
