#pragma once
// Checkpoints of a run in flight: when and where to write them, and reading and writing them.
// What one holds and its file format: detail/checkpoint_format.hpp. run_until_done fills and
// reads them (detail/run_object.hpp).

#include <eagle/detail/atomic_file.hpp>
#include <eagle/detail/checkpoint_format.hpp>
#include <eagle/detail/path_lock.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace eagle {

/// When and where run_until_done writes checkpoints (RunOptions::checkpoint).
struct CheckpointSettings {
  std::string path;                 ///< empty: no checkpoints; the previous one is kept as path + ".prev"
  std::int64_t every_launches = 0;  ///< write after every this many launches (0: not by count)
  double every_seconds = 0.0;       ///< write once this many seconds passed since the last (0: not by time)
  /// Which part of a larger batch this run is ("rank 1 of 2, samples [1500, 3000) of 3000", set by
  /// eagle::mpi); empty for a whole batch. A resume must be for the same part.
  std::string part;
  /// A signal that asks the run to stop early (0: none), e.g. SIGUSR1 where a batch scheduler sends
  /// it ahead of the kill (Slurm's --signal=USR1@120): the run finishes its launch, writes a
  /// checkpoint and returns a report with `interrupted` set. Needs `path`; the cadence may be 0.
  int on_signal = 0;
  /// With a path, launches whose K the run picks (steps = auto) are kept this short (and no longer
  /// than every_seconds), K cut from the measured time per step after a first launch of 16 steps,
  /// so a signal or the cadence waits at most about this long. A fixed K is left as asked.
  double longest_launch_seconds = 10.0;
};

/// Writes `c` to `path` atomically (the previous checkpoint kept as path + ".prev"): a crash at any
/// point leaves the last complete checkpoint at path.
inline void write_checkpoint_file(const std::string& path, const Checkpoint& c) {
  detail::write_file_atomically(path, encode_checkpoint(c), "checkpoint");
}

/// Makes `path` this run's to write, before the first launch: throws std::runtime_error when it
/// names a directory or something else than a file, when another run holds it (its lock file
/// `path.lock`, kept for the returned lock's life), or when no file can be created beside it.
[[nodiscard]] inline detail::PathLock claim_checkpoint_path(const std::string& path) {
  const auto refuse = [&](const std::string& why) { detail::refuse_checkpoint_path(path, why); };
  struct stat found = {};
  if (!path.empty() && path.back() == '/') refuse("the path ends in '/', it names a directory");
  if (::stat(path.c_str(), &found) == 0 && !S_ISREG(found.st_mode))
    refuse(S_ISDIR(found.st_mode) ? "it is a directory" : "it is not a regular file");
  detail::PathLock lock(path);
  if (!detail::can_write_beside(path)) refuse(std::string("open: ") + std::strerror(errno));
  return lock;
}

/// Reads and checks the checkpoint at `path`.
inline Checkpoint read_checkpoint_file(const std::string& path) {
  std::vector<unsigned char> bytes;
  if (!detail::read_file(path, bytes))
    throw CheckpointError("eagle: cannot open checkpoint '" + path + "': " + std::strerror(errno));
  try {
    return decode_checkpoint(bytes.data(), bytes.size());
  } catch (const CheckpointError& e) {
    throw CheckpointError("eagle: checkpoint '" + path + "' refused: " + e.what());
  }
}

}  // namespace eagle
