#pragma once
// The fused launch for host execution spaces: one tile of samples per work item. Inside a tile,
// groups of `interleave` lane packs advance together with their state in registers for the whole
// launch: a sample's steps form a dependency chain, and only independent lanes side by side (in
// SIMD lanes and in several registers at once) keep the arithmetic units busy. Finished lanes are
// masked with selects, never branches. Models that declare `lane_packs` run on SIMD packs
// (eagle/pack.hpp); others on single lanes, still interleaved.

#include <eagle/detail/fused_steps.hpp>
#include <eagle/fields.hpp>
#include <eagle/model.hpp>
#include <eagle/pack.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace eagle::detail {

/// What a tile lane holds: a SIMD pack of samples, or one sample.
template <class Model, bool packs = uses_lane_packs<Model> && (pack_width<typename ModelTraits<Model>::scalar_type> > 1)>
struct TileLane {
  using T = typename ModelTraits<Model>::scalar_type;
  using type = T;
  using mask = bool;
  using count = std::int64_t;
  static constexpr int width = 1;
  static void add(count& c, bool alive) { c += alive ? 1 : 0; }
};
template <class Model>
struct TileLane<Model, true> {
  using T = typename ModelTraits<Model>::scalar_type;
  using type = Pack<T>;
  using mask = PackMask<T>;
  using count = PackCount<T>;
  static constexpr int width = pack_width<T>;
  static void add(count& c, const mask& alive) { c.add(alive); }
};

/// One tile of `Lanes` samples per work item, in groups of `interleave` lane packs, up to `limit`
/// steps per launch. A partial group pads its lanes as finished.
template <class Model, int Lanes, class Mem>
struct TiledSteps {
  using T = typename ModelTraits<Model>::scalar_type;
  using Lane = TileLane<Model>;
  using P = typename Lane::type;
  using Mask = typename Lane::mask;
  static constexpr int NS = ModelTraits<Model>::state_count;
  static constexpr int NI = ModelTraits<Model>::input_count;
  static constexpr int W = TileLane<Model>::width;
  /// Packs advanced side by side: independent chains hide the arithmetic's latency, but each pack's
  /// state, inputs, mask and counter must stay within about 12 of the 16 vector registers x86 has
  /// (measured on the oscillator, 6 registers a pack, one thread, 10^9 sample-steps: 2 packs
  /// 2.21 s with SSE2 and 1.27 s with AVX2; 4 packs 2.11 s and 1.40 s, where they spill).
  static constexpr int interleave = std::clamp(12 / (NS + NI + 2), 1, 4);
  static constexpr int group = interleave * W;
  /// Steps between looks at whether any lane of the group still runs.
  static constexpr std::int32_t steps_between_checks = 8;

  Model model;
  Fields<T, NS, Mem> state;
  Fields<const T, NI, Mem> inputs;
  Bookkeeping<Mem> book;
  std::int64_t n;
  std::int32_t limit;

  void operator()(const std::int64_t tile, std::int64_t& active) const {
    const std::int64_t tile_begin = tile * Lanes;
    const std::int64_t tile_end = std::min<std::int64_t>(n, tile_begin + Lanes);
    for (std::int64_t begin = tile_begin; begin < tile_end; begin += group) {
      active += advance_group(begin, std::min<std::int64_t>(tile_end - begin, group));
    }
  }

  /// Advances samples [begin, begin + lanes) (lanes <= group); returns how many still run.
  std::int64_t advance_group(const std::int64_t begin, const int lanes) const {
    const Model m = model;  // parameters in registers
    Values<P, NS> s[interleave] = {};
    Values<P, NI> in[interleave] = {};
    Mask alive[interleave] = {};     // running now
    Mask started[interleave] = {};   // running when the launch began
    std::uint8_t code[interleave] = {};  // single lanes only: the status a lane ended with
    typename Lane::count ran[interleave] = {};
    for (int g = 0; g < interleave; ++g) {
      const int first = g * W;
      const int real = std::clamp(lanes - first, 0, W);  // lanes past `lanes` are padding
      for (int f = 0; f < NS; ++f) load_lanes(s[g][f], state[f].data() + begin + first, real, state[f](begin));
      for (int f = 0; f < NI; ++f) load_lanes(in[g][f], inputs[f].data() + begin + first, real, inputs[f](begin));
      alive[g] = Mask(false);
      for (int w = 0; w < real; ++w) set_mask_lane(alive[g], w, !book.terminated(begin + first + w));
      started[g] = alive[g];
      code[g] = status::running;
    }

    for (std::int32_t k = 0; k < limit;) {
      const std::int32_t burst_end = std::min(limit, k + steps_between_checks);
      for (; k < burst_end; ++k) {
        for (int g = 0; g < interleave; ++g) {
          // Field by field: an aggregate copy of the array goes through memory in halves, and the
          // full-width reload then stalls on store forwarding.
          P before[NS];
          for (int f = 0; f < NS; ++f) before[f] = s[g][f];
          const auto result = m.step(s[g], static_cast<const Values<P, NI>&>(in[g]));
          for (int f = 0; f < NS; ++f) s[g][f] = select(alive[g], s[g][f], before[f]);
          Lane::add(ran[g], alive[g]);
          if constexpr (W == 1) {
            const std::uint8_t now = outcome(result);
            code[g] = alive[g] ? now : code[g];
            alive[g] = alive[g] && now == status::running;
          } else {
            alive[g] = static_cast<Mask>(alive[g] & !result);
          }
        }
      }
      bool any_alive = false;
      for (int g = 0; g < interleave; ++g) any_alive = any_alive || any(alive[g]);
      if (!any_alive) break;
    }

    std::int64_t still_running = 0;
    for (int g = 0; g < interleave; ++g) {
      const int first = g * W;
      const int real = std::clamp(lanes - first, 0, W);
      for (int f = 0; f < NS; ++f) store_lanes(s[g][f], state[f].data() + begin + first, real);
      for (int w = 0; w < real; ++w) {
        const std::int64_t i = begin + first + w;
        if (!get_mask_lane(started[g], w)) continue;  // terminated before: untouched
        std::uint8_t ended = get_mask_lane(alive[g], w) ? status::running : status::finished;
        if constexpr (W == 1) ended = code[g];
        bool finite = true;
        for (int f = 0; f < NS; ++f) finite = finite && is_finite(state[f](i));
        if (!finite) ended = status::non_finite;
        book.steps_taken(i) += ran_of(ran[g], w);
        book.terminated(i) = ended != status::running;
        book.status(i) = ended;
        still_running += ended == status::running ? 1 : 0;
      }
    }
    return still_running;
  }

 private:
  // Lane access that reads the same for packs and single lanes. A full pack moves in one
  // unaligned vector copy; a partial one lane by lane, its padding lanes set to `pad`.
  static void load_lanes(P& x, const T* from, int real, T pad) {
    if constexpr (W == 1) {
      x = real > 0 ? from[0] : pad;
    } else if (real == W) {
      std::memcpy(&x.v, from, sizeof(x.v));
    } else {
      for (int w = 0; w < W; ++w) x.set(w, w < real ? from[w] : pad);
    }
  }
  static void store_lanes(const P& x, T* to, int real) {
    if constexpr (W == 1) {
      if (real > 0) to[0] = x;
    } else if (real == W) {
      std::memcpy(to, &x.v, sizeof(x.v));
    } else {
      for (int w = 0; w < real; ++w) to[w] = x[w];
    }
  }
  static std::int64_t ran_of(const typename Lane::count& c, int w) {
    if constexpr (W == 1) return c;
    else return c[w];
  }
  static void set_mask_lane(Mask& m, int w, bool value) {
    if constexpr (W == 1) m = value;
    else m.set(w, value);
  }
  static bool get_mask_lane(const Mask& m, int w) {
    if constexpr (W == 1) return m;
    else return m[w];
  }
};

}  // namespace eagle::detail
