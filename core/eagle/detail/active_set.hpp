#pragma once
// The active set: which rows still step, as a map (a scan over the slots) or as a dense block at
// the front of the planes (rows swapped in pairs, the permutation kept in `origin`), and the way
// back to the caller's sample order.

#include <eagle/detail/fused_steps.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/fields.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace eagle::detail {

/// A row the next launch should step: unterminated and under the cap.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool steps_on(const Bookkeeping<Mem>& book, std::int64_t row, std::int64_t max_steps) {
  return !book.terminated(row) && book.steps_taken(row) < max_steps;
}

template <class ExecSpace>
using IndexRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

/// The active-set map: the rows of the current slots that still step, in slot order (`active` of
/// them, as the last launch counted), written into `out` (at least `active` long; not the map the
/// slots are read through). Returns the first `active` entries of `out`.
template <class ExecSpace, class Mem>
Kokkos::View<RowIndex*, Mem> active_map(const ExecSpace& exec, const Bookkeeping<Mem>& book, const Rows<Mem>& rows,
                                        std::int64_t active, std::int64_t max_steps,
                                        const Kokkos::View<RowIndex*, Mem>& out) {
  const auto map = Kokkos::subview(out, std::make_pair(std::int64_t(0), active));
  Kokkos::parallel_scan(
      "eagle::active_map", IndexRange<ExecSpace>(exec, 0, rows.count),
      KOKKOS_LAMBDA(const std::int64_t slot, std::int64_t& offset, const bool final) {
        const std::int64_t r = rows.row(slot);
        if (!steps_on(book, r, max_steps)) return;
        if (final && offset < active) map(offset) = static_cast<RowIndex>(r);
        ++offset;
      });
  return map;
}

/// Rows in [begin, end) that step on (`wanted` true) or not, ascending, the first `limit` of them
/// written into `out` (at least `limit` long).
template <class ExecSpace, class Mem>
void rows_where(const ExecSpace& exec, const Bookkeeping<Mem>& book, std::int64_t begin, std::int64_t end, bool wanted,
                std::int64_t limit, std::int64_t max_steps, const Kokkos::View<RowIndex*, Mem>& out) {
  Kokkos::parallel_scan(
      "eagle::rows_where", IndexRange<ExecSpace>(exec, begin, end),
      KOKKOS_LAMBDA(const std::int64_t r, std::int64_t& offset, const bool final) {
        if (steps_on(book, r, max_steps) != wanted) return;
        if (final && offset < limit) out(offset) = static_cast<RowIndex>(r);
        ++offset;
      });
}

/// Index buffers a run reuses from action to action (compaction, revival): each allocated when an
/// action first needs it, sized for every later one (the maps: two, each read while the other is
/// written; the active set only shrinks), never per launch.
template <class Mem>
struct IndexBuffers {
  Kokkos::View<RowIndex*, Mem> maps[2];  ///< the active-set map the slots are read through, and the next
  int map_in_use = 0;
  Kokkos::View<RowIndex*, Mem> from, to;  ///< rows to swap, in pairs
  Kokkos::View<std::int64_t, Mem> pairs;  ///< how many pairs the last pairing found, on the device
  Kokkos::View<std::int64_t, Mem> moved;  ///< rows moved by reordering so far, counted on the device

  /// The buffer the next active-set map goes into, holding at least `size` rows.
  Kokkos::View<RowIndex*, Mem> next_map(std::int64_t size) {
    map_in_use = 1 - map_in_use;
    hold(maps[map_in_use], size, "eagle::active_map");
    return maps[map_in_use];
  }
  /// The pair buffers, holding at least `size` pairs, and the device counters.
  void hold_pairs(std::int64_t size) {
    hold(from, size, "eagle::swap_from");
    hold(to, size, "eagle::swap_to");
    if (pairs.data() == nullptr) pairs = Kokkos::View<std::int64_t, Mem>("eagle::pairs");
    if (moved.data() == nullptr) moved = Kokkos::View<std::int64_t, Mem>("eagle::rows_moved");
  }
  /// Rows moved so far (a read back to the host: for checkpoints and the summary only).
  std::int64_t rows_moved() const {
    std::int64_t n = 0;
    if (moved.data() != nullptr) Kokkos::deep_copy(n, moved);
    return n;
  }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(sizeof(RowIndex) *
                                     (maps[0].extent(0) + maps[1].extent(0) + from.extent(0) + to.extent(0)));
  }

 private:
  static void hold(Kokkos::View<RowIndex*, Mem>& view, std::int64_t size, const std::string& label) {
    if (static_cast<std::int64_t>(view.extent(0)) >= size) return;
    view = Kokkos::View<RowIndex*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), size);
  }
};

/// Everything a row holds: state, bookkeeping and which caller sample it is.
template <class T, int NS, class Mem>
struct RowPlanes {
  Fields<T, NS, Mem> state;
  Bookkeeping<Mem> book;
  Kokkos::View<RowIndex*, Mem> origin;

  static constexpr std::int64_t bytes_per_row =
      sizeof(T) * NS + sizeof(bool) + sizeof(std::uint8_t) + sizeof(std::int64_t) + sizeof(RowIndex);

  KOKKOS_INLINE_FUNCTION void swap(std::int64_t a, std::int64_t b) const {
    for (int f = 0; f < NS; ++f) exchange(state[f](a), state[f](b));
    exchange(book.terminated(a), book.terminated(b));
    exchange(book.status(a), book.status(b));
    exchange(book.steps_taken(a), book.steps_taken(b));
    exchange(origin(a), origin(b));
  }

 private:
  template <class V>
  KOKKOS_INLINE_FUNCTION static void exchange(V& x, V& y) {
    const V t = x;
    x = y;
    y = t;
  }
};

/// Swaps row from(p) with row to(p) for every p below `pairs` (a count on the device, at most `most`).
template <class ExecSpace, class T, int NS, class Mem>
void swap_rows(const ExecSpace& exec, const RowPlanes<T, NS, Mem>& planes, const Kokkos::View<RowIndex*, Mem>& from,
               const Kokkos::View<RowIndex*, Mem>& to, std::int64_t most,
               const Kokkos::View<std::int64_t, Mem>& pairs) {
  Kokkos::parallel_for(
      "eagle::swap_rows", IndexRange<ExecSpace>(exec, 0, most), KOKKOS_LAMBDA(const std::int64_t p) {
        if (p < pairs()) planes.swap(from(p), to(p));
      });
}

/// Moves the rows in [0, span) that still step (`active` of them) into [0, active): each row that
/// stopped in front swaps with one still stepping behind. One scan lists both kinds (their counts
/// packed in one integer: in front in the low 32 bits, behind in the high; rows index in 32 bits)
/// and leaves the pair count on the device, where the swaps read it and the moved rows are
/// counted: nothing comes back to the host.
template <class ExecSpace, class T, int NS, class Mem>
void reorder_rows(const ExecSpace& exec, const RowPlanes<T, NS, Mem>& planes, std::int64_t span, std::int64_t active,
                  std::int64_t max_steps, IndexBuffers<Mem>& buffers) {
  const std::int64_t most = std::min(active, span - active);
  if (most <= 0) return;
  buffers.hold_pairs(span / 2);  // the most pairs any later reordering (over fewer rows) can need
  const auto book = planes.book;
  const auto from = buffers.from;
  const auto to = buffers.to;
  const auto pairs = buffers.pairs;
  const auto moved = buffers.moved;
  constexpr std::int64_t behind_one = std::int64_t(1) << 32;
  constexpr std::int64_t front_mask = behind_one - 1;
  Kokkos::parallel_scan(
      "eagle::pair_rows", IndexRange<ExecSpace>(exec, 0, span),
      KOKKOS_LAMBDA(const std::int64_t r, std::int64_t& packed, const bool final) {
        const bool front = r < active;
        if (front != steps_on(book, r, max_steps)) {  // stopped in front, or stepping behind
          if (final && front) from(packed & front_mask) = static_cast<RowIndex>(r);
          if (final && !front) to(packed >> 32) = static_cast<RowIndex>(r);
          packed += front ? 1 : behind_one;
        }
        if (final && r == span - 1) {
          pairs() = packed & front_mask;
          moved() += 2 * (packed & front_mask);
        }
      });
  swap_rows(exec, planes, from, to, most, pairs);
}

/// Revival: rows in the window [0, window) that stopped (`stopped` of them, as the last launch
/// counted) swap with the unstarted rows [next, pending_end), in order. Returns how many samples
/// entered the window.
template <class ExecSpace, class T, int NS, class Mem>
std::int64_t revive_rows(const ExecSpace& exec, const RowPlanes<T, NS, Mem>& planes, std::int64_t window,
                         std::int64_t stopped, std::int64_t next, std::int64_t pending_end, std::int64_t max_steps,
                         IndexBuffers<Mem>& buffers) {
  const std::int64_t pairs = std::min(stopped, pending_end - next);
  if (pairs <= 0) return 0;
  buffers.hold_pairs(window);  // the most pairs any revival can need
  const auto freed = buffers.from;
  rows_where(exec, planes.book, 0, window, false, pairs, max_steps, freed);
  Kokkos::parallel_for(
      "eagle::revive_rows", IndexRange<ExecSpace>(exec, 0, pairs),
      KOKKOS_LAMBDA(const std::int64_t p) { planes.swap(freed(p), next + p); });
  return pairs;
}

/// The identity permutation of n rows.
template <class ExecSpace, class Mem>
Kokkos::View<RowIndex*, Mem> identity_rows(const ExecSpace& exec, std::int64_t n) {
  const Kokkos::View<RowIndex*, Mem> origin(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::origin"), n);
  Kokkos::parallel_for(
      "eagle::identity_rows", IndexRange<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t r) { origin(r) = static_cast<RowIndex>(r); });
  return origin;
}

/// A plane any of a row's fields fits in (state of scalar type T, flags, codes, step counts).
template <class T, class Mem>
using RestoreScratch = Kokkos::View<std::conditional_t<(sizeof(T) > sizeof(std::int64_t)), T, std::int64_t>*, Mem>;

/// Puts every row of `plane` back at its caller's sample index, through `scratch` (at least as
/// many rows): nothing allocated, so the way back cannot fail for want of memory.
template <class ExecSpace, class V, class Mem, class Scratch>
void restore_plane(const ExecSpace& exec, const Kokkos::View<V*, Mem>& plane,
                   const Kokkos::View<const RowIndex*, Mem>& origin, const Scratch& scratch) {
  static_assert(
      sizeof(V) <= sizeof(typename Scratch::value_type) && alignof(V) <= alignof(typename Scratch::value_type),
      "eagle: the restore scratch holds any field of a row");
  const Kokkos::View<V*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> moved(reinterpret_cast<V*>(scratch.data()),
                                                                             plane.extent(0));
  Kokkos::parallel_for(
      "eagle::restore", IndexRange<ExecSpace>(exec, 0, plane.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t r) { moved(origin(r)) = plane(r); });
  Kokkos::deep_copy(exec, plane, moved);
}

}  // namespace eagle::detail
