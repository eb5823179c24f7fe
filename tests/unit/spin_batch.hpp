#pragma once
// A spread batch of a small rotation model, kept on TestSpace: for the compaction and checkpoint
// tests, which need samples of very different lengths whose results depend on every step.

#include "batch.hpp"
#include "eagle_test_space.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/spread_batches.hpp>

#include <cstdint>
#include <vector>

namespace eagle::test {

/// A rotation that stops after `length` steps: results depend on every step taken, and on which
/// sample's inputs a row was given.
struct Spin {
  static constexpr const char* name = "spin";
  using scalar_type = double;
  static constexpr bool lane_packs = true;
  enum State : int { x, v, count, state_count };
  enum Input : int { length, omega, input_count };
  double dt = 1e-2;

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& in) const {
    const auto a = in[omega] * dt;
    const auto x_new = s[x] + a * s[v];
    s[v] = s[v] - a * x_new;
    s[x] = x_new;
    s[count] = s[count] + 1.0;
    return s[count] >= in[length];
  }
};

/// A spread batch of Spin samples (lengths from `base` to `base` x spread); every 13th sample
/// arrives terminated.
inline HostBatch spin_batch(kernels::Spread spread, std::int64_t n, double base = 5.0) {
  HostBatch b;
  b.state.assign(3, std::vector<double>(n, 0.0));
  b.inputs = {kernels::sample_lengths(spread, n, base, 42), std::vector<double>(n)};
  b.terminated.assign(n, false);
  for (std::int64_t i = 0; i < n; ++i) {
    b.state[Spin::x][i] = 1.0 + 1e-3 * static_cast<double>(i);
    b.inputs[Spin::omega][i] = 0.5 + static_cast<double>(i % 97) / 50.0;
    b.terminated[i] = i % 13 == 0;
  }
  return b;
}

/// A host batch's planes on TestSpace, run in place and read back.
struct SpinPlanes {
  using Mem = TestSpace::memory_space;
  explicit SpinPlanes(const HostBatch& b)
      : x(plane<TestSpace>("x", b.state[0])),
        v(plane<TestSpace>("v", b.state[1])),
        count(plane<TestSpace>("count", b.state[2])),
        length(plane<TestSpace>("length", b.inputs[0])),
        omega(plane<TestSpace>("omega", b.inputs[1])),
        terminated("terminated", b.terminated.size()) {
    auto flags = Kokkos::create_mirror_view(terminated);
    for (std::size_t i = 0; i < b.terminated.size(); ++i) flags(i) = b.terminated[i];
    Kokkos::deep_copy(terminated, flags);
  }
  Report run(const Deployed<Spin>& d, std::int64_t max_steps, const RunOptions& options) const {
    return run_until_done(TestSpace(), d, eagle::state(x, v, count), eagle::inputs(length, omega), terminated,
                          max_steps, options);
  }
  std::vector<std::vector<double>> state_now() const { return {to_host(x), to_host(v), to_host(count)}; }
  std::vector<bool> terminated_now() const {
    const auto back = to_host(terminated);
    return std::vector<bool>(back.begin(), back.end());
  }
  Kokkos::View<double*, Mem> x, v, count, length, omega;
  Kokkos::View<bool*, Mem> terminated;
};

}  // namespace eagle::test
