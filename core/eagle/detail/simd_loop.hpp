#pragma once
// The one place eagle asks the host compiler to vectorise a lane loop: EAGLE_SIMD_LOOP precedes a
// loop whose iterations are independent lanes (a sum into one variable is fine). `omp simd` needs
// OpenMP; without it GCC takes `ivdep` and Clang `loop vectorize`, so the Serial-only Kokkos build
// vectorises too, and no build warns about an unknown pragma.

#define EAGLE_DETAIL_PRAGMA(text) _Pragma(#text)

#if defined(_OPENMP)
#define EAGLE_SIMD_LOOP EAGLE_DETAIL_PRAGMA(omp simd)
#elif defined(__clang__)
#define EAGLE_SIMD_LOOP EAGLE_DETAIL_PRAGMA(clang loop vectorize(enable) interleave(enable))
#elif defined(__GNUC__)
#define EAGLE_SIMD_LOOP EAGLE_DETAIL_PRAGMA(GCC ivdep)
#else
#define EAGLE_SIMD_LOOP
#endif

// EAGLE_UNROLL precedes a short loop over a model's fields inside a lane loop: it has to be gone
// before the vectoriser looks at the lane loop.
#if defined(__clang__)
#define EAGLE_UNROLL EAGLE_DETAIL_PRAGMA(unroll)
#elif defined(__GNUC__)
#define EAGLE_UNROLL EAGLE_DETAIL_PRAGMA(GCC unroll 64)
#else
#define EAGLE_UNROLL
#endif
