#pragma once
// The limit: the best code written by hand for the ISA this file is compiled for, which the tile
// is measured against. GCC/Clang vector extensions at the target's native width (SSE2 2 doubles,
// AVX/AVX2 4, AVX-512 8); `vectors` independent vectors in flight per work item, as many as the
// register file holds beside each vector's state (16 registers on SSE/AVX2, 32 on AVX-512) or,
// for a long dependency chain (Lorenz's RK4), as many as ran fastest; 32
// steps between looks at which lanes still run; each lane's mask computed from its own state at
// every step (t against its end: on AVX-512 a compare into a k register, no mask vector held across
// steps), finished lanes masked with blends and refilled with the work item's next samples at the
// looks (without AVX-512, while every lane runs, unmasked steps to the first lane's end, then the
// look); no sample stepped past max_steps. Beside it, the plain run-to-completion block loop on
// uniform batches (plain_oscillator): a guard that B is no slower than simpler code.
// Checked with objdump on the AVX-512 build (-march=native, GCC 12): the step loop is vfmadd/
// vfnmadd/vaddpd on zmm registers, vcmppd into k masks and vblendmpd, no scalar fallback; on the
// default x86-64 flags, mulpd/addpd on xmm with andpd/andnpd/orpd selects.
// Its vectors are in limit_vectors.hpp, its models' lanes in limit_models.hpp; here, the run loop,
// the plain loop and the entry points the benchmarks call.

#include <baselines/limit_models.hpp>
#include <baselines/limit_vectors.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace eagle::perf {

/// Samples one work item advances, its lanes refilled from them: long chunks, since a chunk ends
/// with its lanes emptying while its longest samples finish (oscillator spread-100, n = 10^5,
/// AVX-512 Xeon: 1024 samples a chunk 2.79 ms, 4096 2.50 ms), but 8 chunks a thread at least.
inline std::int64_t limit_chunk(std::int64_t n) {
  const std::int64_t threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  return std::clamp<std::int64_t>(n / (8 * threads), 256, 4096);
}

/// f(integral_constant<int, j>) for j in [0, N): every vector named by a constant index, so each
/// lives in registers of its own for the whole work item.
template <int N, class F, int... js>
__attribute__((always_inline)) inline void for_each_vector(F&& f, std::integer_sequence<int, js...>) {
  (f(std::integral_constant<int, js>{}), ...);
}
template <int N, class F>
__attribute__((always_inline)) inline void for_each_vector(F&& f) {
  for_each_vector<N>(f, std::make_integer_sequence<int, N>{});
}

/// Unmasked bursts of up to 32 steps, while every lane runs, up to `steps` steps: each lane's end
/// tested after every step; a burst in which a lane ended is undone (the caller reruns it).
/// Returns the steps kept. A function of its own, so that the vectors stay in registers from burst
/// to burst: inside run_lanes, GCC 12 kept the AVX2 vectors' t on the stack (a store and a load on
/// the t chain at every step), and returning to it after every burst cost a load and a store of
/// every vector (B ran 1.6x, then 1.07x, behind the tile).
template <int vectors, class Lanes>
__attribute__((noinline, flatten)) std::int64_t unmasked_bursts(const Lanes& lanes, typename Lanes::Vec (&vec)[vectors],
                                                                std::int64_t steps) {
  const LimitMask every_lane = LimitMask{} == 0;
  std::int64_t kept = 0;
  while (kept < steps) {
    const std::int64_t burst = std::min<std::int64_t>(limit_steps_between_looks, steps - kept);
    typename Lanes::State start[vectors];  // what a step changes only: the copy is made every burst
    for_each_vector<vectors>([&](auto j) { start[j] = lanes.save(vec[j]); });
    LimitMask ran[vectors];
    for_each_vector<vectors>([&](auto j) { ran[j] = every_lane; });
    for (std::int64_t s = 0; s < burst; ++s) {
      for_each_vector<vectors>([&](auto j) {
        lanes.step(vec[j], every_lane);
        ran[j] &= lanes.live(vec[j]);
      });
    }
    LimitMask every = every_lane;
    for_each_vector<vectors>([&](auto j) { every &= ran[j]; });
    if (!all_lanes(every)) {
      for_each_vector<vectors>([&](auto j) { lanes.restore(vec[j], start[j]); });
      return kept;
    }
    kept += burst;
  }
  return kept;
}

/// Unmasked steps of every lane, all running, up to `steps` (at least 1), ending after the first
/// step in which a lane ended; returns the steps taken.
template <int vectors, class Lanes>
__attribute__((noinline, flatten)) std::int64_t exact_burst(const Lanes& lanes, typename Lanes::Vec (&vec)[vectors],
                                                            std::int64_t steps) {
  const LimitMask every_lane = LimitMask{} == 0;
  std::int64_t taken = 0;
  unsigned ended = 0;
  do {  // the ends folded as bits: GCC 12 scalarised an OR of SSE2 mask vectors
    ended = 0;
    for_each_vector<vectors>([&](auto j) {
      lanes.step(vec[j], every_lane);
      ended |= lane_bits(~lanes.live(vec[j]));
    });
    ++taken;
  } while (ended == 0 && taken < steps);
  return taken;
}

/// Advances samples [begin, end) on `vectors` vectors of lanes: bursts of 32 steps (fewer where a
/// lane's step budget ends sooner) while every lane runs, then finished or out-of-budget lanes
/// written back and refilled; returns when every lane is empty. Each lane's mask comes from its own
/// state (Lanes::live), so a lane whose sample finished idles, masked, until the next look. Without
/// AVX-512 a masked step pays a blend per state field (3 instructions each on SSE2): there, while
/// every lane runs, they step unmasked to the first end (exact_burst). There too, and on AVX-512
/// where Lanes::unmasked_bursts says so, once limit_quiet_bursts bursts' worth of steps saw no
/// stop, a burst that starts with every lane running steps them unmasked, the lanes' ends gathered
/// every step and tested once a burst, and if one ended, the burst runs again from its start, to
/// that end (exact, without AVX-512) or masked.
/// Flattened: every call inlined, so the vectors never leave registers for a helper's frame.
template <int vectors, class Lanes>
__attribute__((flatten)) void run_lanes(const Lanes& lanes, std::int64_t begin, std::int64_t end,
                                        std::int64_t max_steps) {
  constexpr int W = limit_width;
  constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();
  const LimitMask every_lane = LimitMask{} == 0;
  typename Lanes::Vec vec[vectors];
  std::int64_t row[vectors][W], stop[vectors][W], soonest[vectors];  // stop: the clock its budget ends at
  unsigned empty[vectors];                                           // lanes with no sample left to take, as bits
  std::int64_t clock = 0, next = begin;
  constexpr unsigned every_bit = (1U << W) - 1;
  const auto fill = [&](auto j, int l) {
    const LimitMask here = lane_mask(l);
    row[j][l] = next < end ? next++ : -1;
    stop[j][l] = row[j][l] < 0 ? never : clock + max_steps;
    lanes.load(vec[j], here, row[j][l] < 0 ? begin : row[j][l]);  // empty lanes compute on a real sample, masked
    if (row[j][l] < 0) lanes.empty(vec[j], here), empty[j] |= 1U << l;
  };
  for_each_vector<vectors>([&](auto j) {
    vec[j] = typename Lanes::Vec{};
    empty[j] = 0;
    for (int l = 0; l < W; ++l) fill(j, l);
    soonest[j] = *std::min_element(stop[j], stop[j] + W);
  });
  const auto every_lane_runs = [&] {
    LimitMask every = every_lane;
    for_each_vector<vectors>([&](auto j) { every &= lanes.live(vec[j]); });
    return all_lanes(every);
  };
  const auto masked_burst = [&](std::int64_t burst) {
    for (std::int64_t s = 0; s < burst; ++s) {
      for_each_vector<vectors>([&](auto j) { lanes.step(vec[j], lanes.live(vec[j])); });
    }
  };
  // Masked bursts in a row in which no lane stopped: unmasked ones pay only once lanes stop seldom
  // (on spread batches a lane stops in most bursts, and every burst undone runs twice).
  int quiet = 0;
  for (;;) {
    const std::int64_t first_stop = *std::min_element(soonest, soonest + vectors);
    if (first_stop == never) break;
    if (Lanes::unmasked_bursts && quiet >= limit_quiet_bursts && every_lane_runs()) {
      // Bursts while every lane runs within its budget: one vector test a look.
      const std::int64_t kept = unmasked_bursts<vectors>(lanes, vec, first_stop - clock);
      clock += kept;
      quiet =
          static_cast<int>(std::min<std::int64_t>(quiet + kept / limit_steps_between_looks, 2 * limit_quiet_bursts));
      if (clock < first_stop) {  // the burst in which a lane ended, again: to that end, or masked
        const std::int64_t burst = std::min<std::int64_t>(limit_steps_between_looks, first_stop - clock);
        if constexpr (limit_exact_bursts) {
          clock += exact_burst<vectors>(lanes, vec, burst);
        } else {
          masked_burst(burst);
          clock += burst;
        }
      }
    } else if (limit_exact_bursts && every_lane_runs()) {
      // To the first end, however far: its quiet stretches count as quiet bursts.
      const std::int64_t taken = exact_burst<vectors>(lanes, vec, first_stop - clock);
      clock += taken;
      quiet = static_cast<int>(
          std::min<std::int64_t>(quiet + (taken - 1) / limit_steps_between_looks, 2 * limit_quiet_bursts));
    } else {
      for (;;) {
        const std::int64_t burst = std::min<std::int64_t>(limit_steps_between_looks, first_stop - clock);
        masked_burst(burst);
        clock += burst;
        if (!(clock < first_stop && every_lane_runs())) break;
        if (Lanes::unmasked_bursts && ++quiet >= limit_quiet_bursts) break;  // on, unmasked
      }
    }
    // A stop after a long quiet stretch (long samples, stopping together): the next lanes start
    // quiet too.
    if (clock >= first_stop || !every_lane_runs()) quiet = quiet >= 2 * limit_quiet_bursts ? limit_quiet_bursts : 0;
    for_each_vector<vectors>([&](auto j) {
      // The lanes to turn over, as bits: finished, or out of budget once the clock reaches the
      // vector's soonest stop. A loop over the set bits, not a test of each lane's mask: spread
      // batches ran 7-13 % faster on AVX2 and 12-20 % on AVX-512 (AMD EPYC).
      unsigned turn = every_bit & ~lane_bits(lanes.live(vec[j])) & ~empty[j];
      if (soonest[j] <= clock) {
        for (int l = 0; l < W; ++l) turn |= static_cast<unsigned>(stop[j][l] <= clock) << l;
      }
      if (turn == 0) return;
      // A whole vector turning over at once (a uniform batch's every look that sees a stop): vector
      // stores and loads where its rows and the next W samples are consecutive.
      bool whole = turn == every_bit;
      for (int l = 1; l < W; ++l) whole = whole && row[j][l] == row[j][0] + l;
      if (whole) {
        lanes.store_all(vec[j], row[j][0]);
        if (next + W <= end) {
          lanes.load_all(vec[j], next);
          for (int l = 0; l < W; ++l) row[j][l] = next + l, stop[j][l] = clock + max_steps;
          next += W;
          soonest[j] = clock + max_steps;
          return;
        }
        for (int l = 0; l < W; ++l) row[j][l] = -1;  // stored: the lanes below only refill
      }
      for (; turn != 0; turn &= turn - 1) {
        const int l = __builtin_ctz(turn);
        if (row[j][l] >= 0) lanes.store(vec[j], l, row[j][l]);
        fill(j, l);
      }
      soonest[j] = *std::min_element(stop[j], stop[j] + W);
    });
  }
}

/// The plain loop a performance engineer writes first for a uniform batch, the guard on B: per
/// work item one block of `vectors` x W samples, x, v, t and dt w w in local vectors, each lane's
/// mask from its t at every step, a look every 32 steps for whether any lane still runs, the block
/// run until none does (no refill). B must be no slower than this on uniform batches.
template <int vectors>
void plain_oscillator_block(double* xs, double* vs, double* ts, const double* omega, std::int64_t begin, std::int64_t n,
                            double t_end, double dt, std::int64_t max_steps) {
  constexpr int W = limit_width;
  LimitVec x[vectors], v[vectors], t[vectors], c[vectors];
  for (int j = 0; j < vectors; ++j) {
    for (int l = 0; l < W; ++l) {
      const std::int64_t i = std::min(begin + j * W + l, n - 1);
      x[j][l] = xs[i], v[j][l] = vs[i], c[j][l] = dt * omega[i] * omega[i];
      t[j][l] = begin + j * W + l < n ? ts[i] : std::numeric_limits<double>::infinity();
    }
  }
  for (std::int64_t taken = 0; taken < max_steps;) {
    const std::int64_t burst = std::min<std::int64_t>(limit_steps_between_looks, max_steps - taken);
    for (std::int64_t k = 0; k < burst; ++k) {
      for (int j = 0; j < vectors; ++j) {
        const LimitMask run = t[j] < LimitVec{} + t_end;
        const LimitVec nx = x[j] + dt * v[j];
        const LimitVec nv = v[j] - c[j] * x[j];
        x[j] = blend(run, nx, x[j]);
        v[j] = blend(run, nv, v[j]);
        t[j] = blend(run, t[j] + dt, t[j]);
      }
    }
    taken += burst;
    bool some = false;
    for (int j = 0; j < vectors; ++j) some = some || any_lane(t[j] < LimitVec{} + t_end);
    if (!some) break;
  }
  for (int j = 0; j < vectors; ++j) {
    for (int l = 0; l < W; ++l) {
      const std::int64_t i = begin + j * W + l;
      if (i < n) xs[i] = x[j][l], vs[i] = v[j][l], ts[i] = t[j][l];
    }
  }
}

/// Work items of limit_chunk(n) samples over the host's threads, dynamically scheduled.
template <class Chunk>
void run_chunks(const char* label, std::int64_t n, const Chunk& chunk) {
  const std::int64_t size = limit_chunk(n);
  Kokkos::parallel_for(label,
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                           Kokkos::IndexType<std::int64_t>>(0, (n + size - 1) / size),
                       [=](const std::int64_t c) { chunk(c * size, std::min(n, (c + 1) * size)); });
}

/// Vectors of the oscillator in flight: each holds x, v, t, dt w w (and its end time) in registers.
inline constexpr int oscillator_limit_vectors = limit_registers / 5;

/// The oscillator batch: `ends` per sample, or empty for `t_end` for all.
inline void limit_oscillator(const Kokkos::View<double*, Kokkos::HostSpace>& x,
                             const Kokkos::View<double*, Kokkos::HostSpace>& v,
                             const Kokkos::View<double*, Kokkos::HostSpace>& t,
                             const Kokkos::View<const double*, Kokkos::HostSpace>& omega, double t_end,
                             const Kokkos::View<const double*, Kokkos::HostSpace>& ends, double dt,
                             std::int64_t max_steps) {
  constexpr int V = oscillator_limit_vectors;
  const bool per_sample = ends.extent(0) > 0;
  run_chunks("baseline::limit_oscillator", static_cast<std::int64_t>(x.extent(0)),
             [=](std::int64_t begin, std::int64_t end) {
               if (per_sample) {
                 const OscillatorLanes<true> lanes{x.data(), v.data(), t.data(), omega.data(), ends.data(), dt, 0.0};
                 run_lanes<V>(lanes, begin, end, max_steps);
               } else {
                 const OscillatorLanes<false> lanes{x.data(), v.data(), t.data(), omega.data(), nullptr, dt, t_end};
                 run_lanes<V>(lanes, begin, end, max_steps);
               }
             });
}

/// The plain loop on a uniform batch (every sample ending at `t_end`), one block of
/// oscillator_limit_vectors x W samples per work item.
inline void plain_oscillator(const Kokkos::View<double*, Kokkos::HostSpace>& x,
                             const Kokkos::View<double*, Kokkos::HostSpace>& v,
                             const Kokkos::View<double*, Kokkos::HostSpace>& t,
                             const Kokkos::View<const double*, Kokkos::HostSpace>& omega, double t_end, double dt,
                             std::int64_t max_steps) {
  constexpr int V = oscillator_limit_vectors;
  constexpr std::int64_t block = V * limit_width;
  const auto n = static_cast<std::int64_t>(x.extent(0));
  Kokkos::parallel_for("baseline::plain_oscillator",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                           Kokkos::IndexType<std::int64_t>>(0, (n + block - 1) / block),
                       [=](const std::int64_t b) {
                         plain_oscillator_block<V>(x.data(), v.data(), t.data(), omega.data(), b * block, n, t_end, dt,
                                                   max_steps);
                       });
}

/// Vectors of Boris lanes in flight: more than the registers hold (13 values a vector), since a
/// step's chain is long and spilled values cost less than idle FMA units (AMD EPYC: AVX-512 2
/// vectors -> 4 1.4x faster, 5 and 6 no faster; AVX2 1 -> 3 2.0x, 4 slower; SSE2 1 -> 3 1.6x).
inline constexpr int boris_limit_vectors = limit_registers == 32 ? 4 : 3;

/// The Boris batch (state x, y, z, vx, vy, vz, t; inputs Omega), every sample ending at `t_end`.
inline void limit_boris(const std::array<Kokkos::View<double*, Kokkos::HostSpace>, 7>& s,
                        const std::array<Kokkos::View<double*, Kokkos::HostSpace>, 3>& omega, double dt, double t_end,
                        std::int64_t max_steps) {
  constexpr int V = boris_limit_vectors;
  const BorisLanes lanes{s[0].data(), s[1].data(),     s[2].data(),     s[3].data(),     s[4].data(), s[5].data(),
                         s[6].data(), omega[0].data(), omega[1].data(), omega[2].data(), dt,          t_end};
  run_chunks("baseline::limit_boris", static_cast<std::int64_t>(s[0].extent(0)),
             [=](std::int64_t begin, std::int64_t end) { run_lanes<V>(lanes, begin, end, max_steps); });
}

/// RK4's stages are one long dependency chain: 3 vectors in flight ran fastest on SSE2 and
/// AVX-512 (Intel Xeon: 4, as many as AVX-512's registers hold, 1.15x slower; SSE2's 2 1.2x), so
/// the chain's latency, not the register file, sets the count.
inline constexpr int lorenz_limit_vectors = 3;

/// The Lorenz batch (state x, y, z, t; input rho), every sample ending at `t_end`.
inline void limit_lorenz(const Kokkos::View<double*, Kokkos::HostSpace>& x,
                         const Kokkos::View<double*, Kokkos::HostSpace>& y,
                         const Kokkos::View<double*, Kokkos::HostSpace>& z,
                         const Kokkos::View<double*, Kokkos::HostSpace>& t,
                         const Kokkos::View<const double*, Kokkos::HostSpace>& rho, double sigma, double beta,
                         double dt, double t_end, std::int64_t max_steps) {
  constexpr int V = lorenz_limit_vectors;
  run_chunks("baseline::limit_lorenz", static_cast<std::int64_t>(x.extent(0)),
             [=](std::int64_t begin, std::int64_t end) {
               const LorenzLanes lanes{x.data(), y.data(), z.data(), t.data(), rho.data(), sigma, beta, dt, t_end};
               run_lanes<V>(lanes, begin, end, max_steps);
             });
}

}  // namespace eagle::perf
