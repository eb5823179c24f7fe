#pragma once
// Passes over every sample outside the launches (the finite check, the status start, the summary)
// run a block of samples per work item on a host: the reducers join once a block instead of once a
// sample, and the block's loop runs on SIMD lanes. Sample by sample, the finite check and the
// summary took 5-10 % of a 10^5-sample tile run (AMD EPYC, 2 threads).

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace eagle::detail {

/// Host execution spaces run the tile; others one sample per work item.
template <class ExecSpace>
inline constexpr bool is_host_space = std::is_same<typename ExecSpace::memory_space, Kokkos::HostSpace>::value;

/// Samples a work item of a pass visits: a block on a host, one on a device, where neighbouring
/// threads then read neighbouring values.
template <class ExecSpace>
inline constexpr std::int64_t pass_block = is_host_space<ExecSpace> ? 2048 : 1;

/// Work items of a pass over n samples.
template <class ExecSpace>
std::int64_t pass_blocks(std::int64_t n) {
  return (n + pass_block<ExecSpace> - 1) / pass_block<ExecSpace>;
}

/// Samples [begin, end) of block b of `block` samples, of n.
struct SampleBlock {
  std::int64_t begin, end;
  KOKKOS_INLINE_FUNCTION SampleBlock(std::int64_t b, std::int64_t block, std::int64_t n)
      : begin(b * block), end(b * block + block < n ? b * block + block : n) {}
};

}  // namespace eagle::detail
