#pragma once
// Host-side validation that runs before the first launch, so a bad call leaves the caller's
// planes exactly as they were.

#include <eagle/detail/sample_blocks.hpp>
#include <eagle/fields.hpp>
#include <eagle/math.hpp>
#include <eagle/pack.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace eagle::detail {

/// Whether every value of `fields` at samples [begin, end) is finite: x * 0 is 0 for a finite x
/// and NaN otherwise, summed lane by lane over runs of `lanes` samples, so that the loop runs on
/// SIMD lanes on every ISA (an OR of compares does not vectorise on SSE2). Four vectors of sums:
/// on one, each add waited for the last (AVX-512: 4 cycles a vector of 8 values).
template <class F>
KOKKOS_INLINE_FUNCTION bool all_finite(const F& fields, const SampleBlock& samples) {
  using T = std::remove_const_t<typename F::value_type>;
  constexpr int lanes = 4 * pack_width<T>;
  T zeros[lanes] = {};
  for (int f = 0; f < F::count; ++f) {
    std::int64_t i = samples.begin;
    for (; i + lanes <= samples.end; i += lanes) {
      for (int l = 0; l < lanes; ++l) zeros[l] += fields[f](i + l) * T(0);
    }
    for (; i < samples.end; ++i) zeros[0] += fields[f](i) * T(0);
  }
  T all = T(0);
  for (int l = 0; l < lanes; ++l) all += zeros[l];
  return all == T(0);
}

/// The first of `samples` with a NaN or infinite value in `fields`, or `none`.
template <class F>
KOKKOS_INLINE_FUNCTION std::int64_t first_non_finite_in(const F& fields, const SampleBlock& samples,
                                                        std::int64_t none) {
  if (all_finite(fields, samples)) return none;
  for (std::int64_t i = samples.begin; i < samples.end; ++i) {
    for (int f = 0; f < F::count; ++f) {
      if (!math::isfinite(fields[f](i))) return i;
    }
  }
  return none;
}

/// Index of the first sample with a NaN or infinite value in `state` (when `check_state`) and in
/// `inputs`, each -1 if none: one pass over both (the check reads every plane before a run).
template <class ExecSpace, class S, class I>
Kokkos::pair<std::int64_t, std::int64_t> first_non_finite(const ExecSpace& exec, const S& state, bool check_state,
                                                          const I& inputs, std::int64_t n) {
  const std::int64_t block = pass_block<ExecSpace>;
  std::int64_t first_state = n, first_input = n;
  Kokkos::parallel_reduce(
      "eagle::check_finite",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, pass_blocks<ExecSpace>(n)),
      KOKKOS_LAMBDA(const std::int64_t b, std::int64_t& lowest_state, std::int64_t& lowest_input) {
        const SampleBlock samples(b, block, n);
        const std::int64_t in_state = check_state ? first_non_finite_in(state, samples, n) : n;
        const std::int64_t in_inputs = first_non_finite_in(inputs, samples, n);
        if (in_state < lowest_state) lowest_state = in_state;
        if (in_inputs < lowest_input) lowest_input = in_inputs;
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
