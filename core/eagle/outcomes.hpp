#pragma once
// What a run leaves per sample: its terminated flag, how it ended and how many steps it took.
// A caller who wants to split a batch by outcome passes these planes; otherwise the run keeps
// its own.

#include <eagle/status_codes.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace eagle {

/// Per-sample outcome planes, on the run's memory space, in the caller's sample order.
///  - `terminated`: read on entry (a terminated sample is not stepped), written on exit.
///  - `status`: written by the run: status::finished, status::capped (still running at max_steps),
///    status::running (an interrupted run: not yet at its cap), status::non_finite, the model's
///    own ending (status::first_model_ending .. 15: finished) or failure code (>=
///    status::first_model_failure).
///  - `steps_taken`: the steps each sample took in this run (a resumed run counts from the start
///    of the run its checkpoint belongs to).
template <class Mem>
struct Outcomes {
  Kokkos::View<bool*, Mem> terminated;           ///< per sample: terminated (read on entry, written on exit)
  Kokkos::View<std::uint8_t*, Mem> status;       ///< per sample: how it ended (an eagle::status or model failure code)
  Kokkos::View<std::int64_t*, Mem> steps_taken;  ///< per sample: the steps it took in this run
};

/// Outcome planes for `n` samples, every sample unterminated.
template <class Mem = Kokkos::DefaultExecutionSpace::memory_space>
Outcomes<Mem> outcomes(std::int64_t n) {
  return {Kokkos::View<bool*, Mem>("eagle::terminated", n), Kokkos::View<std::uint8_t*, Mem>("eagle::status", n),
          Kokkos::View<std::int64_t*, Mem>("eagle::steps_taken", n)};
}

/// A status code in words: "finished", "capped", "running", "non-finite", "finished, model ending
/// 4", "model failure 17".
inline std::string describe_status(std::uint8_t code) {
  switch (code) {
    case status::running:
      return "running";
    case status::finished:
      return "finished";
    case status::non_finite:
      return "non-finite";
    case status::capped:
      return "capped";
    default:
      return code >= status::first_model_failure ? "model failure " + std::to_string(code)
                                                 : "finished, model ending " + std::to_string(code);
  }
}

}  // namespace eagle
