#pragma once
// One writer per checkpoint path: an advisory lock (flock) on a file beside it, held for the run.
// The kernel drops a flock when its holder dies, so a killed run never blocks the resume.

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace eagle::detail {

/// The refusal of a checkpoint path before the first launch, naming why.
[[noreturn]] inline void refuse_checkpoint_path(const std::string& path, const std::string& why) {
  throw std::runtime_error("eagle: cannot write checkpoint '" + path + "': " + why + "; nothing was run");
}

/// Holds the lock on `path` + ".lock" from construction to destruction (movable, not copyable).
class PathLock {
 public:
  PathLock() = default;
  /// Takes the lock or throws std::runtime_error naming the holder (its pid and host, as it wrote
  /// them into the lock file).
  explicit PathLock(const std::string& path) {
    const std::string file = path + ".lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) refuse_checkpoint_path(path, std::string("open: ") + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = read_holder();
      release();
      if (error != EWOULDBLOCK) refuse_checkpoint_path(path, std::string("flock: ") + std::strerror(error));
      refuse_checkpoint_path(path, "another run writes it (" + holder + ", lock file " + file + ")");
    }
    write_holder();
  }
  PathLock(PathLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  PathLock& operator=(PathLock&& other) noexcept {
    if (this != &other) {
      release();
      fd_ = other.fd_;
      other.fd_ = -1;
    }
    return *this;
  }
  PathLock(const PathLock&) = delete;
  PathLock& operator=(const PathLock&) = delete;
  ~PathLock() { release(); }

 private:
  void release() {
    if (fd_ >= 0) ::close(fd_);  // closing the last descriptor drops the flock
    fd_ = -1;
  }
  std::string read_holder() const {
    char text[256] = {};
    const ssize_t got = ::pread(fd_, text, sizeof(text) - 1, 0);
    std::string holder = got > 0 ? std::string(text, static_cast<std::size_t>(got)) : std::string();
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
    return holder.empty() ? std::string("holder unknown") : holder;
  }
  void write_holder() const {
    char host[128] = {};
    ::gethostname(host, sizeof(host) - 1);
    const std::string text = "pid " + std::to_string(::getpid()) + " on " + host + "\n";
    // A lock without its note still holds; a refused run then says "holder unknown".
    if (::ftruncate(fd_, 0) != 0) return;
    const ssize_t wrote = ::pwrite(fd_, text.data(), text.size(), 0);
    static_cast<void>(wrote);
  }
  int fd_ = -1;
};

}  // namespace eagle::detail
