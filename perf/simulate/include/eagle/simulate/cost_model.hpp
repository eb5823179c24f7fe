#pragma once
// The cost model behind `eagle-simulate --model`. Pure C++: tested with synthetic timings.
//
// An arm's run is described by what it did (from its eagle::Report): launches, host
// synchronisations (each launch reduces the running count to the host), sample-steps of useful
// work, lane-steps (each sample that starts a launch holds its lane for the launch's K steps: on a
// GPU warp a finished lane idles, so lane-steps - sample-steps is the masked waste), slots visited
// and slots scanned by compaction. Its time is modelled as
//
//   t = launches x (launch latency + host sync) + work x cost per step + scanned slots x scan cost
//
// where "work" is sample-steps on a host (a CPU thread that finishes a sample takes the next one:
// nothing idles) and lane-steps on a GPU profile. On the host the three constants are fitted to
// the measured runs by least squares; a GPU profile gives its own.

#include <eagle/replay.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace eagle::simulate {

/// What one run did, as the model sees it.
struct RunFeatures {
  double launches = 0;
  double sample_steps = 0;
  double lane_steps = 0;
  double scanned_slots = 0;
};

/// The model's constants: seconds per launch (latency and sync together), per step of work, per
/// slot scanned by compaction.
struct CostConstants {
  double per_launch = 0;
  double per_step = 0;
  double per_scanned_slot = 0;
};

/// A device the arms are predicted on.
struct DeviceProfile {
  std::string name;
  double launch_seconds = 0;         ///< launching one kernel
  double sync_seconds = 0;           ///< a reduction's result reaching the host
  double lane_steps_per_second = 0;  ///< lane-steps of the oscillator per second, the whole device
  double scan_slots_per_second = 0;  ///< slots a compaction scan covers per second
  std::int64_t concurrency = 0;      ///< samples in flight at once (resident threads)
  int lockstep_lanes = 32;           ///< lanes that step together: a warp (NVIDIA 32) or wavefront (AMD 64)
  bool host_tile = false;            ///< whether the host tile arms exist there
  std::string source;                ///< where the figures come from
};

/// GPU profiles. Figures are published orders of magnitude, not measurements on this project's
/// machines (no GPU was available): see docs/SIMULATE.md.
const std::vector<DeviceProfile>& gpu_profiles();

/// Predicted seconds of a run with these features under fitted host constants.
double predict_host(const RunFeatures& f, const CostConstants& c);

/// Predicted seconds of a run with these features on a device profile (lanes idle on a GPU).
double predict_device(const RunFeatures& f, const DeviceProfile& p);

/// What eagle's rules would weigh on a profile's device: a launch and its sync; a sample's launch of
/// K steps, K lane-steps; a finished lane idling at a step's price; a finished slot visited, and a
/// compaction scan, at a scan's price per slot; rows swapped at a scan's bandwidth (8 B a slot).
LaunchCosts launch_costs_on(const DeviceProfile& p);

CompactionCosts compaction_costs_on(const DeviceProfile& p);

/// An arm of one sample per work item (`fixed_k` steps a launch, 0: auto) as eagle would run it on
/// the profile's device: its policies replayed against each sample's finish step with the device's
/// concurrency and costs (eagle/replay.hpp), then described for predict_device, with lane-steps
/// counted by the profile's warps (a finished sample's lane idles until its warp's slowest stops).
RunFeatures replay_on(const DeviceProfile& p, const std::vector<std::int64_t>& finish_steps, std::int64_t max_steps,
                      std::int64_t fixed_k, bool compacts, std::int64_t bytes_per_row);

/// Least-squares fit of the host constants to measured (features, seconds) pairs, each weighted by
/// 1 / seconds so that fast and slow runs count alike (relative error). A constant that comes out
/// negative is dropped and the rest refitted: costs are never negative.
CostConstants fit_host_costs(const std::vector<std::pair<RunFeatures, double>>& runs);

}  // namespace eagle::simulate
