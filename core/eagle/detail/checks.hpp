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

/// Index of the first sample with a NaN or infinite value in `fields`, or -1.
template <class ExecSpace, class F>
std::int64_t first_non_finite(const ExecSpace& exec, const F& fields, std::int64_t n) {
  std::int64_t first = n;
  Kokkos::parallel_reduce(
      "eagle::check_finite", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& lowest) {
        for (int f = 0; f < F::count; ++f) {
          if (!math::isfinite(fields[f](i)) && i < lowest) lowest = i;
        }
      },
      Kokkos::Min<std::int64_t>(first));
  return first < n ? first : -1;  // the reducer starts from the largest int64
}

/// Throws when any value of `fields` is NaN or infinite, naming the plane and the sample.
template <class ExecSpace, class F>
void require_finite(const ExecSpace& exec, const char* function, const char* what, const F& fields, std::int64_t n) {
  const std::int64_t i = first_non_finite(exec, fields, n);
  if (i < 0) return;
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

}  // namespace eagle::detail
