#pragma once
// What run_until_done tells an observer after each launch, and a terminal progress line built on it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

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

/// What a run's history says of the time left. `known` once samples have started finishing and
/// the finishing curve can be extrapolated; before that only `at_most`, the cap bound (steps left
/// before max_steps at the recent time per step), is known. Negative values: nothing to say yet.
struct Eta {
  bool known = false;     ///< whether `seconds` holds an estimate (0 once the run is done)
  double seconds = -1.0;  ///< the estimate, when known
  double at_most = -1.0;  ///< the cap bound
};

namespace detail {

/// Least squares of y = alpha + beta * x over the points; the residual sum of squares with it.
struct LineFit {
  double alpha = 0.0, beta = 0.0, residual = 0.0;
  bool ok = false;
};
template <class X>
LineFit fit_line(const std::vector<Progress>& points, X x_of) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const Progress& p : points) {
    const double x = x_of(p), y = static_cast<double>(p.active) / static_cast<double>(p.samples);
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  LineFit f;
  const double det = n * sxx - sx * sx;
  if (n < 2 || !(det > 0.0)) return f;
  f.beta = (n * sxy - sx * sy) / det;
  f.alpha = (sy - f.beta * sx) / n;
  for (const Progress& p : points) {
    const double r = static_cast<double>(p.active) / static_cast<double>(p.samples) - (f.alpha + f.beta * x_of(p));
    f.residual += r * r;
  }
  f.ok = f.beta < 0.0;
  return f;
}

}  // namespace detail

/// Estimates the time left from the launches so far (oldest first; a thinned history will do).
/// Two fits, both tested in tests/policies/progress_test.cpp on synthetic clocks:
///  - the finishing curve: the fraction of samples still running against the steps, as a line in
///    log(steps) (log-uniform lengths, as spread batches) or in steps, whichever fits better,
///    extrapolated to the step where none is left (at most the cap);
///  - the cost: seconds per launch = a x steps + b x sample-steps of running samples (a fixed
///    per-step cost, and one that shrinks as the batch thins), non-negative least squares;
/// the time left is that cost over the remaining curve.
inline Eta estimate_time_left(const std::vector<Progress>& history) {
  Eta eta;
  if (history.empty()) return eta;
  const Progress& now = history.back();
  if (now.active == 0 || now.steps_done >= now.max_steps) return {true, 0.0, 0.0};
  if (history.size() >= 2) {
    const Progress& before = history[history.size() - 2];
    const double steps = static_cast<double>(now.steps_done - before.steps_done);
    if (steps > 0.0 && now.seconds > before.seconds) {
      eta.at_most = (now.seconds - before.seconds) / steps * static_cast<double>(now.max_steps - now.steps_done);
    }
  }
  // The curve: the launches after samples started finishing (the flat part before says nothing of
  // its shape).
  std::size_t first = 0;
  while (first < history.size() && history[first].active == history.front().active) ++first;
  const std::vector<Progress> curve(history.begin() + static_cast<std::ptrdiff_t>(first), history.end());
  if (curve.size() < 3) return eta;
  const auto log_steps = [](const Progress& p) { return std::log(static_cast<double>(p.steps_done)); };
  const auto steps = [](const Progress& p) { return static_cast<double>(p.steps_done); };
  const detail::LineFit in_log = detail::fit_line(curve, log_steps), in_steps = detail::fit_line(curve, steps);
  const bool use_log = in_log.ok && (!in_steps.ok || in_log.residual <= in_steps.residual);
  if (!use_log && !in_steps.ok) return eta;
  const detail::LineFit& f = use_log ? in_log : in_steps;
  const double s_now = static_cast<double>(now.steps_done), cap = static_cast<double>(now.max_steps);
  const double s_last = std::min(cap, std::max(s_now, use_log ? std::exp(-f.alpha / f.beta) : -f.alpha / f.beta));
  // Launches come in K steps: the run ends at a whole number of launches like the latest one.
  const double k = static_cast<double>(std::max<std::int64_t>(now.k, 1));
  const double s_end = std::min(cap, s_now + std::ceil((s_last - s_now) / k) * k);
  // Sample-steps left: the batch times the fitted fraction integrated from now to the last finish.
  const auto integral = [&](double u) {
    return use_log ? f.alpha * u + f.beta * (u * std::log(u) - u) : f.alpha * u + 0.5 * f.beta * u * u;
  };
  const double work_left = std::max(0.0, static_cast<double>(now.samples) * (integral(s_last) - integral(s_now)));

  // Cost per launch, a x steps + b x work, over the curve's spans (work by the trapezoid rule).
  double sss = 0, ssw = 0, sww = 0, sts = 0, stw = 0;
  for (std::size_t i = 1; i < curve.size(); ++i) {
    const double ds = static_cast<double>(curve[i].steps_done - curve[i - 1].steps_done);
    const double w = ds * 0.5 * static_cast<double>(curve[i].active + curve[i - 1].active);
    const double dt = curve[i].seconds - curve[i - 1].seconds;
    sss += ds * ds, ssw += ds * w, sww += w * w, sts += dt * ds, stw += dt * w;
  }
  double a = 0.0, b = 0.0;
  const double det = sss * sww - ssw * ssw;
  if (det > 1e-12 * sss * sww) {
    a = (sts * sww - stw * ssw) / det;
    b = (stw * sss - sts * ssw) / det;
  }
  if (!(det > 1e-12 * sss * sww) || a < 0.0 || b < 0.0) {  // the better of the one-term fits
    const double a_only = sss > 0.0 ? sts / sss : 0.0, b_only = sww > 0.0 ? stw / sww : 0.0;
    const double miss_a = a_only * a_only * sss - 2.0 * a_only * sts,
                 miss_b = b_only * b_only * sww - 2.0 * b_only * stw;
    a = miss_a <= miss_b ? a_only : 0.0;
    b = miss_a <= miss_b ? 0.0 : b_only;
  }
  eta.known = true;
  eta.seconds = a * (s_end - s_now) + b * work_left;
  if (eta.at_most >= 0.0) eta.seconds = std::min(eta.seconds, eta.at_most);
  return eta;
}

/// The launches a progress line remembers: every `stride`-th launch, evenly spaced, plus the
/// latest; at 129 points every other one goes and the stride doubles, so a run of many launches
/// costs little and the early part of the curve keeps its weight.
class ProgressHistory {
 public:
  /// Remembers launch `p` as the latest, dropping and thinning as above.
  void push(const Progress& p) {
    if (latest_is_extra_) points_.pop_back();
    latest_is_extra_ = seen_ % stride_ != 0;
    ++seen_;
    points_.push_back(p);
    if (latest_is_extra_ || points_.size() < 129) return;
    std::vector<Progress> thinned;
    for (std::size_t i = 0; i < points_.size(); i += 2) thinned.push_back(points_[i]);
    points_ = std::move(thinned);
    stride_ *= 2;
  }
  /// The launches remembered, oldest first, the latest last.
  const std::vector<Progress>& points() const { return points_; }

 private:
  std::vector<Progress> points_;
  std::int64_t seen_ = 0;
  std::int64_t stride_ = 1;
  bool latest_is_extra_ = false;
};

/// An observer that redraws one line on a terminal: launch, K, samples done, elapsed and ETA, an
/// estimate from the finishing curve ("ETA ? (no sample finished yet)" until it has one: the cap
/// alone says only how long the run could take).
/// A run shorter than `quiet_for` seconds prints nothing; after that the line is redrawn at most
/// every `interval` seconds and ended when the run is done.
class ProgressLine {
 public:
  /// A line labelled `[label]` on `out`; `quiet_for` and `interval` in seconds of the run's clock.
  explicit ProgressLine(std::string label, std::FILE* out = stderr, double quiet_for = 1.0, double interval = 0.25)
      : label_(std::move(label)), out_(out), quiet_for_(quiet_for), interval_(interval) {}

  /// Takes one launch's progress: redraws the line when due (as above), ends it on the last launch.
  void operator()(const Progress& p) {
    history_.push(p);
    const bool last = p.active == 0 || p.steps_done >= p.max_steps;
    if (p.seconds < quiet_for_ && !(last && drawn_)) return;
    if (!last && p.seconds - last_drawn_ < interval_) return;
    last_drawn_ = p.seconds;
    drawn_ = true;
    const double done =
        p.samples > 0 ? 100.0 * static_cast<double>(p.samples - p.active) / static_cast<double>(p.samples) : 100.0;
    std::fprintf(out_, "\r[%s] launch %lld  K=%lld  step %lld  %5.1f%% done  %.1f s elapsed  ETA %s   ", label_.c_str(),
                 static_cast<long long>(p.launch), static_cast<long long>(p.k), static_cast<long long>(p.steps_done),
                 done, p.seconds, describe(estimate_time_left(history_.points())).c_str());
    if (last) std::fputc('\n', out_);
    std::fflush(out_);
  }

 private:
  static std::string seconds(double s) { return std::to_string(static_cast<long long>(s + 0.5)) + " s"; }
  static std::string describe(const Eta& eta) {
    return eta.known ? seconds(eta.seconds) : "? (no sample finished yet)";
  }
  std::string label_;
  std::FILE* out_;
  double quiet_for_;
  double interval_;
  double last_drawn_ = -1e300;
  bool drawn_ = false;
  ProgressHistory history_;
};

}  // namespace eagle
