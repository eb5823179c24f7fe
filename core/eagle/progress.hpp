#pragma once
// What run_until_done tells an observer after each launch, and a terminal progress line built on it.

#include <algorithm>
#include <utility>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <string>

namespace eagle {

/// The state of a run after one launch.
struct Progress {
  std::int64_t launch = 0;      ///< 1-based index of the launch that just ended
  std::int64_t k = 0;           ///< steps that launch ran
  std::int64_t active = 0;      ///< samples the run will still step (unterminated, under the cap)
  std::int64_t samples = 0;     ///< samples in the batch
  std::int64_t steps_done = 0;  ///< steps asked for so far
  std::int64_t max_steps = 0;   ///< the cap
  double seconds = 0.0;         ///< since the run started
};

using Observer = std::function<void(const Progress&)>;

/// Estimated seconds left. Two views, the smaller wins: the completion curve (samples finishing
/// at the rate of the recent launches: active / rate), and the cap (the time per step so far times
/// the steps left before max_steps). -1 when neither says anything yet.
inline double estimate_seconds_left(const Progress& before, const Progress& now) {
  double eta = -1.0;
  if (now.steps_done > 0 && now.max_steps > now.steps_done) {
    eta = now.seconds / static_cast<double>(now.steps_done) * static_cast<double>(now.max_steps - now.steps_done);
  }
  const double dt = now.seconds - before.seconds;
  const std::int64_t finished = before.active - now.active;
  if (finished > 0 && dt > 0.0) {
    const double by_curve = static_cast<double>(now.active) / (static_cast<double>(finished) / dt);
    eta = eta < 0.0 ? by_curve : std::min(eta, by_curve);
  }
  if (now.active == 0) eta = 0.0;
  return eta;
}

/// An observer that redraws one line on a terminal: launch, K, samples done, elapsed and ETA.
/// A run shorter than `quiet_for` seconds prints nothing; after that the line is redrawn at most
/// every `interval` seconds and ended when the run is done. The ETA looks back over the last few
/// launches, so it follows the batch as it thins.
class ProgressLine {
 public:
  explicit ProgressLine(std::string label, std::FILE* out = stderr, double quiet_for = 1.0, double interval = 0.25)
      : label_(std::move(label)), out_(out), quiet_for_(quiet_for), interval_(interval) {}

  void operator()(const Progress& p) {
    window_.push_back(p);
    if (window_.size() > 8) window_.pop_front();
    const bool last = p.active == 0 || p.steps_done >= p.max_steps;
    if (p.seconds < quiet_for_ && !(last && drawn_)) return;
    if (!last && p.seconds - last_drawn_ < interval_) return;
    last_drawn_ = p.seconds;
    drawn_ = true;
    const double eta = estimate_seconds_left(window_.front(), p);
    const double done = p.samples > 0 ? 100.0 * static_cast<double>(p.samples - p.active) / static_cast<double>(p.samples) : 100.0;
    std::fprintf(out_, "\r[%s] launch %lld  K=%lld  step %lld  %5.1f%% done  %.1f s elapsed  ETA %s   ", label_.c_str(),
                 static_cast<long long>(p.launch), static_cast<long long>(p.k), static_cast<long long>(p.steps_done), done,
                 p.seconds, eta < 0.0 ? "?" : (std::to_string(static_cast<long long>(eta + 0.5)) + " s").c_str());
    if (last) std::fputc('\n', out_);
    std::fflush(out_);
  }

 private:
  std::string label_;
  std::FILE* out_;
  double quiet_for_;
  double interval_;
  double last_drawn_ = -1e300;
  bool drawn_ = false;
  std::deque<Progress> window_;
};

}  // namespace eagle
