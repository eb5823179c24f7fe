#pragma once
// A sample's status codes, without Kokkos: the checkpoint reader checks them on the host.

#include <cstdint>

namespace eagle {

/// Status codes of a sample, as kept per sample and counted in the report.
namespace status {
inline constexpr std::uint8_t running = 0;     ///< not terminated, under its cap (a run stopped early)
inline constexpr std::uint8_t finished = 1;    ///< the model said it is done
inline constexpr std::uint8_t non_finite = 2;  ///< its state became NaN or infinite
inline constexpr std::uint8_t capped = 3;      ///< not terminated, stopped by max_steps (set when a run ends)
/// Models number their own ways of finishing from here up to first_model_failure - 1 (e.g. an
/// ODE stopped at its event): the sample is done and counted as finished, not failed.
inline constexpr std::uint8_t first_model_ending = 4;
/// Models number their own failures from here (e.g. Newton did not converge).
inline constexpr std::uint8_t first_model_failure = 16;
}  // namespace status

}  // namespace eagle
