#pragma once
// The vectors of the limit (hand_limit.hpp): GCC/Clang vector extensions at the native width of
// the ISA this file is compiled for (SSE2 2 doubles, AVX/AVX2 4, AVX-512 8), the lane operations
// its models and run loop use, and how its bursts run on this ISA.

#include <immintrin.h>

#include <array>
#include <cstdint>
#include <cstring>

namespace eagle::perf {

#if defined(__AVX512F__)
inline constexpr int limit_width = 8;
inline constexpr int limit_registers = 32;
#elif defined(__AVX__)
inline constexpr int limit_width = 4;
inline constexpr int limit_registers = 16;
#else
inline constexpr int limit_width = 2;
inline constexpr int limit_registers = 16;
#endif
using LimitVec = double __attribute__((vector_size(limit_width * sizeof(double))));
using LimitMask = std::int64_t __attribute__((vector_size(limit_width * sizeof(double))));
inline constexpr int limit_steps_between_looks = 32;
/// Whether bursts run unmasked (undone if a lane ends) once lanes stop seldom: without AVX-512 a
/// masked step pays a blend per state field, and an unmasked burst tests lanes' ends once, where an
/// exact one tests them every step; AVX-512 masks the arithmetic itself (each Lanes may say otherwise).
#if defined(__AVX512F__)
inline constexpr bool limit_unmasked_bursts = false;
#else
inline constexpr bool limit_unmasked_bursts = true;
#endif
/// Whether, while every lane runs, the lanes step unmasked until the first step in which one ends
/// (exact_burst), rather than in masked bursts: without AVX-512 a masked step pays a blend per
/// state field and a vector holds few lanes, so lanes end seldom; on AVX-512 a lane of the 48 in
/// flight ends nearly every step of a spread batch.
inline constexpr bool limit_exact_bursts = limit_registers < 32;
/// Masked bursts without a stop after which bursts run unmasked.
inline constexpr int limit_quiet_bursts = 2;

/// `m ? a : b` per lane; on SSE2 (no 64-bit compare, GCC scalarises `?:`) with bit operations.
inline LimitVec blend(LimitMask m, LimitVec a, LimitVec b) {
#if defined(__AVX__) || defined(__SSE4_1__)
  return m ? a : b;
#else
  return reinterpret_cast<LimitVec>((reinterpret_cast<LimitMask>(a) & m) | (reinterpret_cast<LimitMask>(b) & ~m));
#endif
}

/// Lane l of a vector, l known only at run time (through a temporary: the vector stays in its register).
inline double lane_of(LimitVec vec, int l) {
  double lanes[limit_width];
  std::memcpy(lanes, &vec, sizeof vec);
  return lanes[l];
}
/// `vec` with the lanes `where` set to `value`: a blend, never an indexed write into the vector.
inline LimitVec with_lanes(LimitMask where, double value, LimitVec vec) {
  return blend(where, LimitVec{} + value, vec);
}
/// W consecutive values from p, and into p (no alignment asked).
inline LimitVec loadu(const double* p) {
  LimitVec vec;
  std::memcpy(&vec, p, sizeof vec);
  return vec;
}
inline void storeu(double* p, LimitVec vec) { std::memcpy(p, &vec, sizeof vec); }
/// W - 1 clear lanes, a set one, W - 1 clear: lane l's mask is the W values from W - 1 - l.
inline constexpr auto one_lane_window = [] {
  std::array<std::int64_t, 2 * limit_width - 1> window{};
  window[limit_width - 1] = -1;
  return window;
}();
/// The mask of lane l alone, one load: SSE2 has no 64-bit compare for `index == l`, and with l
/// known only at run time (the refill's) the compare made SSE2's spread batches 5 % slower.
inline LimitMask lane_mask(int l) {
  LimitMask mask;
  std::memcpy(&mask, one_lane_window.data() + (limit_width - 1 - l), sizeof mask);
  return mask;
}

/// The lanes of `m` as bits (lane l: bit l): one instruction on each ISA (a lane-by-lane loop costs
/// a look as much as two steps on AVX-512).
inline unsigned lane_bits(LimitMask m) {
#if defined(__AVX512F__)
  return _mm512_test_epi64_mask(reinterpret_cast<__m512i>(m), reinterpret_cast<__m512i>(m));
#elif defined(__AVX__)
  return static_cast<unsigned>(_mm256_movemask_pd(reinterpret_cast<__m256d>(m)));
#else
  return static_cast<unsigned>(_mm_movemask_pd(reinterpret_cast<__m128d>(m)));
#endif
}
/// Whether any lane of `m` is set.
inline bool any_lane(LimitMask m) { return lane_bits(m) != 0; }
/// Whether every lane of `m` is set.
inline bool all_lanes(LimitMask m) { return !any_lane(~m); }

}  // namespace eagle::perf
