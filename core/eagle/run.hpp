#pragma once
// run_until_done: launch until every sample is terminated or max_steps is reached.

#include <eagle/checkpoint.hpp>
#include <eagle/deploy.hpp>
#include <eagle/detail/checks.hpp>
#include <eagle/detail/launch.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/detail/run_object.hpp>
#include <eagle/detail/signal_watch.hpp>
#include <eagle/fields.hpp>
#include <eagle/model.hpp>
#include <eagle/outcomes.hpp>
#include <eagle/report.hpp>
#include <eagle/run_options.hpp>
#include <eagle/steps.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace eagle {
namespace detail {

/// Keeps a parameter out of template deduction, so a View that converts is accepted.
template <class X>
struct NonDeduced {
  using type = X;
};

/// Throws unless `plane` has `n` samples.
template <class View>
void require_samples(const char* function, const char* what, const View& plane, std::int64_t n) {
  if (static_cast<std::int64_t>(plane.extent(0)) != n) {
    throw std::invalid_argument(std::string(function) + ": the " + what + " plane has " +
                                std::to_string(plane.extent(0)) + " samples, expected " + std::to_string(n));
  }
}

inline void require_positive_max_steps(const char* function, std::int64_t max_steps) {
  if (max_steps <= 0) {
    throw std::invalid_argument(std::string(function) + ": max_steps must be positive, got " +
                                std::to_string(max_steps));
  }
}

template <class ExecSpace>
LoopNest resolve_nest(const char* function, LoopNest asked) {
  if (asked == LoopNest::space_default) return is_host_space<ExecSpace> ? LoopNest::tile : LoopNest::per_sample;
  if (asked == LoopNest::tile && !is_host_space<ExecSpace>) {
    throw std::invalid_argument(std::string(function) + ": the tile loop nest needs a host execution space, got " +
                                ExecSpace::name());
  }
  return asked;
}

}  // namespace detail

/// Advances every sample until it terminates or has taken `max_steps` steps, on `exec`.
///
/// `state` (eagle::state(...)) is updated in place; `inputs` (eagle::inputs(...) or
/// eagle::no_inputs) is read; `outcomes` (eagle::outcomes(n)) holds each sample's terminated flag
/// on entry (samples already terminated are not stepped) and its flag, status and steps taken on
/// exit. Input errors throw std::invalid_argument before anything is written. Compaction may
/// permute the planes' rows while the run goes; they are back in the caller's order when it
/// returns or throws.
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs, const typename detail::NonDeduced<Outcomes<Mem>>::type& outcomes,
                      std::int64_t max_steps, const RunOptions& options = {}) {
  using Traits = ModelTraits<Model>;
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "eagle::run_until_done: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, Mem>::accessible,
                "eagle::run_until_done: the planes live in a memory space this execution space cannot access");
  static_assert(std::is_same<T, typename Traits::scalar_type>::value,
                "eagle::run_until_done: state planes must hold the model's scalar_type (non-const)");
  static_assert(NS == Traits::state_count,
                "eagle::run_until_done: eagle::state(...) must pass exactly Model::state_count planes");
  constexpr const char* function = "eagle::run_until_done";
  using detail::RowIndex;

  const auto in = detail::input_fields<T, Traits::input_count, Mem>(inputs);
  const auto n = static_cast<std::int64_t>(state.planes[0].extent(0));
  detail::require_positive_max_steps(function, max_steps);
  detail::check_extents(function, "state", state, n);
  detail::check_extents(function, "input", in, n);
  detail::require_samples(function, "terminated", outcomes.terminated, n);
  detail::require_samples(function, "status", outcomes.status, n);
  detail::require_samples(function, "steps_taken", outcomes.steps_taken, n);
  if (options.in_flight < 0) {
    throw std::invalid_argument(std::string(function) + ": in_flight must be 0 (all) or positive, got " +
                                std::to_string(options.in_flight));
  }
  if (options.tile_lanes < 0) {
    throw std::invalid_argument(std::string(function) +
                                ": tile_lanes must be 0 (sized from the caches) or positive, got " +
                                std::to_string(options.tile_lanes));
  }
  if ((options.compaction != Compaction::off || options.in_flight > 0) && n > std::numeric_limits<RowIndex>::max() &&
      options.compaction != Compaction::automatic) {
    throw std::invalid_argument(std::string(function) + ": compaction and in_flight index rows in 32 bits; " +
                                std::to_string(n) + " samples is too many, run the batch in parts");
  }
  const LoopNest nest = detail::resolve_nest<ExecSpace>(function, deployed.nest);
  const CheckpointSettings& every = options.checkpoint;
  if (!every.path.empty() && !(every.every_launches > 0 || every.every_seconds > 0.0 || every.on_signal != 0)) {
    throw std::invalid_argument(std::string(function) + ": checkpoint.path is set, but neither every_launches (" +
                                std::to_string(every.every_launches) + ") nor every_seconds (" +
                                std::to_string(every.every_seconds) + ") is positive, nor on_signal set");
  }
  if (every.path.empty() && every.on_signal != 0) {
    throw std::invalid_argument(std::string(function) + ": checkpoint.on_signal (" + std::to_string(every.on_signal) +
                                ") needs checkpoint.path: the run stops on it after writing a checkpoint");
  }
  if (!(every.longest_launch_seconds > 0.0)) {
    throw std::invalid_argument(std::string(function) + ": checkpoint.longest_launch_seconds must be positive, got " +
                                std::to_string(every.longest_launch_seconds));
  }
  if (!(options.observer_seconds > 0.0)) {
    throw std::invalid_argument(std::string(function) + ": observer_seconds must be positive, got " +
                                std::to_string(options.observer_seconds));
  }
  if (options.first_sample < 0) {
    throw std::invalid_argument(std::string(function) + ": first_sample cannot be negative, got " +
                                std::to_string(options.first_sample));
  }
  detail::require_finite(exec, function, state, options.resume_from.empty(), in, n);
  const detail::SignalWatch watch(every.on_signal);
  // Held until the run returns: no other run writes this path meanwhile.
  const detail::PathLock lock = every.path.empty() ? detail::PathLock() : claim_checkpoint_path(every.path);
  return detail::Run<ExecSpace, Model, Mem>(exec, deployed, state, in, outcomes, max_steps, nest, options, watch).go();
}

/// As above, with only the terminated flags in and out (the run keeps status and steps taken).
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs,
                      const typename detail::NonDeduced<Kokkos::View<bool*, Mem>>::type& terminated,
                      std::int64_t max_steps, const RunOptions& options = {}) {
  const auto n = static_cast<std::int64_t>(terminated.extent(0));
  const Outcomes<Mem> out{
      terminated, Kokkos::View<std::uint8_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::status"), n),
      Kokkos::View<std::int64_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::steps_taken"), n)};
  return run_until_done(exec, deployed, state, inputs, out, max_steps, options);
}

/// As above, with every sample starting unterminated (a flag plane eagle allocates).
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value>>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs, std::int64_t max_steps, const RunOptions& options = {}) {
  return run_until_done(exec, deployed, state, inputs,
                        Kokkos::View<bool*, Mem>("eagle::terminated", state.planes[0].extent(0)), max_steps, options);
}

/// As above, on Kokkos::DefaultExecutionSpace, with outcome planes.
template <class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state, const Inputs& inputs,
                      const typename detail::NonDeduced<Outcomes<Mem>>::type& outcomes, std::int64_t max_steps,
                      const RunOptions& options = {}) {
  return run_until_done(Kokkos::DefaultExecutionSpace(), deployed, state, inputs, outcomes, max_steps, options);
}

/// As above, on Kokkos::DefaultExecutionSpace.
template <class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state, const Inputs& inputs,
                      std::int64_t max_steps, const RunOptions& options = {}) {
  return run_until_done(Kokkos::DefaultExecutionSpace(), deployed, state, inputs, max_steps, options);
}

}  // namespace eagle
