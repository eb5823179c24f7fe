#pragma once
// Math functions for step bodies (eagle's kernels and users' models) and for eagle's own checks, on
// every backend: Kokkos 4 has them in Kokkos::, Kokkos 3.4 in Kokkos::Experimental::. The one place
// that difference lives.

#include <Kokkos_Core.hpp>

namespace eagle::math {

#if KOKKOS_VERSION >= 40000
namespace impl = ::Kokkos;
#else
namespace impl = ::Kokkos::Experimental;
#endif

KOKKOS_INLINE_FUNCTION double cos(double x) { return impl::cos(x); }
KOKKOS_INLINE_FUNCTION double sqrt(double x) { return impl::sqrt(x); }
KOKKOS_INLINE_FUNCTION double pow(double x, double y) { return impl::pow(x, y); }
KOKKOS_INLINE_FUNCTION double fabs(double x) { return impl::fabs(x); }
KOKKOS_INLINE_FUNCTION double fmin(double x, double y) { return impl::fmin(x, y); }
KOKKOS_INLINE_FUNCTION double fmax(double x, double y) { return impl::fmax(x, y); }

template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) {
  return impl::isfinite(x);
}

}  // namespace eagle::math
