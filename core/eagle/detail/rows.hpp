#pragma once
// Which rows of the planes a launch visits. A launch runs over slots 0..count-1; slot j is row
// map(j) when an active-set map is in use, else row j. After a reorder, row r holds the caller's
// sample origin(r): state and bookkeeping move with the row, the caller's (read-only) inputs are
// read through origin.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::detail {

/// Row indices: 32 bits halve the maps' memory; runs with compaction are limited to 2^31 - 1 samples.
using RowIndex = std::int32_t;

template <class Mem>
struct Rows {
  Kokkos::View<const RowIndex*, Mem> map;     ///< slot -> row; empty: the identity
  Kokkos::View<const RowIndex*, Mem> origin;  ///< row -> caller's sample; empty: the identity
  std::int64_t count = 0;                     ///< slots the launch visits

  /// Slot j is row j and row r the caller's sample r: neither map is in use.
  bool identity() const { return map.extent(0) == 0 && origin.extent(0) == 0; }
  KOKKOS_INLINE_FUNCTION std::int64_t row(std::int64_t slot) const {
    return map.extent(0) > 0 ? static_cast<std::int64_t>(map(slot)) : slot;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t sample(std::int64_t row) const {
    return origin.extent(0) > 0 ? static_cast<std::int64_t>(origin(row)) : row;
  }
};

}  // namespace eagle::detail
