#pragma once
// Kokkos Tools profiling regions around a run and its phases outside the launches (compaction,
// revival, checkpoints, restore, the summary, the cost probes), so the kernel timer and the
// space-time stack that users already run show where eagle's time goes. Kokkos 4 has
// Kokkos::Profiling::ScopedRegion; 3.4 has only push and pop, so eagle keeps its own guard.

#include <Kokkos_Core.hpp>

#include <string>

namespace eagle::detail {

/// The scope as a named region ("eagle::compaction", ...); without a tool loaded, a cheap check.
class Region {
 public:
  explicit Region(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~Region() { Kokkos::Profiling::popRegion(); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
};

}  // namespace eagle::detail
