#pragma once
// The limit: the best code written by hand for the ISA this file is compiled for, which the tile
// is measured against. GCC/Clang vector extensions at the target's native width (SSE2 2 doubles,
// AVX/AVX2 4, AVX-512 8); `vectors` independent vectors in flight per work item, as many as the
// register file holds beside each vector's state (16 registers on SSE/AVX2, 32 on AVX-512) or,
// for a long dependency chain (Lorenz's RK4), as many as ran fastest; 32
// steps between looks at which lanes still run; finished lanes masked with blends and refilled
// with the work item's next samples at the looks; no sample stepped past max_steps.
// Checked with objdump on the AVX-512 build (-march=native, GCC 12): the step loop is vfmadd/
// vfnmadd/vaddpd on zmm registers, vcmppd into k masks and vblendmpd, no scalar fallback; on the
// default x86-64 flags, mulpd/addpd on xmm with andpd/andnpd/orpd selects.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

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
/// Samples one work item advances, its lanes refilled from them.
inline constexpr std::int64_t limit_chunk = 1024;

/// `m ? a : b` per lane; on SSE2 (no 64-bit compare, GCC scalarises `?:`) with bit operations.
inline LimitVec blend(LimitMask m, LimitVec a, LimitVec b) {
#if defined(__AVX__) || defined(__SSE4_1__)
  return m ? a : b;
#else
  return reinterpret_cast<LimitVec>((reinterpret_cast<LimitMask>(a) & m) | (reinterpret_cast<LimitMask>(b) & ~m));
#endif
}

/// The oscillator's step on `vectors` vectors: x += dt v, v -= (dt w w) x, t += dt; the end time per
/// lane (`PerSampleEnd`) or one for all. dt w w is the model's dt * omega * omega, hoisted.
template <int vectors, bool PerSampleEnd>
struct OscillatorLanes {
  LimitVec x[vectors], v[vectors], t[vectors], c[vectors], e[PerSampleEnd ? vectors : 1];
  double *xs, *vs, *ts;
  const double *omega, *ends;
  double dt, t_end;

  void load(int j, int l, std::int64_t i) {
    x[j][l] = xs[i], v[j][l] = vs[i], t[j][l] = ts[i];
    c[j][l] = dt * omega[i] * omega[i];
    if constexpr (PerSampleEnd) e[j][l] = ends[i];
  }
  void store(int j, int l, std::int64_t i) const { xs[i] = x[j][l], vs[i] = v[j][l], ts[i] = t[j][l]; }
  LimitMask step(int j, LimitMask run) {
    const LimitVec nx = x[j] + dt * v[j];
    const LimitVec nv = v[j] - c[j] * x[j];
    const LimitVec nt = t[j] + dt;
    x[j] = blend(run, nx, x[j]);
    v[j] = blend(run, nv, v[j]);
    t[j] = blend(run, nt, t[j]);
    if constexpr (PerSampleEnd) return run & ~(e[j] <= nt);
    return run & ~(LimitVec{} + t_end <= nt);
  }
};

/// Lorenz, classical RK4, the same arithmetic as eagle::kernels::Lorenz (eagle::ode::Rk4's: the
/// tableau's weights, the end within dt/2 of t_end), one end time for all.
template <int vectors>
struct LorenzLanes {
  LimitVec x[vectors], y[vectors], z[vectors], t[vectors], rho[vectors];
  double *xs, *ys, *zs, *ts;
  const double* rhos;
  double sigma, beta, dt, t_end;

  void load(int j, int l, std::int64_t i) {
    x[j][l] = xs[i], y[j][l] = ys[i], z[j][l] = zs[i], t[j][l] = ts[i], rho[j][l] = rhos[i];
  }
  void store(int j, int l, std::int64_t i) const { xs[i] = x[j][l], ys[i] = y[j][l], zs[i] = z[j][l], ts[i] = t[j][l]; }
  LimitMask step(int j, LimitMask run) {
    const LimitVec x0 = x[j], y0 = y[j], z0 = z[j], r = rho[j];
    const double h = dt, sixth = 1.0 / 6, third = 1.0 / 3;
    const LimitVec k1x = sigma * (y0 - x0), k1y = x0 * (r - z0) - y0, k1z = x0 * y0 - beta * z0;
    const LimitVec x1 = x0 + h * (0.5 * k1x), y1 = y0 + h * (0.5 * k1y), z1 = z0 + h * (0.5 * k1z);
    const LimitVec k2x = sigma * (y1 - x1), k2y = x1 * (r - z1) - y1, k2z = x1 * y1 - beta * z1;
    const LimitVec x2 = x0 + h * (0.5 * k2x), y2 = y0 + h * (0.5 * k2y), z2 = z0 + h * (0.5 * k2z);
    const LimitVec k3x = sigma * (y2 - x2), k3y = x2 * (r - z2) - y2, k3z = x2 * y2 - beta * z2;
    const LimitVec x3 = x0 + h * k3x, y3 = y0 + h * k3y, z3 = z0 + h * k3z;
    const LimitVec k4x = sigma * (y3 - x3), k4y = x3 * (r - z3) - y3, k4z = x3 * y3 - beta * z3;
    const LimitVec nt = t[j] + dt;
    x[j] = blend(run, x0 + h * (sixth * k1x + third * k2x + third * k3x + sixth * k4x), x0);
    y[j] = blend(run, y0 + h * (sixth * k1y + third * k2y + third * k3y + sixth * k4y), y0);
    z[j] = blend(run, z0 + h * (sixth * k1z + third * k2z + third * k3z + sixth * k4z), z0);
    t[j] = blend(run, nt, t[j]);
    return run & ~(LimitVec{} + t_end <= nt + 0.5 * dt);
  }
};

/// Advances samples [begin, end) on `vectors` vectors of lanes: 32 steps between looks, then
/// finished or out-of-budget lanes written back and refilled; returns when every lane is empty.
template <int vectors, class Lanes>
void run_lanes(Lanes& lanes, std::int64_t begin, std::int64_t end, std::int64_t max_steps) {
  constexpr int W = limit_width;
  constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();
  LimitMask run[vectors];
  std::int64_t row[vectors][W], stop[vectors][W], soonest[vectors];  // stop: the clock its budget ends at
  std::int64_t clock = 0, next = begin;
  const auto fill = [&](int j, int l) {
    row[j][l] = next < end ? next++ : -1;
    stop[j][l] = row[j][l] < 0 ? never : clock + max_steps;
    run[j][l] = row[j][l] < 0 ? 0 : -1;
    lanes.load(j, l, row[j][l] < 0 ? begin : row[j][l]);  // empty lanes compute on a real sample, masked
  };
  for (int j = 0; j < vectors; ++j) {
    for (int l = 0; l < W; ++l) fill(j, l);
    soonest[j] = *std::min_element(stop[j], stop[j] + W);
  }
  for (;;) {
    const std::int64_t first_stop = *std::min_element(soonest, soonest + vectors);
    if (first_stop == never) break;
    const std::int64_t burst = std::min<std::int64_t>(limit_steps_between_looks, first_stop - clock);
    for (std::int64_t s = 0; s < burst; ++s) {
      for (int j = 0; j < vectors; ++j) run[j] = lanes.step(j, run[j]);
    }
    clock += burst;
    for (int j = 0; j < vectors; ++j) {
      bool all_run = true;
      for (int l = 0; l < W; ++l) all_run = all_run && run[j][l] != 0;
      if (all_run && soonest[j] > clock) continue;
      for (int l = 0; l < W; ++l) {
        if (row[j][l] < 0 || (run[j][l] != 0 && stop[j][l] > clock)) continue;
        lanes.store(j, l, row[j][l]);
        fill(j, l);
      }
      soonest[j] = *std::min_element(stop[j], stop[j] + W);
    }
  }
}

/// Work items of limit_chunk samples over the host's threads, dynamically scheduled.
template <class Chunk>
void run_chunks(const char* label, std::int64_t n, const Chunk& chunk) {
  Kokkos::parallel_for(label,
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                           Kokkos::IndexType<std::int64_t>>(0, (n + limit_chunk - 1) / limit_chunk),
                       [=](const std::int64_t c) { chunk(c * limit_chunk, std::min(n, (c + 1) * limit_chunk)); });
}

/// Registers a vector of the oscillator holds: x, v, t, dt w w, its mask (and its end time).
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
                 OscillatorLanes<V, true> lanes{{},       {},       {},           {},          {}, x.data(),
                                                v.data(), t.data(), omega.data(), ends.data(), dt, 0.0};
                 run_lanes<V>(lanes, begin, end, max_steps);
               } else {
                 OscillatorLanes<V, false> lanes{{},       {},       {},           {},      {}, x.data(),
                                                 v.data(), t.data(), omega.data(), nullptr, dt, t_end};
                 run_lanes<V>(lanes, begin, end, max_steps);
               }
             });
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
               LorenzLanes<V> lanes{{},       {},       {},         {},    {},   x.data(), y.data(),
                                    z.data(), t.data(), rho.data(), sigma, beta, dt,       t_end};
               run_lanes<V>(lanes, begin, end, max_steps);
             });
}

}  // namespace eagle::perf
