#pragma once
// The C library's elementary functions for step bodies (eagle's kernels and users' models), on
// every backend and every Kokkos eagle builds with: Kokkos 4 has them in Kokkos::, Kokkos 3.4 in
// Kokkos::Experimental::, the one place that difference lives. Each takes double or float, and on
// the host tile's lane packs works lane by lane (no vector maths library is assumed), so a step
// body written with them runs on packs unchanged.

#include <eagle/pack.hpp>

#include <Kokkos_Core.hpp>

#include <limits>

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
// The mixed forms, a scalar broadcast to the pack.
#define EAGLE_MATH_PACK_MIXED(name) \
  template <class T>                \
  Pack<T> name(Pack<T> x, T y) {    \
    return name(x, Pack<T>(y));     \
  }                                 \
  template <class T>                \
  Pack<T> name(T x, Pack<T> y) {    \
    return name(Pack<T>(x), y);     \
  }
#define EAGLE_MATH_PACK_BINARY(name)                                             \
  template <class T>                                                             \
  Pack<T> name(Pack<T> x, Pack<T> y) {                                           \
    return detail::lanewise<T>([](T a, T b) { return impl::name(a, b); }, x, y); \
  }                                                                              \
  EAGLE_MATH_PACK_MIXED(name)

// |x|, sqrt, fmin and fmax are one instruction or two on a whole vector: on packs they run whole,
// not lane by lane (an adaptive stepper's error norm calls them every step). Results bit for bit
// the scalars': sqrt is correctly rounded; fmin/fmax give the other argument for a NaN and a zero
// for +0 and -0 (its sign, as in C, left open: here the first argument's).
template <class T>
Pack<T> fabs(Pack<T> x) {
  using Bits = typename NativeVector<T>::mask;
  const Bits magnitude = Bits{} + std::numeric_limits<mask_int_t<T>>::max();  // all bits but the sign
  return Pack<T>(reinterpret_cast<typename Pack<T>::vector_type>(reinterpret_cast<Bits>(x.v) & magnitude));
}
template <class T>
Pack<T> sqrt(Pack<T> x) {
  using Vector = typename Pack<T>::vector_type;
  constexpr bool wide = sizeof(T) == 8;
#if defined(__AVX512F__)  // maskz with every lane: GCC 12's unmasked forms warn of an undefined source
  if constexpr (wide)
    return Pack<T>(reinterpret_cast<Vector>(_mm512_maskz_sqrt_pd(0xFF, reinterpret_cast<__m512d>(x.v))));
  else
    return Pack<T>(reinterpret_cast<Vector>(_mm512_maskz_sqrt_ps(0xFFFF, reinterpret_cast<__m512>(x.v))));
#elif defined(__AVX__)
  if constexpr (wide)
    return Pack<T>(reinterpret_cast<Vector>(_mm256_sqrt_pd(reinterpret_cast<__m256d>(x.v))));
  else
    return Pack<T>(reinterpret_cast<Vector>(_mm256_sqrt_ps(reinterpret_cast<__m256>(x.v))));
#elif defined(__SSE2__)
  if constexpr (wide)
    return Pack<T>(reinterpret_cast<Vector>(_mm_sqrt_pd(reinterpret_cast<__m128d>(x.v))));
  else
    return Pack<T>(reinterpret_cast<Vector>(_mm_sqrt_ps(reinterpret_cast<__m128>(x.v))));
#else
  (void)wide;
  return detail::lanewise<T>([](T a) { return impl::sqrt(a); }, x);
#endif
}
template <class T>
Pack<T> fmin(Pack<T> x, Pack<T> y) {
  return select((y < x) | (x != x), y, x);
}
template <class T>
Pack<T> fmax(Pack<T> x, Pack<T> y) {
  return select((x < y) | (x != x), y, x);
}
EAGLE_MATH_PACK_MIXED(fmin)
EAGLE_MATH_PACK_MIXED(fmax)
#else
#define EAGLE_MATH_PACK_UNARY(name)
#define EAGLE_MATH_PACK_BINARY(name)
#endif

// The scalars; functions whose packs run whole (above) take only these.
#define EAGLE_MATH_SCALAR_UNARY(name)                                    \
  KOKKOS_INLINE_FUNCTION double name(double x) { return impl::name(x); } \
  KOKKOS_INLINE_FUNCTION float name(float x) { return impl::name(x); }
#define EAGLE_MATH_SCALAR_BINARY(name)                                                \
  KOKKOS_INLINE_FUNCTION double name(double x, double y) { return impl::name(x, y); } \
  KOKKOS_INLINE_FUNCTION float name(float x, float y) { return impl::name(x, y); }
// The scalars and their packs, lane by lane.
#define EAGLE_MATH_UNARY(name)  \
  EAGLE_MATH_SCALAR_UNARY(name) \
  EAGLE_MATH_PACK_UNARY(name)
#define EAGLE_MATH_BINARY(name)  \
  EAGLE_MATH_SCALAR_BINARY(name) \
  EAGLE_MATH_PACK_BINARY(name)

// The functions both Kokkos 3.4 and 4.x provide on every backend.
EAGLE_MATH_SCALAR_UNARY(fabs)
EAGLE_MATH_SCALAR_UNARY(sqrt)
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
EAGLE_MATH_SCALAR_BINARY(fmin)
EAGLE_MATH_SCALAR_BINARY(fmax)
EAGLE_MATH_BINARY(fdim)

#undef EAGLE_MATH_UNARY
#undef EAGLE_MATH_BINARY
#undef EAGLE_MATH_SCALAR_UNARY
#undef EAGLE_MATH_SCALAR_BINARY
#undef EAGLE_MATH_PACK_UNARY
#undef EAGLE_MATH_PACK_BINARY
#undef EAGLE_MATH_PACK_MIXED

template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) {
  return impl::isfinite(x);
}

}  // namespace eagle::math
