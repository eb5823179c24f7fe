#pragma once
// Lane packs: several samples' values in one SIMD register, for the host tile. A model whose step
// body is branch-free arithmetic says so (`static constexpr bool lane_packs = true;`, and its
// `step` returns `auto`); the tile then runs that same body on packs, so each + - * / is one
// vector instruction across lanes. Every other model runs on the tile one lane at a time.
// This header is the one place eagle speaks SIMD: GCC/Clang vector extensions at the target's
// native width (SSE2/NEON 16 bytes, AVX 32, AVX-512 64; -march decides). Wider vectors than the
// target has are lowered through memory and run slower than scalars, so never use them.

#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__) && defined(__SSE2__)
#include <immintrin.h>  // a mask's lanes as bits in one instruction
#endif

namespace eagle {

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__) && \
    (defined(__AVX512F__) || defined(__AVX__) || defined(__SSE2__) || defined(__ARM_NEON))
#define EAGLE_HAS_LANE_PACKS 1
#if defined(__AVX512F__)
inline constexpr std::size_t native_vector_bytes = 64;
#elif defined(__AVX__)
inline constexpr std::size_t native_vector_bytes = 32;
#else
inline constexpr std::size_t native_vector_bytes = 16;
#endif
#else
inline constexpr std::size_t native_vector_bytes = 0;
#endif

/// The vector instruction set eagle's packs are compiled for, as perf outputs record it.
inline std::string native_isa() {
#if !defined(EAGLE_HAS_LANE_PACKS)
  std::string isa = "no lane packs (scalar lanes)";
#elif defined(__AVX512F__)
  std::string isa = "AVX-512F, 64-byte vectors (8 doubles)";
#elif defined(__AVX2__)
  std::string isa = "AVX2, 32-byte vectors (4 doubles)";
#elif defined(__AVX__)
  std::string isa = "AVX, 32-byte vectors (4 doubles)";
#elif defined(__ARM_NEON)
  std::string isa = "NEON, 16-byte vectors (2 doubles)";
#else
  std::string isa = "SSE2, 16-byte vectors (2 doubles)";
#endif
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
  isa += ", FMA";
#endif
  return isa;
}

/// Forces inlining where a loop over packs must see compile-time pack indices (host code only).
/// EAGLE_HOST_FLATTEN inlines every call a hot host loop makes, however large: GCC calls a
/// Runge-Kutta step on packs out of line in a large unit, its packs passed through memory (Lorenz
/// on SSE2: 15 % more instructions).
#if defined(__GNUC__) || defined(__clang__)
#define EAGLE_HOST_FORCEINLINE inline __attribute__((always_inline))
#define EAGLE_HOST_LAMBDA_FORCEINLINE __attribute__((always_inline))
#define EAGLE_HOST_FLATTEN __attribute__((noinline, flatten))
#else
#define EAGLE_HOST_FORCEINLINE inline
#define EAGLE_HOST_LAMBDA_FORCEINLINE
#define EAGLE_HOST_FLATTEN
#endif

/// Vector registers the target has: how many packs can stay in registers at once.
#if defined(__AVX512F__) || defined(__aarch64__)
inline constexpr int native_vector_registers = 32;
#else
inline constexpr int native_vector_registers = 16;
#endif

/// Lanes of T in one native vector; 1 where eagle knows no vector type for this compiler/target.
template <class T>
inline constexpr int pack_width = native_vector_bytes >= 2 * sizeof(T)
                                      ? static_cast<int>(native_vector_bytes / sizeof(T))
                                      : 1;

/// pack_width<T> values of T, their comparison masks and per-lane counters (defined where the
/// target has vectors; declared everywhere so code naming them compiles for every backend).
template <class T>
struct Pack;
template <class T>
struct PackMask;
template <class T>
struct PackCount;
template <class T>
struct PackStatus;
template <class T>
struct MaskedPack;
#if defined(__AVX512F__)
template <class T, int predicate>
struct PackCompare;
#endif
/// A mask's lanes as bits (lane i: bit i), and the mask of given bits.
template <class T>
unsigned bits(PackMask<T> mask);
template <class T>
PackMask<T> mask_from_bits(unsigned b);

#if defined(EAGLE_HAS_LANE_PACKS)

/// The integer type as wide as T, for masks.
template <class T>
using mask_int_t = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;

/// Native vectors of T and of its mask integers. Spelled out per type: GCC drops vector_size on
/// a dependent type.
template <class T>
struct NativeVector;
template <>
struct NativeVector<double> {
  typedef double type __attribute__((vector_size(native_vector_bytes)));
  typedef std::int64_t mask __attribute__((vector_size(native_vector_bytes)));
};
template <>
struct NativeVector<float> {
  typedef float type __attribute__((vector_size(native_vector_bytes)));
  typedef std::int32_t mask __attribute__((vector_size(native_vector_bytes)));
};

/// Arithmetic with packs and scalars; comparisons give PackMask.
template <class T>
struct Pack {
  static constexpr int width = pack_width<T>;
  using vector_type = typename NativeVector<T>::type;
  vector_type v;

  Pack() = default;  // uninitialised, as a double is: no zeroing on every burst's local packs
  // NOLINTNEXTLINE: scalars broadcast, as in the step body; -0 + x is x for every x (+0 + -0 is +0)
  Pack(T scalar) : v(-vector_type{} + scalar) {}
  explicit Pack(vector_type vector) : v(vector) {}

  T operator[](int lane) const { return v[lane]; }
  void set(int lane, T value) { v[lane] = value; }

  friend Pack operator+(Pack a, Pack b) { return Pack(a.v + b.v); }
  friend Pack operator-(Pack a, Pack b) { return Pack(a.v - b.v); }
  friend Pack operator*(Pack a, Pack b) { return Pack(a.v * b.v); }
  friend Pack operator/(Pack a, Pack b) { return Pack(a.v / b.v); }
  friend Pack operator+(Pack a, T b) { return Pack(a.v + b); }
  friend Pack operator-(Pack a, T b) { return Pack(a.v - b); }
  friend Pack operator*(Pack a, T b) { return Pack(a.v * b); }
  friend Pack operator/(Pack a, T b) { return Pack(a.v / b); }
  friend Pack operator+(T a, Pack b) { return Pack(a + b.v); }
  friend Pack operator-(T a, Pack b) { return Pack(a - b.v); }
  friend Pack operator*(T a, Pack b) { return Pack(a * b.v); }
  friend Pack operator/(T a, Pack b) { return Pack(a / b.v); }
  Pack operator-() const { return Pack(-v); }
  Pack& operator+=(Pack b) { return *this = *this + b; }
  Pack& operator-=(Pack b) { return *this = *this - b; }
  Pack& operator*=(Pack b) { return *this = *this * b; }
  Pack& operator/=(Pack b) { return *this = *this / b; }

#if defined(__AVX512F__)
  // Compares into AVX-512's mask registers; the predicates are C's (ordered, except != : a NaN is
  // unequal to everything).
  friend PackCompare<T, _CMP_LT_OQ> operator<(Pack a, Pack b) { return {a, b}; }
  friend PackCompare<T, _CMP_LE_OQ> operator<=(Pack a, Pack b) { return {a, b}; }
  friend PackCompare<T, _CMP_LT_OQ> operator>(Pack a, Pack b) { return {b, a}; }
  friend PackCompare<T, _CMP_LE_OQ> operator>=(Pack a, Pack b) { return {b, a}; }
  friend PackCompare<T, _CMP_EQ_OQ> operator==(Pack a, Pack b) { return {a, b}; }
  friend PackCompare<T, _CMP_NEQ_UQ> operator!=(Pack a, Pack b) { return {a, b}; }
#else
  friend PackMask<T> operator<(Pack a, Pack b) { return PackMask<T>(a.v < b.v); }
  friend PackMask<T> operator<=(Pack a, Pack b) { return PackMask<T>(a.v <= b.v); }
  // > and >= as swapped < and <=: SSE2 has only the latter, and GCC 12 scalarises the former.
  friend PackMask<T> operator>(Pack a, Pack b) { return PackMask<T>(b.v < a.v); }
  friend PackMask<T> operator>=(Pack a, Pack b) { return PackMask<T>(b.v <= a.v); }
  friend PackMask<T> operator==(Pack a, Pack b) { return PackMask<T>(a.v == b.v); }
  friend PackMask<T> operator!=(Pack a, Pack b) { return PackMask<T>(a.v != b.v); }
#endif
};

#if defined(__AVX512F__)
/// Per-lane booleans of a Pack<T>: the bits of an AVX-512 mask register (lane i: bit i). A mask
/// held across steps stays in a k register; as a vector of all-ones lanes it took a vector
/// register a pack and a conversion each way every step (the tile ran 1.4x behind hand code).
template <class T>
struct PackMask {
  using vector_type = typename NativeVector<T>::mask;                         ///< a lane's integer, as wide as T
  using bits_type = std::conditional_t<sizeof(T) == 8, __mmask8, __mmask16>;  ///< a k register's bits
  static constexpr bits_type every = static_cast<bits_type>((1U << Pack<T>::width) - 1);  ///< every lane
  bits_type k;                                                                            ///< lane i: bit i

  PackMask() = default;
  explicit PackMask(bits_type bits) : k(bits) {}
  PackMask(bool b) : k(b ? every : bits_type(0)) {}  // NOLINT

  friend PackMask operator&(PackMask a, PackMask b) { return PackMask(static_cast<bits_type>(a.k & b.k)); }
  friend PackMask operator|(PackMask a, PackMask b) { return PackMask(static_cast<bits_type>(a.k | b.k)); }
  PackMask operator!() const { return PackMask(static_cast<bits_type>(~k & every)); }
  friend PackMask operator^(PackMask a, PackMask b) { return PackMask(static_cast<bits_type>(a.k ^ b.k)); }
  /// The lanes as integers, all bits set for true.
  vector_type lanes() const {
    if constexpr (sizeof(T) == 8)
      return reinterpret_cast<vector_type>(_mm512_maskz_set1_epi64(k, -1));
    else
      return reinterpret_cast<vector_type>(_mm512_maskz_set1_epi32(k, -1));
  }
};

/// A comparison's mask that keeps its operands, so its negation is the opposite comparison, one
/// instruction. The tile's `alive & !done` at every step is then one compare under the k register
/// `alive` (GCC fuses an and into a compare, not into a compare's complement). Use it as any
/// PackMask: it is made from one (`decltype(a < b)` as a mask variable's type holds any mask), and
/// its negation is then the mask's complement.
template <class T, int predicate>
struct PackCompare : PackMask<T> {
  Pack<T> a, b;  ///< the compared packs, a predicate b, where `exact`
  bool exact;    ///< the mask is this comparison's

  PackCompare() : PackMask<T>(false), a(T(0)), b(T(0)), exact(false) {}
  /// a predicate b, lane by lane.
  PackCompare(Pack<T> lhs, Pack<T> rhs) : PackMask<T>(compare<predicate>(lhs, rhs)), a(lhs), b(rhs), exact(true) {}
  /// Any mask; its negation is its complement.
  PackCompare(PackMask<T> mask) : PackMask<T>(mask), a(T(0)), b(T(0)), exact(false) {}  // NOLINT: a mask as any
  /// The opposite predicate (bit 2 of AVX's predicate codes negates one, NaN lanes included).
  PackMask<T> operator!() const {
    return exact ? PackMask<T>(compare<(predicate ^ 4)>(a, b)) : !static_cast<const PackMask<T>&>(*this);
  }

 private:
  template <int p>
  static typename PackMask<T>::bits_type compare(Pack<T> lhs, Pack<T> rhs) {
    if constexpr (sizeof(T) == 8)
      return _mm512_cmp_pd_mask(reinterpret_cast<__m512d>(lhs.v), reinterpret_cast<__m512d>(rhs.v), p);
    else
      return _mm512_cmp_ps_mask(reinterpret_cast<__m512>(lhs.v), reinterpret_cast<__m512>(rhs.v), p);
  }
};
#else
/// Per-lane booleans of a Pack<T>: all bits set for true.
template <class T>
struct PackMask {
  using vector_type = typename NativeVector<T>::mask;  ///< a lane's integer, as wide as T
  vector_type m;

  PackMask() = default;
  explicit PackMask(vector_type mask) : m(mask) {}
  PackMask(bool b) : m(vector_type{} + (b ? mask_int_t<T>(-1) : mask_int_t<T>(0))) {}  // NOLINT

  friend PackMask operator&(PackMask a, PackMask b) { return PackMask(a.m & b.m); }
  friend PackMask operator|(PackMask a, PackMask b) { return PackMask(a.m | b.m); }
  PackMask operator!() const { return PackMask(~m); }
  friend PackMask operator^(PackMask a, PackMask b) { return PackMask(a.m ^ b.m); }
  /// The lanes as integers, all bits set for true.
  vector_type lanes() const { return m; }
};
#endif

/// Per-lane counts of how often a mask was true: one instruction per count, no select (on AVX-512
/// an add under the k register, elsewhere a subtraction of the mask: a true lane is all ones, -1).
template <class T>
struct PackCount {
  typename NativeVector<T>::mask c;  // zeroed where its holder is value-initialised
#if defined(__AVX512F__)
  void add(PackMask<T> mask) { add(mask, 1); }
  void add(PackMask<T> mask, std::int64_t n) {
    const auto counts = reinterpret_cast<__m512i>(c);
    if constexpr (sizeof(T) == 8) {
      c = reinterpret_cast<decltype(c)>(_mm512_mask_add_epi64(counts, mask.k, counts, _mm512_set1_epi64(n)));
    } else {
      c = reinterpret_cast<decltype(c)>(
          _mm512_mask_add_epi32(counts, mask.k, counts, _mm512_set1_epi32(static_cast<std::int32_t>(n))));
    }
  }
#else
  void add(PackMask<T> mask) { c -= mask.lanes(); }
  void add(PackMask<T> mask, std::int64_t n) { c += mask.lanes() & static_cast<mask_int_t<T>>(n); }
#endif
  std::int64_t operator[](int lane) const { return static_cast<std::int64_t>(c[lane]); }
};

/// A step's outcome lane by lane (eagle::step_result makes it): the lanes that step on, and each
/// lane's status code (eagle/status_codes.hpp).
template <class T>
struct PackStatus {
  PackMask<T> running;
  typename NativeVector<T>::mask code;
};

/// `mask ? a : b`, lane by lane.
/// The vector `?:` tests each mask lane against zero: a blend where the target compares integers
/// as wide as T (AVX2, AVX-512, SSE4.1), scalar code elsewhere (SSE2 has no 64-bit compare). There
/// the select is bitwise on the lanes' bits, which a mask lane (all ones or all zeros) allows.
template <class T>
Pack<T> select(PackMask<T> mask, Pack<T> a, Pack<T> b) {
#if defined(__AVX512F__)
  using Vector = typename NativeVector<T>::type;
  if constexpr (sizeof(T) == 8)
    return Pack<T>(reinterpret_cast<Vector>(
        _mm512_mask_blend_pd(mask.k, reinterpret_cast<__m512d>(b.v), reinterpret_cast<__m512d>(a.v))));
  else
    return Pack<T>(reinterpret_cast<Vector>(
        _mm512_mask_blend_ps(mask.k, reinterpret_cast<__m512>(b.v), reinterpret_cast<__m512>(a.v))));
#elif defined(__AVX2__) || (defined(__SSE4_1__) && !defined(__AVX__))
  return Pack<T>(mask.m ? a.v : b.v);
#else
  using Bits = typename NativeVector<T>::mask;
  using Vector = typename NativeVector<T>::type;
  return Pack<T>(
      reinterpret_cast<Vector>((reinterpret_cast<Bits>(a.v) & mask.m) | (reinterpret_cast<Bits>(b.v) & ~mask.m)));
#endif
}

/// A state field of the tile's lane packs as a masked step sees it: assigning to it writes only the
/// lanes still stepping, so the arithmetic whose result is written runs under the mask (AVX-512:
/// one masked instruction, where a step then a merge took two), and the step's end test reads the
/// merged state (one compare under the mask). Lanes that stopped keep their state, as before.
/// Any copy is a plain pack again, every lane written: a step body's temporaries, `auto x = s[i]`
/// included, behave as Pack<T>.
template <class T>
struct MaskedPack : Pack<T> {
  PackMask<T> writes;  ///< the lanes an assignment writes, where `masked`
  bool masked;         ///< a state field of a masked step; else every lane is written

  MaskedPack() : writes(true), masked(false) {}
  MaskedPack(Pack<T> value, PackMask<T> lanes) : Pack<T>(value), writes(lanes), masked(true) {}
  MaskedPack(const MaskedPack& other) : Pack<T>(other), writes(true), masked(false) {}
  MaskedPack(Pack<T> value) : Pack<T>(value), writes(true), masked(false) {}  // NOLINT: from arithmetic
  MaskedPack(T scalar) : Pack<T>(scalar), writes(true), masked(false) {}      // NOLINT: broadcast, as Pack<T>

  MaskedPack& operator=(const MaskedPack& other) { return *this = static_cast<const Pack<T>&>(other); }
  MaskedPack& operator=(Pack<T> value) {
    this->v = masked ? select(writes, value, static_cast<const Pack<T>&>(*this)).v : value.v;
    return *this;
  }
  MaskedPack& operator=(T scalar) { return *this = Pack<T>(scalar); }
  MaskedPack& operator+=(Pack<T> b) { return *this = *this + b; }
  MaskedPack& operator-=(Pack<T> b) { return *this = *this - b; }
  MaskedPack& operator*=(Pack<T> b) { return *this = *this * b; }
  MaskedPack& operator/=(Pack<T> b) { return *this = *this / b; }
};

/// One instruction where the target has it (the tile asks this of every pack at every look), else
/// a bit operation per lane.
template <class T>
unsigned bits(PackMask<T> mask) {
  constexpr bool wide = sizeof(T) == 8;
#if defined(__AVX512F__)
  static_cast<void>(wide);
  return mask.k;
#elif defined(__AVX__)
  return wide ? _mm256_movemask_pd((__m256d)mask.m) : _mm256_movemask_ps((__m256)mask.m);
#elif defined(__SSE2__)
  return wide ? _mm_movemask_pd((__m128d)mask.m) : _mm_movemask_ps((__m128)mask.m);
#else
  unsigned b = 0;  // a mask lane is all ones or all zeros
  for (int lane = 0; lane < Pack<T>::width; ++lane) b |= static_cast<unsigned>(mask.m[lane] & 1) << lane;
  return b;
#endif
}

template <class T>
PackMask<T> mask_from_bits(unsigned b) {
#if defined(__AVX512F__)
  return PackMask<T>(static_cast<typename PackMask<T>::bits_type>(b & PackMask<T>::every));
#else
  using Bits = typename NativeVector<T>::mask;
  Bits lane_bit;  // 1, 2, 4, ...: a constant
  for (int lane = 0; lane < Pack<T>::width; ++lane) lane_bit[lane] = mask_int_t<T>(1) << lane;
  return PackMask<T>(((Bits{} + static_cast<mask_int_t<T>>(b)) & lane_bit) != 0);
#endif
}

/// Whether any lane's mask is true.
template <class T>
bool any(PackMask<T> mask) {
  return bits(mask) != 0;
}

#endif

/// The scalar forms, so one step body serves packs and single lanes (on every backend).
template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
KOKKOS_INLINE_FUNCTION T select(bool mask, T a, T b) {
  return mask ? a : b;
}
KOKKOS_INLINE_FUNCTION bool any(bool mask) { return mask; }

}  // namespace eagle
