#pragma once
// Checkpoints of a run in flight: when and where to write them, and reading and writing them.
// What one holds and its file format: detail/checkpoint_format.hpp. run_until_done fills and
// reads them (detail/run_object.hpp).

#include <eagle/detail/atomic_file.hpp>
#include <eagle/detail/checkpoint_format.hpp>

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
};

/// Writes `c` to `path` atomically (the previous checkpoint kept as path + ".prev"): a crash at any
/// point leaves the last complete checkpoint at path.
inline void write_checkpoint_file(const std::string& path, const Checkpoint& c) {
  detail::write_file_atomically(path, encode_checkpoint(c), "checkpoint");
}

/// Throws std::runtime_error unless a checkpoint can be written at `path`, so that a bad path is
/// found before the first launch.
inline void probe_checkpoint_path(const std::string& path) {
  if (!detail::can_write_beside(path)) {
    throw std::runtime_error("eagle: cannot write checkpoint '" + path + "': open: " + std::strerror(errno) +
                             "; nothing was run");
  }
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
