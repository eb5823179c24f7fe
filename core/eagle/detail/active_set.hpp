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

namespace eagle::detail {

/// A row the next launch should step: unterminated and under the cap.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool steps_on(const Bookkeeping<Mem>& book, std::int64_t row, std::int64_t max_steps) {
  return !book.terminated(row) && book.steps_taken(row) < max_steps;
}

template <class ExecSpace>
using IndexRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

/// The active-set map: the rows of the current slots that still step, in slot order (`active` of
/// them, as the last launch counted).
template <class ExecSpace, class Mem>
Kokkos::View<RowIndex*, Mem> active_map(const ExecSpace& exec, const Bookkeeping<Mem>& book, const Rows<Mem>& rows,
                                        std::int64_t active, std::int64_t max_steps) {
  const Kokkos::View<RowIndex*, Mem> map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::active_map"), active);
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

/// Rows in [begin, end) that step on (`wanted` true) or not, ascending, at most `limit` of them.
template <class ExecSpace, class Mem>
Kokkos::View<RowIndex*, Mem> rows_where(const ExecSpace& exec, const Bookkeeping<Mem>& book, std::int64_t begin,
                                        std::int64_t end, bool wanted, std::int64_t limit, std::int64_t max_steps) {
  const Kokkos::View<RowIndex*, Mem> found(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::rows"), limit);
  Kokkos::parallel_scan(
      "eagle::rows_where", IndexRange<ExecSpace>(exec, begin, end),
      KOKKOS_LAMBDA(const std::int64_t r, std::int64_t& offset, const bool final) {
        if (steps_on(book, r, max_steps) != wanted) return;
        if (final && offset < limit) found(offset) = static_cast<RowIndex>(r);
        ++offset;
      });
  return found;
}

/// How many rows in [begin, end) still step.
template <class ExecSpace, class Mem>
std::int64_t count_stepping(const ExecSpace& exec, const Bookkeeping<Mem>& book, std::int64_t begin, std::int64_t end,
                            std::int64_t max_steps) {
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      "eagle::count_stepping", IndexRange<ExecSpace>(exec, begin, end),
      KOKKOS_LAMBDA(const std::int64_t r, std::int64_t& sum) { sum += steps_on(book, r, max_steps) ? 1 : 0; }, count);
  return count;
}

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

/// Swaps row from(p) with row to(p) for every p < pairs.
template <class ExecSpace, class T, int NS, class Mem>
void swap_rows(const ExecSpace& exec, const RowPlanes<T, NS, Mem>& planes, const Kokkos::View<RowIndex*, Mem>& from,
               const Kokkos::View<RowIndex*, Mem>& to, std::int64_t pairs) {
  Kokkos::parallel_for(
      "eagle::swap_rows", IndexRange<ExecSpace>(exec, 0, pairs),
      KOKKOS_LAMBDA(const std::int64_t p) { planes.swap(from(p), to(p)); });
}

/// Moves the rows in [0, span) that still step (`active` of them) into [0, active): each row that
/// stopped in front swaps with one still stepping behind. Returns the rows moved.
template <class ExecSpace, class T, int NS, class Mem>
std::int64_t reorder_rows(const ExecSpace& exec, const RowPlanes<T, NS, Mem>& planes, std::int64_t span,
                          std::int64_t active, std::int64_t max_steps) {
  const std::int64_t pairs = active - count_stepping(exec, planes.book, 0, active, max_steps);
  if (pairs == 0) return 0;
  const auto stopped = rows_where(exec, planes.book, 0, active, false, pairs, max_steps);
  const auto stepping = rows_where(exec, planes.book, active, span, true, pairs, max_steps);
  swap_rows(exec, planes, stopped, stepping, pairs);
  return 2 * pairs;
}

/// Revival: rows in the window [0, window) that stopped swap with the unstarted rows
/// [next, pending_end), in order. Returns how many samples entered the window.
template <class ExecSpace, class T, int NS, class Mem>
std::int64_t revive_rows(const ExecSpace& exec, const RowPlanes<T, NS, Mem>& planes, std::int64_t window,
                         std::int64_t next, std::int64_t pending_end, std::int64_t max_steps) {
  const std::int64_t stopped = window - count_stepping(exec, planes.book, 0, window, max_steps);
  const std::int64_t pairs = std::min(stopped, pending_end - next);
  if (pairs <= 0) return 0;
  const auto freed = rows_where(exec, planes.book, 0, window, false, pairs, max_steps);
  const Kokkos::View<RowIndex*, Mem> incoming(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::incoming"),
                                              pairs);
  Kokkos::parallel_for(
      "eagle::incoming", IndexRange<ExecSpace>(exec, 0, pairs),
      KOKKOS_LAMBDA(const std::int64_t p) { incoming(p) = static_cast<RowIndex>(next + p); });
  swap_rows(exec, planes, freed, incoming, pairs);
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

/// Puts every row of `plane` back at its caller's sample index, through one scratch plane.
template <class ExecSpace, class V, class Mem>
void restore_plane(const ExecSpace& exec, const Kokkos::View<V*, Mem>& plane,
                   const Kokkos::View<const RowIndex*, Mem>& origin) {
  const Kokkos::View<V*, Mem> scratch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::restore"),
                                      plane.extent(0));
  Kokkos::parallel_for(
      "eagle::restore", IndexRange<ExecSpace>(exec, 0, plane.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t r) { scratch(origin(r)) = plane(r); });
  Kokkos::deep_copy(exec, plane, scratch);
}

}  // namespace eagle::detail
