#pragma once
// Baseline B, the reference limit for the host: the oscillator's arithmetic by hand on 4
// interleaved SIMD vectors of lanes held in registers for 32 steps at a time, finished lanes
// masked with selects, blocks of 4 vectors of samples spread over the host's threads. GCC/Clang
// vector extensions at the target's native width (SSE2: 2 doubles, AVX: 4, AVX-512: 8): wider
// vectors than the target has are lowered through memory and run many times slower.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>

namespace eagle::perf {

#if defined(__AVX512F__)
inline constexpr int hand_width = 8;
#elif defined(__AVX__)
inline constexpr int hand_width = 4;
#else
inline constexpr int hand_width = 2;
#endif
using VecD = double __attribute__((vector_size(hand_width * sizeof(double))));
using MaskD = std::int64_t __attribute__((vector_size(hand_width * sizeof(double))));

inline constexpr int hand_vectors = 4;
inline constexpr int hand_block = hand_vectors * hand_width;
inline constexpr int hand_steps_in_registers = 32;

/// Advances one block of hand_block samples until all terminate or max_steps; the end time is
/// `t_end`, or each sample's own from `ends` when PerSampleEnd.
template <bool PerSampleEnd>
void hand_simd_block(double* x, double* v, double* t, const double* omega, double t_end, const double* ends, double dt,
                     std::int64_t max_steps) {
  VecD xs[hand_vectors], vs[hand_vectors], ts[hand_vectors], ws[hand_vectors], es[PerSampleEnd ? hand_vectors : 1];
  MaskD done[hand_vectors];
  for (int j = 0; j < hand_vectors; ++j) {
    for (int l = 0; l < hand_width; ++l) {
      xs[j][l] = x[j * hand_width + l];
      vs[j][l] = v[j * hand_width + l];
      ts[j][l] = t[j * hand_width + l];
      ws[j][l] = omega[j * hand_width + l];
      if constexpr (PerSampleEnd) es[j][l] = ends[j * hand_width + l];
    }
    done[j] = MaskD{};  // all lanes running
  }
  for (std::int64_t step = 0; step < max_steps; step += hand_steps_in_registers) {
    const std::int64_t steps = max_steps - step < hand_steps_in_registers ? max_steps - step : hand_steps_in_registers;
    for (std::int64_t s = 0; s < steps; ++s) {
      for (int j = 0; j < hand_vectors; ++j) {
        const VecD nx = xs[j] + dt * vs[j];
        const VecD nv = vs[j] - dt * ws[j] * ws[j] * xs[j];
        const VecD nt = ts[j] + dt;
        xs[j] = done[j] ? xs[j] : nx;
        vs[j] = done[j] ? vs[j] : nv;
        ts[j] = done[j] ? ts[j] : nt;
        if constexpr (PerSampleEnd)
          done[j] |= nt >= es[j];
        else
          done[j] |= nt >= t_end;
      }
    }
    MaskD all = done[0];
    for (int j = 1; j < hand_vectors; ++j) all &= done[j];
    bool finished = true;
    for (int l = 0; l < hand_width; ++l) finished = finished && all[l] != 0;
    if (finished) break;
  }
  for (int j = 0; j < hand_vectors; ++j) {
    for (int l = 0; l < hand_width; ++l) {
      x[j * hand_width + l] = xs[j][l];
      v[j * hand_width + l] = vs[j][l];
      t[j * hand_width + l] = ts[j][l];
    }
  }
}

/// The whole batch on the host's default execution space, blocks over threads; samples past the
/// last whole block run the same arithmetic one at a time. `ends`: each sample's end time, or an
/// empty View for the uniform `t_end`.
inline void hand_simd_oscillator(const Kokkos::View<double*, Kokkos::HostSpace>& x,
                                 const Kokkos::View<double*, Kokkos::HostSpace>& v,
                                 const Kokkos::View<double*, Kokkos::HostSpace>& t,
                                 const Kokkos::View<const double*, Kokkos::HostSpace>& omega, double t_end,
                                 const Kokkos::View<const double*, Kokkos::HostSpace>& ends, double dt,
                                 std::int64_t max_steps) {
  const auto n = static_cast<std::int64_t>(x.extent(0));
  const bool per_sample = ends.extent(0) > 0;
  Kokkos::parallel_for(
      "baseline::hand_simd",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(0, n / hand_block),
      [=](const std::int64_t b) {
        const std::int64_t o = b * hand_block;
        if (per_sample) {
          hand_simd_block<true>(x.data() + o, v.data() + o, t.data() + o, omega.data() + o, t_end, ends.data() + o, dt,
                                max_steps);
        } else {
          hand_simd_block<false>(x.data() + o, v.data() + o, t.data() + o, omega.data() + o, t_end, nullptr, dt,
                                 max_steps);
        }
      });
  for (std::int64_t i = n / hand_block * hand_block; i < n; ++i) {
    const double end = per_sample ? ends(i) : t_end;
    for (std::int64_t step = 0; step < max_steps && !(t(i) >= end); ++step) {
      const double x0 = x(i), v0 = v(i);
      x(i) = x0 + dt * v0;
      v(i) = v0 - dt * omega(i) * omega(i) * x0;
      t(i) += dt;
    }
  }
}

}  // namespace eagle::perf
