#pragma once
// The fused launch for host execution spaces: one tile of samples per work item. Inside a tile, a
// group of `interleave` lane packs advances together with its state in registers: a sample's steps
// form a dependency chain, and only independent lanes side by side (in SIMD lanes and in several
// registers at once) keep the arithmetic units busy. Finished lanes are masked with selects, never
// branches; every `look_every` steps the group looks at its lanes, with vector tests first, and
// only packs whose lanes changed are visited lane by lane. Models that declare `lane_packs` run on
// SIMD packs (eagle/pack.hpp); others on single lanes, still interleaved.

#include <eagle/detail/fused_steps.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/detail/tile_lane.hpp>
#include <eagle/fields.hpp>
#include <eagle/model.hpp>
#include <eagle/pack.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace eagle::detail {

/// Steps between looks at which lanes still run: a lane that finishes idles (masked) until the next
/// look, on average half of this.
inline constexpr int tile_look_every = 32;

/// Tiles of `lanes` slots per work item, each advanced by one group of `interleave` lane packs, up
/// to `limit` steps per sample per launch (never past a sample's cap); K, the rung of the launch,
/// fixes the steps between looks (K or tile_look_every, the smaller), a compile-time trip count.
/// Each lane holds one sample at a time; with `refill`, at the first look after any lane stopped,
/// the lanes whose samples stopped are written back and refilled with the tile's next samples, so
/// SIMD work shrinks with the live samples instead of idling masked lanes (without: only once none
/// runs). Refilling at the first stop ran eagle-bench-oscillator's spread-1000 batch faster than
/// waiting for a quarter of the lanes to stop.
template <class Model, int K, class Mem>
struct TiledSteps {
  using T = typename ModelTraits<Model>::scalar_type;
  using Lane = TileLane<Model>;
  using P = typename Lane::type;
  using Mask = typename Lane::mask;
  static constexpr int NS = ModelTraits<Model>::state_count;
  static constexpr int NI = ModelTraits<Model>::input_count;
  static constexpr int W = Lane::width;
  /// What a step body sees as each field: a double (or float) on single lanes, a MaskedPack on
  /// packs (eagle/pack.hpp: state and inputs alike, so helpers templated on one field type take both).
  using Field = typename Lane::field;
  /// Whether lanes keep a status code: single lanes, and packs whose step returns a PackStatus
  /// (a step that can fail, eagle::step_result); a pack's mask alone says finished.
  static constexpr bool coded =
      W == 1 ||
      !std::is_convertible_v<decltype(take_step(std::declval<const Model&>(), std::declval<Values<Field, NS>&>(),
                                                std::declval<const Values<Field, NI>&>(), 0, 0)),
                             Mask>;
  static_assert(packs_in_flight<Model> >= 0 && packs_in_flight<Model> <= 8,
                "eagle: Model::packs_in_flight must be 1 to 8 (or 0: as the vector registers allow)");
  /// Vector registers a pack needs (the step count is kept only in bursts that see lanes stop). On
  /// AVX-512 its state and inputs: masks live in k registers, and a step's temporaries and the
  /// counts fit beside them (counting a temporary a pack too gave the oscillator with 2 inputs 5
  /// packs, on which its spread batches ran 0.5-8 % slower than on 6, AMD EPYC); a single lane, a
  /// temporary too. On 16 registers its state, mask and a temporary: inputs are read as memory
  /// operands, since holding them too left too few packs to hide a step's latency (SSE2 and AVX2,
  /// an oscillator with 2 inputs: 3 packs ran spread batches 13-22 % faster than 2).
  static constexpr int pack_registers = native_vector_registers < 32 ? NS + 2 : W > 1 ? NS + NI : NS + NI + 1;
  /// The most packs side by side: on AVX-512, 6, as many as hand code runs (the oscillator with one
  /// input ran 1-2 % slower on 7).
  static constexpr int most_packs = W > 1 && native_vector_registers >= 32 ? 6 : 8;
  /// Packs a step's dependency chain needs in flight to keep the FMA units busy, registers or not:
  /// spilled state fields cost a load and a store a step, an idle unit its whole latency (the Boris
  /// pusher, 7 state fields, AMD EPYC: AVX2 and SSE2 1 pack -> 3 ran 2.2x and 1.7x faster, AVX-512
  /// 2 -> 4 1.4x; 5 and 6 no faster). Not measured on single lanes: they keep the registers' count.
  static constexpr int latency_packs = W == 1 ? 1 : native_vector_registers >= 32 ? 4 : 3;
  /// Packs advanced side by side: the model's own count, or as many as the vector registers hold,
  /// at least latency_packs. A step's mask chain (select, compare, mask) is long: more packs in
  /// flight hide it, until spills cost more.
  static constexpr int interleave = packs_in_flight<Model> > 0
                                        ? packs_in_flight<Model>
                                        : std::clamp(std::max(native_vector_registers / pack_registers, latency_packs),
                                                     1, most_packs);
  static constexpr int group = interleave * W;
  /// Whether a burst in which every lane steps runs unmasked and uncounted to the first step in
  /// which a lane stops (exact_burst), rather than masked and counted: where a masked step pays a
  /// blend a state field (no AVX-512 k registers) and a group is narrow, so a burst sees few stops
  /// (the oscillator's spread batches, AMD EPYC: SSE2 1.6-2.0x, AVX2 1.3-1.6x faster). On AVX-512
  /// a group of 48 lanes saw a stop almost every step: 1.9x slower.
  static constexpr bool exact_bursts = W > 1 && native_vector_registers < 32 && !takes_context<Model>;
  static constexpr int look_every = K < tile_look_every ? K : tile_look_every;
  static constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();
  static constexpr int uncounted_after = 4;
  static constexpr int long_stretch =
      2 * uncounted_after;  // quiet bursts after which a stop starts the next lanes calm
  static constexpr unsigned all_lanes = (1U << W) - 1;

  Model model;
  Fields<T, NS, Mem> state;
  Fields<const T, NI, Mem> inputs;
  Bookkeeping<Mem> book;
  Rows<Mem> rows;
  std::int64_t lanes;  ///< slots per tile
  std::int64_t limit;
  std::int64_t max_steps;
  bool refill;                ///< refill lanes early (compaction on); else only once no lane runs
  std::int64_t first_sample;  ///< added to each sample's index in the context a step may take

  /// What a lane keeps between bursts: pack p holds lanes p*W .. p*W+W-1.
  /// No initialisers: a burst's local copy is filled field by field, never zeroed first.
  struct Lanes {
    Values<P, NS> s[interleave];
    Values<P, NI> in[interleave];
    typename Lane::count ran[interleave];   // steps each lane ran this launch, since its first sample
    typename Lane::codes code[interleave];  // where coded: the status each lane ended with
    // Single lanes of a step body that takes its context: the lane's sample, and its steps taken
    // before this launch less `ran` when it was loaded, so its step is step_base + ran.
    std::int64_t sample[interleave];
    std::int64_t step_base[interleave];
  };
  /// A burst's packs, in registers, with the mask of the lanes stepping.
  struct Packs : Lanes {
    Mask alive[interleave];
  };
  /// The group's packs and each lane's bookkeeping; per pack, sets of lanes as bits (lane w: bit w),
  /// so a look or a refill never writes a mask lane in memory that the next burst must load whole.
  /// `clock` counts the group's steps this launch. Which lanes run is read from the sets, never
  /// counted: baseline x86-64 has no popcount instruction (a libgcc call, 3 % of a spread batch's
  /// instructions).
  struct Group : Lanes {
    unsigned running[interleave] = {};        // lanes stepping after the last burst
    unsigned seen[interleave] = {};           // lanes stepping at the last look
    unsigned held[interleave] = {};           // lanes holding a sample (stepping or not)
    unsigned exhausted[interleave] = {};      // lanes stopped by their step budget, still running
    std::int64_t row[interleave][W] = {};     // the lane's row
    std::int64_t ran_at[interleave][W] = {};  // `ran` when the lane's sample was loaded
    std::int64_t stop[interleave][W] = {};    // the clock at which the lane's step budget ends
    std::int64_t soonest[interleave];         // at most the earliest stop of the pack's stepping lanes
    std::int64_t clock = 0;
    int calm = 0;  // bursts in a row in which no lane stopped, up to long_stretch
  };

  void operator()(const std::int64_t tile, std::int64_t& active) const {
    const std::int64_t last = std::min<std::int64_t>(rows.count, (tile + 1) * lanes);
    std::int64_t next = tile * lanes;  // the tile's next slot to load
    const Model m = model;             // parameters in registers
    Group g{};
    // Lanes never filled still compute (masked): give them a real sample's values.
    const std::int64_t first_row = rows.row(next);
    for (int p = 0; p < interleave; ++p) {
      for (int f = 0; f < NS; ++f) g.s[p][f] = P(state[f](first_row));
      for (int f = 0; f < NI; ++f) g.in[p][f] = P(inputs[f](rows.sample(first_row)));
      g.ran[p] = typename Lane::count{};
      g.soonest[p] = never;
    }
    Stepping now = refill_lanes(g, next, last, active);
    while (now.some()) {
      const std::int64_t first_stop = *std::min_element(g.soonest, g.soonest + interleave);
      g.clock += run_burst(g, m, first_stop - g.clock);
      now = look(g);
      if (next < last && (refill ? !now.every() : !now.some())) now = refill_lanes(g, next, last, active);
    }
    for (int p = 0; p < interleave; ++p) {
      for_each_lane(g.held[p], [&](int w) { active += retire(g, p, w); });
    }
  }

 private:
  /// Calls f(integral_constant<int, i>) for i in [0, N): constant indices let the compiler keep
  /// every field of a burst's packs in a register of its own.
  template <int N, class F>
  EAGLE_HOST_FORCEINLINE static void for_each_index(F&& f) {
    for_each_index(f, std::make_integer_sequence<int, N>{});
  }
  template <class F, int... is>
  EAGLE_HOST_FORCEINLINE static void for_each_index(F& f, std::integer_sequence<int, is...>) {
    (f(std::integral_constant<int, is>{}), ...);
  }

  /// One step of pack p, masked: lanes that stopped keep their state; `counting`: each lane's
  /// steps too. Unmasked (`masked` false, only where every lane stepped when the segment began and
  /// the segment is discarded if one stops), every lane steps and only the mask is kept. Packs
  /// step on MaskedPack fields, which write under the mask as the step assigns them; single lanes
  /// step, then keep their state where they had stopped.
  template <int p, bool counting, bool masked = true>
  EAGLE_HOST_FORCEINLINE static void step_pack(Packs& b, const Model& m) {
    // A step that knows its sample may write outside its state (a saved trajectory): a lane that
    // has stopped takes no step at all, rather than a step whose state is discarded.
    if constexpr (W == 1 && takes_context<Model>) {
      if (!b.alive[p]) return;
    }
    std::int64_t sample = 0, step = 0;  // read only by a step body that takes its context
    if constexpr (takes_context<Model>) sample = b.sample[p], step = b.step_base[p] + b.ran[p];
    const auto result = [&]() EAGLE_HOST_LAMBDA_FORCEINLINE {
      if constexpr (W > 1) {
        auto s = step_fields<NS>(b.s[p], masked ? b.alive[p] : Mask(true), std::make_index_sequence<NS>{});
        const auto in = step_fields<NI>(b.in[p], Mask(true), std::make_index_sequence<NI>{});
        const auto r = take_step(m, s, in, sample, step);
        for_each_index<NS>([&](auto f) { b.s[p][f.value] = s[f.value]; });
        return r;
      } else if constexpr (masked) {
        T before[NS];
        for_each_index<NS>([&](auto f) { before[f.value] = b.s[p][f.value]; });
        const auto r = take_step(m, b.s[p], static_cast<const Values<T, NI>&>(b.in[p]), sample, step);
        for_each_index<NS>([&](auto f) { b.s[p][f.value] = select(b.alive[p], b.s[p][f.value], before[f.value]); });
        return r;
      } else {
        return take_step(m, b.s[p], static_cast<const Values<T, NI>&>(b.in[p]), sample, step);
      }
    }();
    if constexpr (counting) Lane::add(b.ran[p], b.alive[p]);
    if constexpr (W == 1) {
      const std::uint8_t now = outcome(result);
      b.code[p] = Lane::keep_codes(b.alive[p], now, b.code[p]);
      b.alive[p] = b.alive[p] && now == status::running;
    } else if constexpr (coded) {
      b.code[p] = Lane::keep_codes(b.alive[p], result.code, b.code[p]);
      b.alive[p] = b.alive[p] & result.running;
    } else {
      b.alive[p] = static_cast<Mask>(b.alive[p] & !result);
    }
  }
  /// A pack's fields as its step sees them (MaskedPack): assigning to one writes only the lanes in
  /// `writes`.
  template <int N, std::size_t... f>
  EAGLE_HOST_FORCEINLINE static auto step_fields(const Values<P, N>& v, Mask writes, std::index_sequence<f...>) {
    if constexpr (N == 0)
      return Values<Field, 0>{};
    else
      return Values<Field, N>{{Field(v[f], writes)...}};
  }
  /// Pack p's state and inputs from the group into a burst, field by field (a whole-struct copy is
  /// a memcpy call), with its mask of the lanes stepping.
  template <int p>
  EAGLE_HOST_FORCEINLINE static void load_pack(const Group& g, Packs& b) {
    for_each_index<NS>([&](auto f) { b.s[p][f.value] = g.s[p][f.value]; });
    for_each_index<NI>([&](auto f) { b.in[p][f.value] = g.in[p][f.value]; });
    b.ran[p] = g.ran[p];
    if constexpr (coded) b.code[p] = g.code[p];
    if constexpr (takes_context<Model>) b.sample[p] = g.sample[p], b.step_base[p] = g.step_base[p];
    b.alive[p] = Lane::from_bits(g.seen[p]);
  }
  /// Pack p's state back into the group (inputs never change in a burst).
  template <int p>
  EAGLE_HOST_FORCEINLINE static void store_state(const Packs& b, Group& g) {
    for_each_index<NS>([&](auto f) { g.s[p][f.value] = b.s[p][f.value]; });
  }
  /// `steps` steps of every pack, masked or not.
  template <bool counting, bool masked = true>
  EAGLE_HOST_FORCEINLINE static void advance(Packs& b, const Model& m, std::int64_t steps) {
    const auto step = [&](auto p) EAGLE_HOST_LAMBDA_FORCEINLINE { step_pack<p, counting, masked>(b, m); };
    if (steps == look_every) {  // a compile-time trip count
      for (int k = 0; k < look_every; ++k) for_each_index<interleave>(step);
    } else {
      for (std::int64_t k = 0; k < steps; ++k) for_each_index<interleave>(step);
    }
  }
  /// Whether a lane that stepped at the last look stopped since.
  static bool any_stopped(const Packs& b, const Group& g) {
    bool stopped = false;
    for (int p = 0; p < interleave; ++p) stopped = stopped || Lane::bits(b.alive[p]) != g.seen[p];
    return stopped;
  }

  /// Up to `steps` steps of every pack; returns how many ran. Counting each lane's steps costs an
  /// instruction a pack a step, one in nine of the oscillator's: after uncounted_after bursts in a
  /// row in which no lane stopped, the group runs calm segments first, uncounted, and the first in
  /// which a lane stops runs again from the same values, counting (a rerun costs a segment: small
  /// groups of spread samples stop often). Lanes refilled after a stop that ended a long quiet
  /// stretch (long samples, stopping together) start calm at once. Where exact_bursts and every
  /// lane steps, the counted burst is an exact one: it ends at the first stop.
  /// A step body that takes its context always counts: its step numbers come from the counts.
  static std::int64_t run_burst(Group& g, const Model& m, std::int64_t steps) {
    const bool uncounted = g.calm >= uncounted_after && !takes_context<Model>;
    std::int64_t calm = 0;
    if (uncounted) {
      calm = every_lane_steps(g) ? calm_segments<false>(g, m, steps) : calm_segments<true>(g, m, steps);
      g.calm = static_cast<int>(std::min<std::int64_t>(g.calm + calm / look_every, long_stretch));
    }
    if (calm == steps) return steps;
    std::int64_t burst = std::min<std::int64_t>(look_every, steps - calm);
    bool exact = false;
    if constexpr (exact_bursts) {
      exact = every_lane_steps(g);
      if (exact) {  // to the first stop, however far: its quiet stretches count as calm bursts
        burst = exact_burst(g, m, steps - calm);
        g.calm = static_cast<int>(std::min<std::int64_t>(g.calm + (burst - 1) / look_every, long_stretch));
      }
    }
    if (exact ? stopped_since_look(g) : counted_burst(g, m, burst)) {
      g.calm = g.calm >= long_stretch ? uncounted_after : 0;
    } else {
      g.calm = std::min(g.calm + 1, long_stretch);
    }
    return calm + burst;
  }
  /// Whether every lane of the group steps: then no lane needs a mask until one stops.
  static bool every_lane_steps(const Group& g) {
    unsigned all = all_lanes;
    for (int p = 0; p < interleave; ++p) all &= g.seen[p];
    return all == all_lanes;
  }
  /// Uncounted segments of look_every steps (the last one shorter) while no lane stops; each is
  /// kept by storing the state, so the packs are loaded once for all (hand code keeps them in
  /// registers across looks). Returns the steps kept: the group holds the start of the segment
  /// that saw a lane stop. Unmasked where every lane steps: a segment is kept only if no lane
  /// stopped in it, so until then no lane's step needs undoing (the merge under the mask is 3 of
  /// the oscillator's 8 instructions a pack-step).
  template <bool masked>
  EAGLE_HOST_FLATTEN static std::int64_t calm_segments(Group& g, const Model& m, std::int64_t steps) {
    Packs b;
    for_each_index<interleave>([&](auto p) { load_pack<p>(g, b); });
    std::int64_t kept = 0;
    while (kept < steps) {
      const std::int64_t segment = std::min<std::int64_t>(look_every, steps - kept);
      advance<false, masked>(b, m, segment);
      if (any_stopped(b, g)) break;
      for_each_index<interleave>([&](auto p) { store_state<p>(b, g); });
      kept += segment;
    }
    for (int p = 0; p < interleave; ++p) {
      Lane::add(g.ran[p], Lane::from_bits(g.seen[p]), kept);  // each stepping lane ran them all
      g.running[p] = g.seen[p];
    }
    return kept;
  }
  /// Whether a lane that stepped at the last look no longer runs.
  static bool stopped_since_look(const Group& g) {
    bool stopped = false;
    for (int p = 0; p < interleave; ++p) stopped = stopped || g.running[p] != g.seen[p];
    return stopped;
  }
  /// Unmasked steps of every pack, every lane stepping, up to `steps` (at least 1), ending after
  /// the first step in which a lane stops: every lane then took each of the burst's steps, so no
  /// step is masked or counted lane by lane, and the lane that stopped idles for no step. Returns
  /// the steps taken; the lanes still stepping go to `running`.
  EAGLE_HOST_FLATTEN static std::int64_t exact_burst(Group& g, const Model& m, std::int64_t steps) {
    Packs b;
    for_each_index<interleave>([&](auto p) { load_pack<p>(g, b); });
    unsigned stops[interleave];  // the lanes of each pack that stopped in the last step, as bits
    std::int64_t taken = 0;
    unsigned stopped = 0;
    do {
      // The packs' stops are folded as bits, a movmsk each: GCC 12 turned an OR of the SSE2 mask
      // vectors into scalar selects lane by lane.
      stopped = 0;
      for_each_index<interleave>([&](auto p) {
        constexpr int i = p.value;
        auto s = step_fields<NS>(b.s[i], Mask(true), std::make_index_sequence<NS>{});
        const auto r = take_step(m, s, step_fields<NI>(b.in[i], Mask(true), std::make_index_sequence<NI>{}), 0, 0);
        for_each_index<NS>([&](auto f) { b.s[i][f.value] = s[f.value]; });
        if constexpr (coded) {
          const Mask stop = !r.running;
          b.code[i] = Lane::keep_codes(stop, r.code, b.code[i]);
          stops[i] = Lane::bits(stop);
        } else {
          stops[i] = Lane::bits(static_cast<Mask>(r));
        }
        stopped |= stops[i];
      });
      ++taken;
    } while (stopped == 0 && taken < steps);
    for_each_index<interleave>([&](auto p) {
      constexpr int i = p.value;
      store_state<i>(b, g);
      Lane::add(g.ran[i], Mask(true), taken);
      if constexpr (coded) g.code[i] = b.code[i];
      g.running[i] = all_lanes & ~stops[i];
    });
    return taken;
  }
  /// `steps` masked steps of every pack, counting each lane's; the lanes still stepping after them
  /// go to `running`. Returns whether any lane stopped.
  EAGLE_HOST_FLATTEN static bool counted_burst(Group& g, const Model& m, std::int64_t steps) {
    Packs b;
    for_each_index<interleave>([&](auto p) { load_pack<p>(g, b); });
    advance<true>(b, m, steps);
    const bool stopped = any_stopped(b, g);
    for_each_index<interleave>([&](auto p) {
      store_state<p>(b, g);
      g.ran[p.value] = b.ran[p.value];
      if constexpr (coded) g.code[p.value] = b.code[p.value];
      g.running[p.value] = Lane::bits(b.alive[p.value]);
    });
    return stopped;
  }

  /// Which lanes step, folded over the packs' `seen` sets by the look or refill that sets them.
  struct Stepping {
    unsigned any = 0;
    unsigned all = all_lanes;
    void add(unsigned lanes) { any |= lanes, all &= lanes; }
    bool some() const { return any != 0; }
    bool every() const { return all == all_lanes; }
  };

  /// Calls f(w) for each lane w in `lanes`, lowest first.
  template <class F>
  static void for_each_lane(unsigned lanes, F&& f) {
    for (; lanes != 0; lanes &= lanes - 1) f(__builtin_ctz(lanes));
  }
  /// The earliest stop among the `running` lanes of pack p; never if none runs.
  static std::int64_t earliest_stop(const Group& g, int p, unsigned running) {
    std::int64_t soonest = never;
    for (int w = 0; w < W; ++w) {  // bit operations, no branch per lane
      const std::int64_t keep = -static_cast<std::int64_t>((running >> w) & 1U);
      soonest = std::min(soonest, (g.stop[p][w] & keep) | (never & ~keep));
    }
    return soonest;
  }

  /// After a burst: the running lanes become the seen ones; once the clock reaches a pack's
  /// soonest stop, its lanes out of budget stop stepping (written back as running) and the soonest
  /// stop is made exact (until then it may be a stopped lane's, which only shortens a burst). A
  /// pack not due costs one test; lanes are handled as sets, never one by one. Returns the fold
  /// of the new sets.
  static Stepping look(Group& g) {
    Stepping now;
    for (int p = 0; p < interleave; ++p) {
      unsigned running = g.running[p];
      const bool due = g.soonest[p] <= g.clock;
      if (due) {
        unsigned spent = 0;
        for (int w = 0; w < W; ++w) spent |= static_cast<unsigned>(g.stop[p][w] <= g.clock) << w;
        spent &= running;
        g.exhausted[p] |= spent;
        running &= ~spent;
        g.soonest[p] = earliest_stop(g, p, running);
      }
      g.seen[p] = running;
      now.add(running);
    }
    return now;
  }

  /// Writes back every lane whose sample stopped and loads the tile's next samples into the free
  /// lanes.
  Stepping refill_lanes(Group& g, std::int64_t& next, std::int64_t last, std::int64_t& active) const {
    Stepping now;
    for (int p = 0; p < interleave; ++p) {
      const unsigned free = all_lanes & ~g.seen[p];
      const bool turned_over = free == all_lanes && retire_pack(g, p, active) && fill_pack(g, p, next, last);
      if (!turned_over) {
        for_each_lane(free, [&](int w) {
          if ((g.held[p] >> w) & 1U) active += retire(g, p, w);
          fill(g, p, w, next, last);
        });
      }
      g.seen[p] = g.held[p];  // every lane holding a sample now steps
      now.add(g.seen[p]);
    }
    return now;
  }

  /// Loads the next slot that may step into empty lane (p, w), or leaves it empty.
  void fill(Group& g, int p, int w, std::int64_t& next, std::int64_t last) const {
    while (next < last) {
      const std::int64_t r = rows.row(next++);
      if (book.terminated(r)) continue;
      const std::int64_t budget = step_budget(book, r, limit, max_steps);
      if (budget <= 0) continue;  // at the cap: not stepped again
      const std::int64_t sample = rows.sample(r);
      for (int f = 0; f < NS; ++f) Lane::set(g.s[p][f], w, state[f](r));
      for (int f = 0; f < NI; ++f) Lane::set(g.in[p][f], w, inputs[f](sample));
      hold(g, p, w, r, budget);
      if constexpr (takes_context<Model>) {
        g.sample[p] = first_sample + sample;
        g.step_base[p] = book.steps_taken(r) - g.ran_at[p][w];
      }
      return;
    }
  }

  /// Lane (p, w), its values loaded, holds row r, which may take `budget` steps this launch.
  static void hold(Group& g, int p, int w, std::int64_t r, std::int64_t budget) {
    if constexpr (coded) Lane::set_code(g.code[p], w, status::running);
    g.row[p][w] = r;
    g.ran_at[p][w] = Lane::get_count(g.ran[p], w);
    g.stop[p][w] = g.clock + budget;
    g.soonest[p] = std::min(g.soonest[p], g.stop[p][w]);
    g.held[p] |= 1U << w;
    g.exhausted[p] &= ~(1U << w);
  }

  /// A whole pack turning over at once (every refill of a uniform batch) moves its state with
  /// W-wide stores and loads where rows are consecutive, as hand code does: lane by lane, the
  /// write-backs and refills were 7 % of a uniform batch's time on AVX-512.
  /// Writes every lane of pack p back, if all hold samples of consecutive rows; returns whether it did.
  bool retire_pack(Group& g, int p, std::int64_t& active) const {
    if constexpr (W == 1) {
      return false;  // a lane is its pack: retire() does the same
    } else {
      const std::int64_t first = g.row[p][0];
      bool consecutive = g.held[p] == all_lanes;
      for (int w = 1; w < W; ++w) consecutive &= g.row[p][w] == first + w;
      if (!consecutive) return false;
      for (int f = 0; f < NS; ++f) Lane::store(g.s[p][f], &state[f](first));
      const unsigned finite = Lane::bits(finite_zeros<T>(g.s[p]) == P(T(0)));  // check_finite's rule, every lane
      for (int w = 0; w < W; ++w) {
        const std::uint8_t ended = (finite >> w) & 1U ? ended_code(g, p, w) : status::non_finite;
        active += settle(g, p, w, ended);
      }
      return true;
    }
  }

  /// Loads the tile's next W slots into empty pack p, if they are W consecutive rows that may all
  /// step; returns whether it did.
  bool fill_pack(Group& g, int p, std::int64_t& next, std::int64_t last) const {
    if constexpr (W == 1 || takes_context<Model>) {
      return false;  // fill() sets a pack's context from its one sample
    } else {
      if (!rows.identity() || last - next < W) return false;
      std::int64_t budget[W];
      bool steps = true;
      for (int w = 0; w < W; ++w) {
        budget[w] = step_budget(book, next + w, limit, max_steps);
        steps &= !book.terminated(next + w) && budget[w] > 0;
      }
      if (!steps) return false;
      for (int f = 0; f < NS; ++f) g.s[p][f] = Lane::load(&state[f](next));
      for (int f = 0; f < NI; ++f) g.in[p][f] = Lane::load(&inputs[f](next));
      g.soonest[p] = never;
      for (int w = 0; w < W; ++w) hold(g, p, w, next + w, budget[w]);
      next += W;
      return true;
    }
  }

  /// Writes lane (p, w)'s sample back and empties the lane; returns 1 if the sample still runs.
  std::int64_t retire(Group& g, int p, int w) const {
    const std::int64_t r = g.row[p][w];
    Values<T, NS> s;
    for (int f = 0; f < NS; ++f) {
      s[f] = Lane::get(g.s[p][f], w);
      state[f](r) = s[f];
    }
    return settle(g, p, w, check_finite(s, ended_code(g, p, w)));
  }

  /// The status lane (p, w)'s sample ended the launch with, before the finite check.
  static std::uint8_t ended_code(const Group& g, int p, int w) {
    if constexpr (coded) {
      return Lane::get_code(g.code[p], w);
    } else {
      const bool running = ((g.exhausted[p] | g.seen[p]) >> w) & 1U;
      return running ? status::running : status::finished;
    }
  }

  /// Books lane (p, w)'s sample, its state written back, as `ended` and empties the lane; returns
  /// 1 if the sample still runs.
  std::int64_t settle(Group& g, int p, int w, std::uint8_t ended) const {
    const std::int64_t r = g.row[p][w];
    const std::int64_t steps = book.steps_taken(r) + Lane::get_count(g.ran[p], w) - g.ran_at[p][w];
    book.steps_taken(r) = steps;
    book.terminated(r) = ended != status::running;
    book.status(r) = ended;
    g.held[p] &= ~(1U << w);
    return ended == status::running && steps < max_steps ? 1 : 0;
  }
};

}  // namespace eagle::detail
