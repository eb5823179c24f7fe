#pragma once
// The error a run throws when it stops part way for a reason of its own.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace eagle {

/// Thrown by run_until_done when something of its own fails after launches ran (memory for
/// compaction, revival or a checkpoint's staging copy; a checkpoint write): every sample's state
/// and terminated flag are as the last completed launch left them, in the caller's order, and the
/// last checkpoint written (if any) is intact.
struct RunStopped : std::runtime_error {
  /// The error with message `what`, after `launches_done` launches that asked for `steps_done` steps.
  RunStopped(const std::string& what, std::int64_t launches_done, std::int64_t steps_done)
      : std::runtime_error(what), launches(launches_done), steps(steps_done) {}
  std::int64_t launches;  ///< launches completed (a resumed run's count includes the checkpoint's)
  std::int64_t steps;     ///< steps those launches asked for
};

}  // namespace eagle
