#pragma once
// What eagle keeps per sample beside the caller's planes. Used by the functors, the active set,
// the cost probes, checkpoints and the run.

#include <eagle/outcomes.hpp>

namespace eagle::detail {

/// Per-sample bookkeeping the launch loop owns: the caller's outcome planes, or the run's own.
template <class Mem>
using Bookkeeping = Outcomes<Mem>;

}  // namespace eagle::detail
