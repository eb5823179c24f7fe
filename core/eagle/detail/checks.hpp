#pragma once
// Host-side validation that runs before the first launch, so a bad call leaves the caller's
// planes exactly as they were.

#include <eagle/fields.hpp>
#include <eagle/math.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace eagle::detail {

/// Index of the first sample with a NaN or infinite value in `state` (when `check_state`) and in
/// `inputs`, each -1 if none: one pass over both (the check reads every plane before a run).
template <class ExecSpace, class S, class I>
Kokkos::pair<std::int64_t, std::int64_t> first_non_finite(const ExecSpace& exec, const S& state, bool check_state,
                                                          const I& inputs, std::int64_t n) {
  std::int64_t first_state = n, first_input = n;
  Kokkos::parallel_reduce(
      "eagle::check_finite", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& lowest_state, std::int64_t& lowest_input) {
        bool finite = true;
        for (int f = 0; f < S::count; ++f) finite = finite && math::isfinite(state[f](i));
        if (check_state && !finite && i < lowest_state) lowest_state = i;
        finite = true;
        for (int f = 0; f < I::count; ++f) finite = finite && math::isfinite(inputs[f](i));
        if (!finite && i < lowest_input) lowest_input = i;
      },
      Kokkos::Min<std::int64_t>(first_state), Kokkos::Min<std::int64_t>(first_input));
  // Each reducer starts from the largest int64.
  return {first_state < n ? first_state : -1, first_input < n ? first_input : -1};
}

/// Throws, naming the plane and the sample, when `fields` holds a NaN or infinite value at sample i.
template <class F>
void require_finite_at(const char* function, const char* what, const F& fields, std::int64_t i) {
  for (int f = 0; f < F::count; ++f) {
    auto value = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                     Kokkos::subview(fields.planes[f], std::make_pair(i, i + 1)));
    if (!math::isfinite(value(0))) {
      throw std::invalid_argument(std::string(function) + ": " + what + " plane " + std::to_string(f) + " ('" +
                                  fields.planes[f].label() + "') holds a non-finite value at sample " +
                                  std::to_string(i) + "; every initial value must be finite");
    }
  }
}

/// Throws when any value of the state (when `check_state`: not on resuming, where the checkpoint
/// holds it) or of the inputs is NaN or infinite, naming the plane and the sample.
template <class ExecSpace, class S, class I>
void require_finite(const ExecSpace& exec, const char* function, const S& state, bool check_state, const I& inputs,
                    std::int64_t n) {
  const auto first = first_non_finite(exec, state, check_state, inputs, n);
  if (first.first >= 0) require_finite_at(function, "state", state, first.first);
  if (first.second >= 0) require_finite_at(function, "input", inputs, first.second);
}

}  // namespace eagle::detail
