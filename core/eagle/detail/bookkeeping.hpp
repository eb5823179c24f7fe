#pragma once
// What eagle keeps per sample beside the caller's planes. Used by the functors, the active set,
// the cost probes, checkpoints and the run.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::detail {

/// Per-sample bookkeeping the launch loop owns: the terminated flag, the status code and the
/// steps taken.
template <class Mem>
struct Bookkeeping {
  Kokkos::View<bool*, Mem> terminated;
  Kokkos::View<std::uint8_t*, Mem> status;
  Kokkos::View<std::int64_t*, Mem> steps_taken;
};

}  // namespace eagle::detail
