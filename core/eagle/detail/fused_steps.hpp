#pragma once
// The fused launch for device-style execution: one sample per work item, its state in registers
// for the launch's steps, the unfinished count reduced in the same launch.

#include <eagle/detail/bookkeeping.hpp>
#include <eagle/detail/checks.hpp>
#include <eagle/detail/rows.hpp>
#include <eagle/fields.hpp>
#include <eagle/ladder.hpp>
#include <eagle/model.hpp>
#include <eagle/status.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle::detail {

/// Zero where every value of `s` is finite, NaN elsewhere: x * 0 is 0 for every finite x and NaN
/// otherwise, so one compare tests a whole state. On scalars, or lane by lane on packs of T.
template <class T, class V, std::size_t N>
KOKKOS_INLINE_FUNCTION V finite_zeros(const Kokkos::Array<V, N>& s) {
  static_assert(N > 0, "a model has at least one state field");
  V zeros = s[0] * T(0);
  for (std::size_t f = 1; f < N; ++f) zeros += s[f] * T(0);
  return zeros;
}

/// A state that is no longer finite ends its sample, whatever the model said.
template <class T, std::size_t N>
KOKKOS_INLINE_FUNCTION std::uint8_t check_finite(const Kokkos::Array<T, N>& s, std::uint8_t code) {
  return finite_zeros<T>(s) == T(0) ? code : status::non_finite;
}

/// Steps a row may take in a launch of `limit` steps: never past the cap on its own steps.
template <class Mem>
KOKKOS_INLINE_FUNCTION std::int64_t step_budget(const Bookkeeping<Mem>& book, std::int64_t row, std::int64_t limit,
                                                std::int64_t max_steps) {
  const std::int64_t left = max_steps - book.steps_taken(row);
  return left < limit ? left : limit;
}

/// How a per-sample launch keeps the step counts. Written: each row's count is read for its
/// budget and written after the launch. Deferred (only in a launch no row can reach the cap in): a
/// row that keeps running leaves its count as it was, every running row is owed `owed` steps by
/// earlier deferred launches, and a row that ends writes them with its own. Deferring saves 16 of
/// the ~80 bytes the oscillator's sample moves per launch at K = 1; `write_owed_steps` settles the
/// counts before anything reads them or the rows change.
struct StepCounts {
  bool deferred = false;
  std::int64_t owed = 0;  ///< 0 unless deferred
};

/// Runs up to `limit` steps of every unterminated sample the rows name, in blocks of K steps
/// unrolled with the state in registers (limit <= K except on the top rung); reduces how many
/// remain active (unterminated and under the cap). Step counts as `counts` says.
template <class Model, int K, class Mem>
struct FusedSteps {
  using T = typename ModelTraits<Model>::scalar_type;
  static constexpr int NS = ModelTraits<Model>::state_count;
  static constexpr int NI = ModelTraits<Model>::input_count;

  Model model;
  Fields<T, NS, Mem> state;
  Fields<const T, NI, Mem> inputs;
  Bookkeeping<Mem> book;
  Rows<Mem> rows;
  std::int64_t limit;
  std::int64_t max_steps;
  StepCounts counts;
  std::int64_t first_sample;  ///< added to each sample's index in the context a step may take

  bool plain;  ///< no map, no reorder, counts deferred, limit >= 1: see `advance`

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot, std::int64_t& active) const {
    if (plain)
      advance<true>(slot, active);
    else
      advance<false>(slot, active);
  }

  /// One slot's launch. Plain: the usual launch (identity rows, deferred counts, a first step
  /// always within the limit) without the branches the general one takes per sample for them;
  /// at K = 1 those were a fifth of a sample-step's instructions.
  template <bool Plain>
  KOKKOS_INLINE_FUNCTION void advance(const std::int64_t slot, std::int64_t& active) const {
    const std::int64_t i = Plain ? slot : rows.row(slot);
    if (book.terminated(i)) return;
    const bool deferred = Plain || counts.deferred;
    const std::int64_t budget = deferred ? limit : step_budget(book, i, limit, max_steps);
    Values<T, NS> s;
    for (int f = 0; f < NS; ++f) s[f] = state[f](i);
    Values<T, NI> in;
    const std::int64_t sample = Plain ? i : rows.sample(i);
    for (int f = 0; f < NI; ++f) in[f] = inputs[f](sample);

    std::int64_t first_step = 0;  // read only for a step body that takes its context
    if constexpr (takes_context<Model>) first_step = book.steps_taken(i) + counts.owed;

    std::uint8_t code = status::running;
    std::int64_t taken = 0;
    // One pass of K unrolled steps; only the top rung's launches take more (limit > K). A pass
    // starts below the budget except, outside plain launches, a row's first at its cap.
    do {
      for (int k = 0; k < K; ++k) {
        if ((k > 0 || !Plain) && taken == budget) break;
        if (code != status::running) break;
        code = outcome(
            take_step(model, s, static_cast<const Values<T, NI>&>(in), first_sample + sample, first_step + taken));
        ++taken;
      }
    } while (K == top_rung && taken < budget && code == status::running);

    for (int f = 0; f < NS; ++f) state[f](i) = s[f];
    code = check_finite(s, code);   // after the stores: SSE2 then needs no copies of the state
    if (code != status::running) {  // a running sample's flag and status stay as they were
      book.terminated(i) = true;
      book.status(i) = code;
    }
    if (code != status::running || !deferred) book.steps_taken(i) += counts.owed + taken;
    if (code == status::running && (deferred || book.steps_taken(i) < max_steps)) ++active;
  }
};

/// Settles what deferred launches owe: `owed` more steps for every running row the slots name.
template <class ExecSpace, class Mem>
void write_owed_steps(const ExecSpace& exec, const Bookkeeping<Mem>& book, const Rows<Mem>& rows, std::int64_t owed) {
  Kokkos::parallel_for(
      "eagle::write_owed_steps", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, rows.count),
      KOKKOS_LAMBDA(const std::int64_t slot) {
        const std::int64_t r = rows.row(slot);
        if (!book.terminated(r)) book.steps_taken(r) += owed;
      });
}

}  // namespace eagle::detail
