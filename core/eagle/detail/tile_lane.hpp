#pragma once
// A lane of the host tile: what one of its packs holds, a SIMD pack of samples (models that
// declare `lane_packs`, eagle/pack.hpp) or one sample, with the same operations on both, so the
// tile's code is written once.

#include <eagle/model.hpp>
#include <eagle/pack.hpp>

#include <cstdint>
#include <cstring>

namespace eagle::detail {

/// What a tile lane holds: a SIMD pack of samples, or one sample.
template <class Model,
          bool packs = uses_lane_packs<Model> && (pack_width<typename ModelTraits<Model>::scalar_type> > 1)>
struct TileLane {
  using T = typename ModelTraits<Model>::scalar_type;
  using type = T;
  using field = T;  // what a step body sees
  using mask = bool;
  using count = std::int64_t;
  using codes = std::uint8_t;  // the status code the lane ended with
  static constexpr int width = 1;
  static void add(count& c, bool alive) { c += alive ? 1 : 0; }
  static void add(count& c, bool alive, std::int64_t n) { c += alive ? n : 0; }
  static unsigned bits(bool alive) { return alive ? 1U : 0U; }
  static bool from_bits(unsigned b) { return (b & 1U) != 0; }
  static void set(T& x, int, T value) { x = value; }
  static T get(T x, int) { return x; }
  static std::int64_t get_count(count c, int) { return c; }
  static codes keep_codes(bool alive, std::uint8_t now, codes before) { return alive ? now : before; }
  static void set_code(codes& c, int, std::uint8_t code) { c = code; }
  static std::uint8_t get_code(codes c, int) { return c; }
};
template <class Model>
struct TileLane<Model, true> {
  using T = typename ModelTraits<Model>::scalar_type;
  using type = Pack<T>;
  using field = MaskedPack<T>;  // what a step body sees
  using mask = PackMask<T>;
  using count = PackCount<T>;
  using codes = typename PackMask<T>::vector_type;  // each lane's status code
  static constexpr int width = pack_width<T>;
  static void add(count& c, const mask& alive) { c.add(alive); }
  static void add(count& c, const mask& alive, std::int64_t n) { c.add(alive, n); }
  static unsigned bits(const mask& alive) { return eagle::bits(alive); }
  static mask from_bits(unsigned b) { return mask_from_bits<T>(b); }
  static void set(type& x, int w, T value) { x.set(w, value); }
  static T get(const type& x, int w) { return x[w]; }
  /// W consecutive values from `from`, and into `to` (no alignment asked).
  static type load(const T* from) {
    type x;
    std::memcpy(&x.v, from, sizeof x.v);
    return x;
  }
  static void store(const type& x, T* to) { std::memcpy(to, &x.v, sizeof x.v); }
  static std::int64_t get_count(const count& c, int w) { return c[w]; }
  static codes keep_codes(const mask& alive, const codes& now, const codes& before) {
    return (alive.lanes() & now) | (~alive.lanes() & before);
  }
  static void set_code(codes& c, int w, std::uint8_t code) { c[w] = code; }
  static std::uint8_t get_code(const codes& c, int w) { return static_cast<std::uint8_t>(c[w]); }
};

}  // namespace eagle::detail
