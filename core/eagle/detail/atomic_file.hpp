#pragma once
// Files written so that a crash never leaves a torn one: POSIX calls, kept out of the headers that
// do not write files.

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace eagle::detail {

/// Writes `bytes` to `path` atomically: a temporary file beside it, fsync, the previous file kept
/// as path + ".prev", the new one renamed into place, the folder fsynced. A crash at any point
/// leaves the last complete file at path. Errors name `what` ("checkpoint").
inline void write_file_atomically(const std::string& path, const std::vector<unsigned char>& bytes, const char* what) {
  const std::string tmp = path + ".tmp";
  const auto fail = [&](const char* step) {
    throw std::runtime_error(std::string("eagle: cannot write ") + what + " '" + path + "': " + step + ": " +
                             std::strerror(errno));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("open");
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      ::close(fd);
      fail("write");
    }
    done += static_cast<std::size_t>(wrote);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("fsync");
  }
  if (::close(fd) != 0) fail("close");
  // The previous file stays reachable as path.prev (a second link to it); the rename then
  // replaces path in one step, so path is never missing once written.
  const std::string previous = path + ".prev";
  if (::access(path.c_str(), F_OK) == 0) {
    if (::unlink(previous.c_str()) != 0 && errno != ENOENT) fail("remove the older checkpoint");
    if (::link(path.c_str(), previous.c_str()) != 0) fail("keep the previous checkpoint");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("rename");
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

/// Whether a file can be created at `path` + ".tmp" (created and removed, as a write would);
/// false with errno set otherwise.
inline bool can_write_beside(const std::string& path) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(tmp.c_str());
  return true;
}

/// The bytes of the file at `path`; false with errno set when it cannot be opened.
inline bool read_file(const std::string& path, std::vector<unsigned char>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  unsigned char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof(buffer), f)) > 0) bytes.insert(bytes.end(), buffer, buffer + got);
  std::fclose(f);
  return true;
}

}  // namespace eagle::detail
