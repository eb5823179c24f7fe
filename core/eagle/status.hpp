#pragma once
// How a sample ends: still running (capped by max_steps), finished, or failed with a reason.
// A step body returns `bool` (terminated or not) or, when it can fail, an eagle::StepStatus; one
// that also runs on lane packs returns eagle::step_result(done, failed, reason).

#include <eagle/pack.hpp>
#include <eagle/status_codes.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace eagle {

/// What a step that can fail returns.
class StepStatus {
 public:
  /// The sample goes on stepping (status::running).
  KOKKOS_INLINE_FUNCTION static StepStatus carry_on() { return StepStatus(status::running); }
  /// The sample is done (status::finished).
  KOKKOS_INLINE_FUNCTION static StepStatus done() { return StepStatus(status::finished); }
  /// The sample is done in a way of the model's own, `how` in status::first_model_ending ..
  /// first_model_failure - 1 (counted as finished; its status keeps `how`).
  KOKKOS_INLINE_FUNCTION static StepStatus done(std::uint8_t how) { return StepStatus(how); }
  /// `reason` is the model's own code, >= status::first_model_failure.
  KOKKOS_INLINE_FUNCTION static StepStatus failed(std::uint8_t reason) { return StepStatus(reason); }
  /// The status code: status::running, status::finished, or the model's ending or failure code.
  KOKKOS_INLINE_FUNCTION std::uint8_t code() const { return code_; }

 private:
  KOKKOS_INLINE_FUNCTION explicit StepStatus(std::uint8_t code) : code_(code) {}
  std::uint8_t code_;
};

/// A step's result from what it found, for a step body written once for single lanes and the host
/// tile's lane packs: failed with `reason` where `failed`, else done where `done`, else carry on.
/// On a pack, lane by lane.
KOKKOS_INLINE_FUNCTION StepStatus step_result(bool done, bool failed, std::uint8_t reason) {
  return failed ? StepStatus::failed(reason) : done ? StepStatus::done() : StepStatus::carry_on();
}
#if defined(EAGLE_HAS_LANE_PACKS)
template <class T>
PackStatus<T> step_result(PackMask<T> done, PackMask<T> failed, std::uint8_t reason) {
  const auto code =
      (failed.lanes() & mask_int_t<T>(reason)) | (done.lanes() & ~failed.lanes() & mask_int_t<T>(status::finished));
  return {!(done | failed), code};
}
#endif

namespace status {
/// Whether a code says the sample is done without failing: finished, or a model's own ending.
KOKKOS_INLINE_FUNCTION constexpr bool is_finished(std::uint8_t code) {
  return code == finished || (code >= first_model_ending && code < first_model_failure);
}
}  // namespace status

namespace detail {
/// The status code of a step's result, whether the model returned a bool or a StepStatus.
KOKKOS_INLINE_FUNCTION std::uint8_t outcome(bool terminated) { return terminated ? status::finished : status::running; }
KOKKOS_INLINE_FUNCTION std::uint8_t outcome(StepStatus s) { return s.code(); }
/// The StepStatus of a status code (a stepper passing on the one it wraps).
KOKKOS_INLINE_FUNCTION StepStatus step_status(std::uint8_t code) {
  return code == status::running     ? StepStatus::carry_on()
         : code == status::finished  ? StepStatus::done()
         : status::is_finished(code) ? StepStatus::done(code)
                                     : StepStatus::failed(code);
}
}  // namespace detail

}  // namespace eagle
