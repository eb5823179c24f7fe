#pragma once
// The C library's elementary functions for step bodies (eagle's kernels and users' models), on
// every backend and every Kokkos eagle builds with: Kokkos 4 has them in Kokkos::, Kokkos 3.4 in
// Kokkos::Experimental::, the one place that difference lives. Each takes double or float, and on
// the host tile's lane packs works lane by lane (no vector maths library is assumed), so a step
// body written with them runs on packs unchanged.

#include <eagle/pack.hpp>

#include <Kokkos_Core.hpp>

namespace eagle::math {

#if KOKKOS_VERSION >= 40000
namespace impl = ::Kokkos;
#else
namespace impl = ::Kokkos::Experimental;
#endif

#if defined(EAGLE_HAS_LANE_PACKS)
namespace detail {
/// f applied to each lane of the packs.
template <class T, class F, class... Packs>
Pack<T> lanewise(const F& f, const Packs&... packs) {
  Pack<T> out;
  for (int lane = 0; lane < Pack<T>::width; ++lane) out.set(lane, f(packs[lane]...));
  return out;
}
}  // namespace detail
#define EAGLE_MATH_PACK_UNARY(name)                                   \
  template <class T>                                                  \
  Pack<T> name(Pack<T> x) {                                           \
    return detail::lanewise<T>([](T a) { return impl::name(a); }, x); \
  }
#define EAGLE_MATH_PACK_BINARY(name)                                             \
  template <class T>                                                             \
  Pack<T> name(Pack<T> x, Pack<T> y) {                                           \
    return detail::lanewise<T>([](T a, T b) { return impl::name(a, b); }, x, y); \
  }                                                                              \
  template <class T>                                                             \
  Pack<T> name(Pack<T> x, T y) {                                                 \
    return name(x, Pack<T>(y));                                                  \
  }                                                                              \
  template <class T>                                                             \
  Pack<T> name(T x, Pack<T> y) {                                                 \
    return name(Pack<T>(x), y);                                                  \
  }
#else
#define EAGLE_MATH_PACK_UNARY(name)
#define EAGLE_MATH_PACK_BINARY(name)
#endif

#define EAGLE_MATH_UNARY(name)                                           \
  KOKKOS_INLINE_FUNCTION double name(double x) { return impl::name(x); } \
  KOKKOS_INLINE_FUNCTION float name(float x) { return impl::name(x); }   \
  EAGLE_MATH_PACK_UNARY(name)
#define EAGLE_MATH_BINARY(name)                                                       \
  KOKKOS_INLINE_FUNCTION double name(double x, double y) { return impl::name(x, y); } \
  KOKKOS_INLINE_FUNCTION float name(float x, float y) { return impl::name(x, y); }    \
  EAGLE_MATH_PACK_BINARY(name)

// The functions both Kokkos 3.4 and 4.x provide on every backend.
EAGLE_MATH_UNARY(fabs)
EAGLE_MATH_UNARY(sqrt)
EAGLE_MATH_UNARY(cbrt)
EAGLE_MATH_UNARY(exp)
EAGLE_MATH_UNARY(exp2)
EAGLE_MATH_UNARY(expm1)
EAGLE_MATH_UNARY(log)
EAGLE_MATH_UNARY(log2)
EAGLE_MATH_UNARY(log10)
EAGLE_MATH_UNARY(log1p)
EAGLE_MATH_UNARY(sin)
EAGLE_MATH_UNARY(cos)
EAGLE_MATH_UNARY(tan)
EAGLE_MATH_UNARY(asin)
EAGLE_MATH_UNARY(acos)
EAGLE_MATH_UNARY(atan)
EAGLE_MATH_UNARY(sinh)
EAGLE_MATH_UNARY(cosh)
EAGLE_MATH_UNARY(tanh)
EAGLE_MATH_UNARY(asinh)
EAGLE_MATH_UNARY(acosh)
EAGLE_MATH_UNARY(atanh)
EAGLE_MATH_UNARY(erf)
EAGLE_MATH_UNARY(erfc)
EAGLE_MATH_UNARY(tgamma)
EAGLE_MATH_UNARY(lgamma)
EAGLE_MATH_UNARY(floor)
EAGLE_MATH_UNARY(ceil)
EAGLE_MATH_UNARY(trunc)
EAGLE_MATH_UNARY(nearbyint)
EAGLE_MATH_BINARY(pow)
EAGLE_MATH_BINARY(atan2)
EAGLE_MATH_BINARY(hypot)
EAGLE_MATH_BINARY(fmod)
EAGLE_MATH_BINARY(remainder)
EAGLE_MATH_BINARY(fmin)
EAGLE_MATH_BINARY(fmax)
EAGLE_MATH_BINARY(fdim)

#undef EAGLE_MATH_UNARY
#undef EAGLE_MATH_BINARY
#undef EAGLE_MATH_PACK_UNARY
#undef EAGLE_MATH_PACK_BINARY

template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) {
  return impl::isfinite(x);
}

}  // namespace eagle::math
