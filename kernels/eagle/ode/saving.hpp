#pragma once
// Saved trajectories: a stepper that writes each sample's y into a caller's
// (samples x times x N) View as the sample passes the save times.
//
//   Kokkos::View<double***> out("out", n, 100, 2);               // samples x times x fields
//   auto saving = eagle::ode::save_at(stepper, out, 0.0, 0.1);    // t = 0, 0.1, ..., 9.9
//   eagle::run_until_done(eagle::deploy(saving), eagle::state(x, v, t, h, next), ...);
//
// Saving<Stepper> is the stepper's model with one more state field, `next_save` (the index of the
// sample's next save time; start it at 0), and a step that knows its sample (eagle::StepContext),
// so it runs on the host tile's single lanes. An adaptive stepper keeps its own steps and saves
// y at each time passed by its method's dense output (fourth order for Dopri5 and Tsit5, second
// for Rosenbrock23: as accurate as the steps), y at the step's end itself where a time falls
// there (at t_end, also the times within rounding of it); a fixed-step stepper saves y at the
// step nearest each time (within dt/2). Times a sample never reaches (past t_end, or after it
// failed or stopped at an event of eagle::ode::stop_when, saved around it as
// save_at(stop_when(stepper, g), ...)) keep what the View held. Sample i writes row
// i - first_sample (first_sample: the first sample of a batch run in parts, e.g. an MPI rank's
// part.begin); a sample whose row the View lacks fails with status trajectory_row_outside,
// writing nothing.
// Checkpoints carry the trajectory written so far (eagle::WrittenMemory): a run resumed into a new
// View of the same shape (another process, another address) fills it as the whole run would have,
// the rows before the checkpoint included. The save times are the model's parameters: a resume
// with others is refused.

#include <eagle/crc32.hpp>
#include <eagle/math.hpp>
#include <eagle/model.hpp>
#include <eagle/ode/steppers.hpp>
#include <eagle/status.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace eagle::ode {

/// Where and when a stepper saves: a caller's (samples x times x fields) View seen through its
/// strides, and the save times (a list in the View's memory, or uniform).
struct Trajectory {
  double* data = nullptr;  ///< the View's data
  std::int64_t rows = 0;   ///< the View's samples
  /// The View's stride from one sample to the next, in elements.
  std::int64_t sample_stride = 0, time_stride = 0, field_stride = 0;
  /// \var time_stride
  /// The View's stride from one save time to the next, in elements.
  /// \var field_stride
  /// The View's stride from one field to the next, in elements.
  std::int64_t span = 0;          ///< the View's elements, from data on (its strides' span)
  std::int64_t first_sample = 0;  ///< the batch sample that writes row 0
  int count = 0;                  ///< save times
  const double* times = nullptr;  ///< the list of times, or nullptr for uniform times
  std::uint32_t times_crc = 0;    ///< CRC-32 of the list's values: what a resume compares
  double first_time = 0.0;        ///< uniform times: first_time + j spacing
  double spacing = 0.0;           ///< uniform times: the interval between them

  /// Save time j.
  KOKKOS_INLINE_FUNCTION double time(int j) const { return times != nullptr ? times[j] : first_time + j * spacing; }
  /// The View's element for row `row`, save time j, field `field`.
  KOKKOS_INLINE_FUNCTION double& at(std::int64_t row, int j, int field) const {
    return data[row * sample_stride + j * time_stride + field * field_stride];
  }
};

/// A stepper that saves its samples' trajectories (see the top of this header).
template <class Stepper>
struct Saving : Stepper {
  static_assert(std::is_same<typename Stepper::scalar_type, double>::value,
                "eagle::ode::save_at: saving runs a stepper in double");
  /// The stepper's fields, then next_save; the stepper's inputs.
  enum Field : int {
    next_save = Stepper::state_count,   ///< the index of the sample's next save time (start: 0)
    state_count,                        ///< state fields per sample: the stepper's and next_save
    input_count = Stepper::input_count  ///< input fields per sample: the stepper's
  };
  /// The status of a sample whose row the trajectory's View lacks.
  static constexpr std::uint8_t trajectory_row_outside = status::first_model_failure + 1;

  Trajectory trajectory{};  ///< where and when to save (save_at sets it)

  /// The trajectory's View: what a checkpoint carries for this model.
  WrittenMemory written_memory() const {
    return {trajectory.data, static_cast<std::size_t>(trajectory.span) * sizeof(double)};
  }
  /// This model with the View's and the times' addresses cleared: what a resume compares.
  Saving without_addresses() const {
    Saving copy = *this;
    copy.trajectory.data = nullptr;
    copy.trajectory.times = nullptr;
    return copy;
  }

  /// Saves y at the save times reached, takes one stepper step, saves at those it reached; a sample
  /// whose row the View lacks fails with trajectory_row_outside, writing nothing.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION StepStatus step(S& s, const I& p, const StepContext& at) const {
    const bool writes = !at.rehearsal();  // a copy auto times: the same steps, no writes
    const std::int64_t row = at.sample - trajectory.first_sample;
    if (writes && (row < 0 || row >= trajectory.rows)) return StepStatus::failed(trajectory_row_outside);
    const auto y_now = [&](double, Y& y) {
      for (int f = 0; f < Stepper::time; ++f) y[f] = s[f];
    };
    if (writes) save_until(s, row, s[Stepper::time] + slack(), y_now);  // the times at or before the start
    if constexpr (Stepper::adaptive) {
      typename Stepper::Dense dense;
      const StepStatus result = Stepper::attempt(s, p, this->t_end, dense);
      // At t_end, also the times within rounding of it (first_time + j spacing may pass it by an ulp).
      const double rounding = result.code() == status::finished ? 1e-12 * (1.0 + math::fabs(this->t_end)) : 0.0;
      if (writes) save_until(s, row, s[Stepper::time] + rounding, [&](double t, Y& y) { dense.at(t, y); });
      return result;
    } else {
      const StepStatus result = eagle::detail::step_status(eagle::detail::outcome(Stepper::step(s, p)));
      if (writes) save_until(s, row, s[Stepper::time] + slack(), y_now);
      return result;
    }
  }

 private:
  using Y = Values<double, Stepper::time>;

  /// How far past t a save time counts as reached: a fixed step saves at the step nearest it; a
  /// stepper with dense output saves inside its steps.
  KOKKOS_INLINE_FUNCTION double slack() const {
    if constexpr (Stepper::adaptive)
      return 0.0;
    else
      return 0.5 * this->dt;
  }

  /// Writes y(t), from y_at(t, y), for every save time t up to `reached`, advancing next_save.
  template <class S, class At>
  KOKKOS_INLINE_FUNCTION void save_until(S& s, std::int64_t row, double reached, const At& y_at) const {
    for (int j = static_cast<int>(s[next_save]); j < trajectory.count && trajectory.time(j) <= reached; ++j) {
      Y y;
      y_at(trajectory.time(j), y);
      for (int f = 0; f < Stepper::time; ++f) trajectory.at(row, j, f) = y[f];
      s[next_save] = j + 1;
    }
  }
};

namespace detail {

/// The trajectory over `out` (samples x times x N) for a stepper of N states; throws
/// std::invalid_argument naming what does not fit.
template <class Stepper, class View>
Trajectory trajectory_over(const View& out) {
  static_assert(View::rank == 3, "eagle::ode::save_at: the trajectory is a rank-3 View (samples x times x fields)");
  static_assert(std::is_same<typename View::value_type, double>::value,
                "eagle::ode::save_at: the trajectory holds double, writable");
  const auto fields = static_cast<std::int64_t>(out.extent(2));
  if (fields != Stepper::time)
    throw std::invalid_argument("eagle::ode::save_at: the trajectory '" + out.label() + "' has " +
                                std::to_string(fields) + " fields, the system has " +
                                std::to_string(static_cast<int>(Stepper::time)) + " states");
  if (out.extent(1) == 0 || out.extent(1) > 1000000000)
    throw std::invalid_argument("eagle::ode::save_at: the trajectory '" + out.label() + "' has " +
                                std::to_string(out.extent(1)) + " times; it needs 1 to 10^9");
  Trajectory t;
  t.data = out.data();
  t.rows = static_cast<std::int64_t>(out.extent(0));
  t.sample_stride = static_cast<std::int64_t>(out.stride(0));
  t.time_stride = static_cast<std::int64_t>(out.stride(1));
  t.field_stride = static_cast<std::int64_t>(out.stride(2));
  t.count = static_cast<int>(out.extent(1));
  t.span = static_cast<std::int64_t>(out.span());
  return t;
}

}  // namespace detail

/// `stepper` saving each sample's y into `out` (samples x times x N) at first_time + j spacing,
/// j = 0 .. out.extent(1) - 1. Throws std::invalid_argument for a View of the wrong shape, or a
/// spacing that is not positive and finite.
template <class Stepper, class View>
Saving<Stepper> save_at(const Stepper& stepper, const View& out, double first_time, double spacing) {
  if (!(spacing > 0.0) || !std::isfinite(spacing) || !std::isfinite(first_time))
    throw std::invalid_argument(
        "eagle::ode::save_at: save times need a finite first time and a positive spacing, got " +
        std::to_string(first_time) + " and " + std::to_string(spacing));
  Saving<Stepper> saving;
  static_cast<Stepper&>(saving) = stepper;
  saving.trajectory = detail::trajectory_over<Stepper>(out);
  saving.trajectory.first_time = first_time;
  saving.trajectory.spacing = spacing;
  return saving;
}

/// `stepper` saving each sample's y into `out` (samples x times x N) at the listed `times`, a
/// rank-1 View in out's memory, finite and increasing, one a column of `out`. Throws
/// std::invalid_argument otherwise.
template <class Stepper, class View, class Times>
Saving<Stepper> save_at(const Stepper& stepper, const View& out, const Times& times) {
  static_assert(Times::rank == 1, "eagle::ode::save_at: the save times are a rank-1 View");
  static_assert(std::is_same<typename Times::memory_space, typename View::memory_space>::value,
                "eagle::ode::save_at: the save times live where the trajectory does");
  Saving<Stepper> saving;
  static_cast<Stepper&>(saving) = stepper;
  saving.trajectory = detail::trajectory_over<Stepper>(out);
  if (times.extent(0) != out.extent(1) || !times.span_is_contiguous())
    throw std::invalid_argument("eagle::ode::save_at: " + std::to_string(times.extent(0)) +
                                " contiguous save times needed for the trajectory's " + std::to_string(out.extent(1)));
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), times);
  for (std::size_t j = 0; j < host.extent(0); ++j) {
    if (!std::isfinite(host(j)) || (j > 0 && !(host(j) > host(j - 1))))
      throw std::invalid_argument("eagle::ode::save_at: save time " + std::to_string(j) + " (" +
                                  std::to_string(host(j)) + ") is not finite and above the one before");
  }
  saving.trajectory.times = times.data();
  saving.trajectory.times_crc =
      crc32(reinterpret_cast<const unsigned char*>(host.data()), host.extent(0) * sizeof(double));
  return saving;
}

}  // namespace eagle::ode
