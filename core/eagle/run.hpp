#pragma once
// run_until_done: launch until every sample is terminated or max_steps is reached.

#include <eagle/deploy.hpp>
#include <eagle/detail/checks.hpp>
#include <eagle/detail/dispatch.hpp>
#include <eagle/detail/fused_steps.hpp>
#include <eagle/fields.hpp>
#include <eagle/ladder.hpp>
#include <eagle/model.hpp>
#include <eagle/report.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
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

inline void require_positive_max_steps(const char* function, std::int64_t max_steps) {
  if (max_steps <= 0) {
    throw std::invalid_argument(std::string(function) + ": max_steps must be positive, got " +
                                std::to_string(max_steps));
  }
}

inline void require_compiled_k(const char* function, const Steps& steps) {
  if (steps.k() > max_steps_per_launch) {
    throw std::invalid_argument(std::string(function) + ": " + steps.describe() +
                                " exceeds the largest compiled steps per launch, " +
                                std::to_string(max_steps_per_launch));
  }
}

template <class ExecSpace, class Mem>
std::int64_t count_active(const ExecSpace& exec, const Kokkos::View<bool*, Mem>& terminated) {
  std::int64_t active = 0;
  Kokkos::parallel_reduce(
      "eagle::count_active",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, terminated.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) { sum += terminated(i) ? 0 : 1; }, active);
  return active;
}

template <class ExecSpace, class Mem>
std::int64_t longest(const ExecSpace& exec, const Kokkos::View<std::int64_t*, Mem>& steps_taken) {
  std::int64_t most = 0;
  Kokkos::parallel_reduce(
      "eagle::longest_sample",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, steps_taken.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& m) { m = steps_taken(i) > m ? steps_taken(i) : m; },
      Kokkos::Max<std::int64_t>(most));
  return std::max<std::int64_t>(most, 0);
}

}  // namespace detail

/// Advances every sample until it terminates or has taken `max_steps` steps, on `exec`.
///
/// `state` (eagle::state(...)) is updated in place; `inputs` (eagle::inputs(...) or
/// eagle::no_inputs) is read; `terminated` holds each sample's flag on entry (samples already
/// terminated are not stepped) and on exit. Input errors throw std::invalid_argument before
/// anything is written.
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs,
                      const typename detail::NonDeduced<Kokkos::View<bool*, Mem>>::type& terminated,
                      std::int64_t max_steps) {
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

  const auto in = detail::input_fields<T, Traits::input_count, Mem>(inputs);
  const auto n = static_cast<std::int64_t>(state.planes[0].extent(0));
  detail::require_positive_max_steps(function, max_steps);
  detail::require_compiled_k(function, deployed.steps);
  detail::check_extents(function, "state", state, n);
  detail::check_extents(function, "input", in, n);
  if (static_cast<std::int64_t>(terminated.extent(0)) != n) {
    throw std::invalid_argument(std::string(function) + ": the terminated plane has " +
                                std::to_string(terminated.extent(0)) + " samples, expected " + std::to_string(n));
  }
  detail::require_finite(exec, function, "state", state, n);
  detail::require_finite(exec, function, "input", in, n);

  Report report;
  report.model = Traits::name();
  report.execution_space = ExecSpace::name();
  report.steps_setting = deployed.steps.describe();
  report.samples = n;

  Kokkos::Timer timer;
  detail::SampleStatus<Mem> status{terminated, Kokkos::View<std::int64_t*, Mem>("eagle::steps_taken", n)};
  std::int64_t active = detail::count_active(exec, terminated);
  if (n == 0) report.note = "no samples: no launch";
  else if (active == 0) report.note = "every sample was already terminated: no launch";

  const std::string label_prefix = std::string("eagle::") + Traits::name() + "[K=";
  while (active > 0 && report.steps < max_steps) {
    const int k = static_cast<int>(std::min<std::int64_t>(deployed.steps.k(), max_steps - report.steps));
    detail::with_rung(k, [&](auto rung) {
      constexpr int K = decltype(rung)::value;
      const detail::FusedSteps<Model, K, Mem> launch{deployed.model, state, in, status, k};
      Kokkos::parallel_reduce(label_prefix + std::to_string(K) + "]",
                              Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n), launch,
                              active);
    });
    ++report.launches;
    report.steps += k;
    ++report.launches_by_k[k];
  }

  report.longest_sample_steps = detail::longest(exec, status.steps_taken);
  report.exact_steps = report.longest_sample_steps == report.steps;
  report.unfinished = active;
  report.finished = n - active;
  report.capped = active > 0;
  report.seconds = timer.seconds();
  return report;
}

/// As above, with every sample starting unterminated (a flag plane eagle allocates).
template <class ExecSpace, class Model, class T, int NS, class Mem, class Inputs,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value>>
Report run_until_done(const ExecSpace& exec, const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state,
                      const Inputs& inputs, std::int64_t max_steps) {
  const Kokkos::View<bool*, Mem> terminated("eagle::terminated", state.planes[0].extent(0));
  return run_until_done(exec, deployed, state, inputs, terminated, max_steps);
}

/// As above, on Kokkos::DefaultExecutionSpace.
template <class Model, class T, int NS, class Mem, class Inputs>
Report run_until_done(const Deployed<Model>& deployed, const Fields<T, NS, Mem>& state, const Inputs& inputs,
                      std::int64_t max_steps) {
  return run_until_done(Kokkos::DefaultExecutionSpace(), deployed, state, inputs, max_steps);
}

}  // namespace eagle
