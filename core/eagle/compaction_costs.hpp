#pragma once
// The constants of the compaction rule (eagle/compaction.hpp), measured on this machine with the
// run's own functors: what a launch pays per finished slot it visits, per slot read through a map,
// what the scan that builds a map pays per slot, and what swapping rows pays per byte. Each is the
// slope between two batch sizes, best of three (detail/measure.hpp); a launch's fixed latency is
// measured apart, as what a scan of a few slots takes beyond its slope.

#include <eagle/compaction.hpp>
#include <eagle/detail/active_set.hpp>
#include <eagle/detail/launch.hpp>
#include <eagle/detail/measure.hpp>
#include <eagle/detail/region.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>

namespace eagle {
namespace detail {

template <class ExecSpace, class Model, class Mem>
CompactionCosts measure_compaction_costs(const Launcher<ExecSpace, Model, Mem>& run) {
  const Region region("eagle::measure_compaction_costs");
  using T = typename ModelTraits<Model>::scalar_type;
  constexpr int NS = ModelTraits<Model>::state_count;
  constexpr int NI = ModelTraits<Model>::input_count;
  constexpr std::int64_t small = std::int64_t(1) << 15;
  constexpr std::int64_t large = std::int64_t(1) << 18;
  const ExecSpace& exec = run.exec;

  Launcher<ExecSpace, Model, Mem> probe = run.rehearsal();
  probe.max_steps = 1;
  for (int f = 0; f < NS; ++f) probe.state.planes[f] = Kokkos::View<T*, Mem>("eagle::probe_state", large);
  for (int f = 0; f < NI; ++f) probe.inputs.planes[f] = Kokkos::View<T*, Mem>("eagle::probe_input", large);
  probe.book = probe_bookkeeping<Mem>(large);
  Kokkos::deep_copy(exec, probe.book.terminated, true);
  const auto identity = identity_rows<ExecSpace, Mem>(exec, large);

  CompactionCosts c;
  c.visit_per_slot = slope(exec, small, large, [&](std::int64_t n) { probe({{}, {}, n}, 1, false); });
  const double mapped = slope(exec, small, large, [&](std::int64_t n) { probe({identity, {}, n}, 1, false); });
  c.indirect_per_slot = std::max(0.0, mapped - c.visit_per_slot);

  // Half the rows still step, at random: the scan writes half its slots; the swaps pair rows that
  // stopped in the front half with rows still stepping behind it, as a reorder does.
  const auto book = probe.book;
  Kokkos::parallel_for(
      "eagle::probe_half", IndexRange<ExecSpace>(exec, 0, large),
      KOKKOS_LAMBDA(const std::int64_t r) { book.terminated(r) = one_in(r, 2); });
  const Kokkos::View<RowIndex*, Mem> map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::probe_map"), large);
  const auto scan = [&](std::int64_t n) {
    static_cast<void>(active_map(exec, book, Rows<Mem>{{}, {}, n}, n / 2, std::int64_t(1), map));
  };
  c.scan_per_slot = slope(exec, small, large, scan);
  constexpr std::int64_t tiny = 256;
  c.launch_seconds = std::max(0.0, best_seconds(exec, tiny, scan) - static_cast<double>(tiny) * c.scan_per_slot);
  const RowPlanes<T, NS, Mem> planes{probe.state, book, identity_rows<ExecSpace, Mem>(exec, large)};
  constexpr std::int64_t most = large / 8;  // fewer than either half holds of its kind
  const Kokkos::View<RowIndex*, Mem> stopped(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::probe_stopped"),
                                             most);
  const Kokkos::View<RowIndex*, Mem> stepping(Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::probe_stepping"),
                                              most);
  rows_where(exec, book, 0, large / 2, false, most, 1, stopped);
  rows_where(exec, book, large / 2, large, true, most, 1, stepping);
  const Kokkos::View<std::int64_t, Mem> all_pairs("eagle::probe_pairs");
  Kokkos::deep_copy(exec, all_pairs, most);
  const double per_pair = slope(
      exec, small / 8, most, [&](std::int64_t pairs) { swap_rows(exec, planes, stopped, stepping, pairs, all_pairs); });
  c.move_per_byte = per_pair / (2.0 * static_cast<double>(RowPlanes<T, NS, Mem>::bytes_per_row));

  std::ostringstream source;
  source << "measured on " << ExecSpace::name() << " (" << describe(run.nest) << ")";
  c.source = source.str();
  return c;
}

}  // namespace detail

/// The compaction costs of `Model` on `ExecSpace` with this run's loop nest, measured on first use
/// and kept for the process (a few milliseconds).
template <class ExecSpace, class Model, class Mem>
const CompactionCosts& compaction_costs(const detail::Launcher<ExecSpace, Model, Mem>& run) {
  if (run.nest == LoopNest::tile) {
    static const CompactionCosts tile = detail::measure_compaction_costs(run);
    return tile;
  }
  static const CompactionCosts per_sample = detail::measure_compaction_costs(run);
  return per_sample;
}

}  // namespace eagle
