#pragma once
// A signal a run watches (RunOptions::checkpoint.on_signal): its handler only sets a flag, which
// the run reads between launches; the previous handler comes back when the run ends.

#include <atomic>
#include <csignal>
#include <stdexcept>
#include <string>

#include <signal.h>

namespace eagle::detail {

/// Signals seen while some run watched them, one flag per signal number.
inline std::atomic<int> signals_seen[NSIG];

inline void note_signal(int signal) { signals_seen[signal].store(1, std::memory_order_relaxed); }

/// Watches `signal` (0: none) from construction to destruction.
class SignalWatch {
 public:
  explicit SignalWatch(int signal) : signal_(signal) {
    if (signal_ == 0) return;
    if (signal_ < 1 || signal_ >= NSIG || signal_ == SIGKILL || signal_ == SIGSTOP) {
      throw std::invalid_argument(
          "eagle::run_until_done: checkpoint.on_signal must be a signal a handler can catch, got " +
          std::to_string(signal_));
    }
    signals_seen[signal_].store(0, std::memory_order_relaxed);
    struct sigaction action = {};
    action.sa_handler = note_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // a write or a read the signal lands in goes on
    if (::sigaction(signal_, &action, &previous_) != 0) {
      throw std::invalid_argument("eagle::run_until_done: cannot watch signal " + std::to_string(signal_));
    }
  }
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;
  ~SignalWatch() {
    if (signal_ != 0) ::sigaction(signal_, &previous_, nullptr);
  }

  /// Whether the signal came since the watch began.
  bool seen() const { return signal_ != 0 && signals_seen[signal_].load(std::memory_order_relaxed) != 0; }
  int signal() const { return signal_; }

 private:
  int signal_;
  struct sigaction previous_ = {};
};

}  // namespace eagle::detail
