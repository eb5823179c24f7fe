#pragma once
// The fused launch for host execution spaces: one tile of samples per work item. Inside a tile,
// groups of `interleave` lane packs advance together with their state in registers for the whole
// launch: a sample's steps form a dependency chain, and only independent lanes side by side (in
// SIMD lanes and in several registers at once) keep the arithmetic units busy. Finished lanes are
// masked with selects, never branches. Models that declare `lane_packs` run on SIMD packs
// (eagle/pack.hpp); others on single lanes, still interleaved.

#include <eagle/compaction.hpp>
#include <eagle/detail/fused_steps.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/fields.hpp>
#include <eagle/model.hpp>
#include <eagle/pack.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace eagle::detail {

/// What a tile lane holds: a SIMD pack of samples, or one sample.
template <class Model,
          bool packs = uses_lane_packs<Model> && (pack_width<typename ModelTraits<Model>::scalar_type> > 1)>
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

/// One tile of `Lanes` slots per work item, advanced by one group of `interleave` lane packs, up
/// to `limit` steps per sample per launch (never past a sample's cap). Each lane holds one sample
/// at a time; with `refill`, once fewer than tile_refill_below of the group's lanes still run, the
/// lanes whose samples stopped are written back and refilled with the tile's next samples, so SIMD
/// work shrinks with the live samples instead of idling masked lanes (without: only once none runs).
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
  /// state, inputs, mask and counter must stay within the 16 vector registers x86 has (measured on
  /// the oscillator, 6 registers a pack, one thread, 10^9 sample-steps: 2 packs 2.21 s with SSE2
  /// and 1.27 s with AVX2; 4 packs 2.11 s and 1.40 s, where they spill; with a per-sample end time,
  /// 7 registers a pack, two threads, SSE2: 2 packs 1.12 s, 1 pack 2.03 s).
  static constexpr int interleave = std::clamp(16 / (NS + NI + 2), 1, 4);
  static constexpr int group = interleave * W;
  /// Steps between looks at which lanes still run.
  static constexpr std::int32_t steps_between_checks = 8;

  Model model;
  Fields<T, NS, Mem> state;
  Fields<const T, NI, Mem> inputs;
  Bookkeeping<Mem> book;
  Rows<Mem> rows;
  std::int32_t limit;
  std::int64_t max_steps;
  bool refill;  ///< refill lanes early (compaction on); else only once no lane runs
  /// Lanes that must still run before freed lanes are refilled.
  static constexpr int refill_threshold = std::max(1, static_cast<int>(tile_refill_below* group + 0.999));

  /// The group's lanes: pack g holds lanes g*W .. g*W+W-1.
  struct Group {
    Values<P, NS> s[interleave] = {};
    Values<P, NI> in[interleave] = {};
    Mask alive[interleave] = {};  // lanes stepping
    typename Lane::count ran[interleave] = {};
    std::uint8_t code[interleave] = {};  // single lanes only: the status a lane ended with
    std::int64_t row[group];             // the lane's row; -1: empty
    std::int32_t left[group];            // steps the lane may still take this launch
    bool exhausted[group];               // stopped by its step budget, still running
  };

  void operator()(const std::int64_t tile, std::int64_t& active) const {
    const std::int64_t last = std::min<std::int64_t>(rows.count, (tile + 1) * Lanes);
    std::int64_t next = tile * Lanes;  // the tile's next slot to load
    const Model m = model;             // parameters in registers
    const int refill_at = refill ? refill_threshold : 1;
    Group lanes;
    // Lanes never filled still compute (masked): give them a real sample's values.
    const std::int64_t first_row = rows.row(next);
    for (int g = 0; g < interleave; ++g) {
      for (int f = 0; f < NS; ++f) lanes.s[g][f] = P(state[f](first_row));
      for (int f = 0; f < NI; ++f) lanes.in[g][f] = P(inputs[f](rows.sample(first_row)));
      lanes.alive[g] = Mask(false);
    }
    for (int l = 0; l < group; ++l) {
      lanes.row[l] = -1;
      lanes.left[l] = 0;
      lanes.exhausted[l] = false;
    }

    for (;;) {
      int live = 0;
      std::int32_t burst = steps_between_checks;
      for (int l = 0; l < group; ++l) {
        if (lanes.row[l] < 0 || !lane_alive(lanes, l)) continue;
        if (lanes.left[l] == 0) {  // out of budget: masked from now on, written back as running
          lanes.exhausted[l] = true;
          set_mask_lane(lanes.alive[l / W], l % W, false);
          continue;
        }
        ++live;
        burst = std::min(burst, lanes.left[l]);
      }
      if (live < refill_at && next < last) {
        for (int l = 0; l < group; ++l) {
          if (lanes.row[l] >= 0 && !lane_alive(lanes, l)) active += retire(lanes, l);
          if (lanes.row[l] < 0 && fill(lanes, l, next, last)) {
            ++live;
            burst = std::min(burst, lanes.left[l]);
          }
        }
      }
      if (live == 0) break;

      for (std::int32_t k = 0; k < burst; ++k) {
        for (int g = 0; g < interleave; ++g) {
          // Field by field: an aggregate copy of the array goes through memory in halves, and the
          // full-width reload then stalls on store forwarding.
          P before[NS];
          for (int f = 0; f < NS; ++f) before[f] = lanes.s[g][f];
          const auto result = m.step(lanes.s[g], static_cast<const Values<P, NI>&>(lanes.in[g]));
          for (int f = 0; f < NS; ++f) lanes.s[g][f] = select(lanes.alive[g], lanes.s[g][f], before[f]);
          Lane::add(lanes.ran[g], lanes.alive[g]);
          if constexpr (W == 1) {
            const std::uint8_t now = outcome(result);
            lanes.code[g] = lanes.alive[g] ? now : lanes.code[g];
            lanes.alive[g] = lanes.alive[g] && now == status::running;
          } else {
            lanes.alive[g] = static_cast<Mask>(lanes.alive[g] & !result);
          }
        }
      }
      for (int l = 0; l < group; ++l) {
        if (lanes.row[l] >= 0 && !lanes.exhausted[l]) lanes.left[l] -= std::min(burst, lanes.left[l]);
      }
    }
    for (int l = 0; l < group; ++l) {
      if (lanes.row[l] >= 0) active += retire(lanes, l);
    }
  }

 private:
  static bool lane_alive(const Group& lanes, int l) { return get_mask_lane(lanes.alive[l / W], l % W); }

  /// Loads the next slot that may step into empty lane `l`; false when the tile has none left.
  bool fill(Group& lanes, int l, std::int64_t& next, std::int64_t last) const {
    const int g = l / W;
    const int w = l % W;
    while (next < last) {
      const std::int64_t r = rows.row(next++);
      if (book.terminated(r)) continue;
      const std::int64_t budget = step_budget(book, r, limit, max_steps);
      if (budget <= 0) continue;  // at the cap: not stepped again
      const std::int64_t sample = rows.sample(r);
      for (int f = 0; f < NS; ++f) set_lane(lanes.s[g][f], w, state[f](r));
      for (int f = 0; f < NI; ++f) set_lane(lanes.in[g][f], w, inputs[f](sample));
      set_mask_lane(lanes.alive[g], w, true);
      reset_ran(lanes.ran[g], w);
      if constexpr (W == 1) lanes.code[g] = status::running;
      lanes.row[l] = r;
      lanes.left[l] = static_cast<std::int32_t>(budget);
      lanes.exhausted[l] = false;
      return true;
    }
    return false;
  }

  /// Writes lane `l`'s sample back and empties the lane; returns 1 if the sample still runs.
  std::int64_t retire(Group& lanes, int l) const {
    const int g = l / W;
    const int w = l % W;
    const std::int64_t r = lanes.row[l];
    bool finite = true;
    for (int f = 0; f < NS; ++f) {
      const T x = get_lane(lanes.s[g][f], w);
      state[f](r) = x;
      finite = finite && is_finite(x);
    }
    std::uint8_t ended = lanes.exhausted[l] || lane_alive(lanes, l) ? status::running : status::finished;
    if constexpr (W == 1) ended = lanes.code[g];
    if (!finite) ended = status::non_finite;
    book.steps_taken(r) += ran_of(lanes.ran[g], w);
    book.terminated(r) = ended != status::running;
    book.status(r) = ended;
    set_mask_lane(lanes.alive[g], w, false);
    lanes.row[l] = -1;
    return ended == status::running && book.steps_taken(r) < max_steps ? 1 : 0;
  }

  // Lane access that reads the same for packs and single lanes.
  static void set_lane(P& x, int w, T value) {
    if constexpr (W == 1)
      x = value;
    else
      x.set(w, value);
  }
  static T get_lane(const P& x, int w) {
    if constexpr (W == 1)
      return x;
    else
      return x[w];
  }
  static void reset_ran(typename Lane::count& c, int w) {
    if constexpr (W == 1)
      c = 0;
    else
      c.reset(w);
  }
  static std::int64_t ran_of(const typename Lane::count& c, int w) {
    if constexpr (W == 1)
      return c;
    else
      return c[w];
  }
  static void set_mask_lane(Mask& m, int w, bool value) {
    if constexpr (W == 1)
      m = value;
    else
      m.set(w, value);
  }
  static bool get_mask_lane(const Mask& m, int w) {
    if constexpr (W == 1)
      return m;
    else
      return m[w];
  }
};

}  // namespace eagle::detail
