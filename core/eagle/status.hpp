#pragma once
// How a sample ends: still running (capped by max_steps), finished, or failed with a reason.
// A step body returns `bool` (terminated or not) or, when it can fail, an eagle::StepStatus.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle {

/// Status codes of a sample, as kept per sample and counted in the report.
namespace status {
inline constexpr std::uint8_t running = 0;     ///< not terminated (the cap stopped it)
inline constexpr std::uint8_t finished = 1;    ///< the model said it is done
inline constexpr std::uint8_t non_finite = 2;  ///< its state became NaN or infinite
/// Models number their own failures from here (e.g. Newton did not converge).
inline constexpr std::uint8_t first_model_failure = 16;
}  // namespace status

/// What a step that can fail returns.
class StepStatus {
 public:
  KOKKOS_INLINE_FUNCTION static StepStatus carry_on() { return StepStatus(status::running); }
  KOKKOS_INLINE_FUNCTION static StepStatus done() { return StepStatus(status::finished); }
  /// `reason` is the model's own code, >= status::first_model_failure.
  KOKKOS_INLINE_FUNCTION static StepStatus failed(std::uint8_t reason) { return StepStatus(reason); }
  KOKKOS_INLINE_FUNCTION std::uint8_t code() const { return code_; }

 private:
  KOKKOS_INLINE_FUNCTION explicit StepStatus(std::uint8_t code) : code_(code) {}
  std::uint8_t code_;
};

namespace detail {
/// The status code of a step's result, whether the model returned a bool or a StepStatus.
KOKKOS_INLINE_FUNCTION std::uint8_t outcome(bool terminated) { return terminated ? status::finished : status::running; }
KOKKOS_INLINE_FUNCTION std::uint8_t outcome(StepStatus s) { return s.code(); }
}  // namespace detail

}  // namespace eagle
