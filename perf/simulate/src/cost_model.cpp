// The cost model's figures and arithmetic (declared in eagle/simulate/cost_model.hpp).

#include <eagle/simulate/cost_model.hpp>

#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace eagle::simulate {

const std::vector<DeviceProfile>& gpu_profiles() {
  static const std::vector<DeviceProfile> profiles = {
      {"nvidia-a100", 4e-6, 8e-6, 2.0e11, 2.0e10, 108 * 2048, 32, false,
       "launch ~4 us, reduction to host ~8 us (typical CUDA figures); 9.7 TFLOP/s FP64 peak / 6 flops a "
       "step at ~12% of peak; scans at ~1.5 TB/s / 8 B a slot x 10%; 108 SMs x 2048 threads in flight; "
       "warps of 32"},
      {"nvidia-h100", 3e-6, 6e-6, 6.0e11, 4.0e10, 132 * 2048, 32, false,
       "launch ~3 us, reduction to host ~6 us (typical CUDA figures); 34 TFLOP/s FP64 peak / 6 flops a "
       "step at ~10% of peak; scans at ~3 TB/s / 8 B a slot x 10%; 132 SMs x 2048 threads in flight; "
       "warps of 32"},
      {"amd-mi250x-gcd", 6e-6, 1e-5, 4.0e11, 2.0e10, 110 * 2048, 64, false,
       "one of the two dies a process sees; launch ~6 us, reduction to host ~10 us (typical HIP figures); "
       "23.9 TFLOP/s FP64 vector peak / 6 flops a step at ~10% of peak; scans at ~1.6 TB/s / 8 B a slot "
       "x 10%; 110 CUs x 2048 threads in flight; wavefronts of 64"},
      {"amd-mi300x", 5e-6, 8e-6, 1.4e12, 6.6e10, 304 * 2048, 64, false,
       "launch ~5 us, reduction to host ~8 us (typical HIP figures); 81.7 TFLOP/s FP64 vector peak / 6 "
       "flops a step at ~10% of peak; scans at ~5.3 TB/s / 8 B a slot x 10%; 304 CUs x 2048 threads in "
       "flight; wavefronts of 64"},
  };
  return profiles;
}

double predict_host(const RunFeatures& f, const CostConstants& c) {
  return f.launches * c.per_launch + f.sample_steps * c.per_step + f.scanned_slots * c.per_scanned_slot;
}

double predict_device(const RunFeatures& f, const DeviceProfile& p) {
  return f.launches * (p.launch_seconds + p.sync_seconds) + f.lane_steps / p.lane_steps_per_second +
         f.scanned_slots / p.scan_slots_per_second;
}

LaunchCosts launch_costs_on(const DeviceProfile& p) {
  LaunchCosts c;
  c.fixed_seconds = p.launch_seconds + p.sync_seconds;
  for (int i = 0; i < rung_count; ++i) c.per_sample_seconds[i] = static_cast<double>(1 << i) / p.lane_steps_per_second;
  c.masked_step_seconds = 1.0 / p.lane_steps_per_second;
  c.finished_sample_seconds = 1.0 / p.scan_slots_per_second;
  c.measured = true;
  return c;
}

CompactionCosts compaction_costs_on(const DeviceProfile& p) {
  CompactionCosts c;
  c.visit_per_slot = 1.0 / p.scan_slots_per_second;
  c.indirect_per_slot = 1.0 / p.scan_slots_per_second;
  c.scan_per_slot = 1.0 / p.scan_slots_per_second;
  c.move_per_byte = 1.0 / (8.0 * p.scan_slots_per_second);
  c.launch_seconds = p.launch_seconds;
  c.source = "profile " + p.name;
  return c;
}

RunFeatures replay_on(const DeviceProfile& p, const std::vector<std::int64_t>& finish_steps, std::int64_t max_steps,
                      std::int64_t fixed_k, bool compacts, std::int64_t bytes_per_row) {
  ReplayInput in;
  in.finish_steps = finish_steps;
  in.max_steps = max_steps;
  in.concurrency = p.concurrency;
  in.fixed_k = fixed_k;
  in.launch_costs = launch_costs_on(p);
  in.compaction = compacts ? Compaction::automatic : Compaction::off;
  in.compaction_costs = compaction_costs_on(p);
  in.bytes_per_row = bytes_per_row;
  in.warp = p.lockstep_lanes;
  const ReplayResult r = replay(in);
  return {static_cast<double>(r.history.size()), static_cast<double>(r.sample_steps),
          static_cast<double>(r.warp_lane_steps), static_cast<double>(r.scanned_slots)};
}

CostConstants fit_host_costs(const std::vector<std::pair<RunFeatures, double>>& runs) {
  if (runs.size() < 3) throw std::invalid_argument("eagle::simulate::fit_host_costs: needs at least 3 runs");
  std::array<bool, 3> use = {true, true, true};
  for (int attempt = 0; attempt < 4; ++attempt) {
    // Normal equations A^T W A x = A^T W t over the columns in use.
    double ata[3][3] = {}, atb[3] = {};
    for (const auto& [f, t] : runs) {
      if (!(t > 0)) throw std::invalid_argument("eagle::simulate::fit_host_costs: times must be positive");
      const double w = 1.0 / (t * t);
      const double row[3] = {f.launches, f.sample_steps, f.scanned_slots};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) ata[i][j] += use[i] && use[j] ? w * row[i] * row[j] : 0.0;
        atb[i] += use[i] ? w * row[i] * t : 0.0;
      }
    }
    for (int i = 0; i < 3; ++i) {
      if (!use[i] || ata[i][i] == 0.0) {  // unused or never seen: pin to zero
        use[i] = false;
        for (int j = 0; j < 3; ++j) ata[i][j] = ata[j][i] = 0.0;
        ata[i][i] = 1.0;
        atb[i] = 0.0;
      }
    }
    // Gaussian elimination with partial pivoting on the 3 x 3 system.
    double x[3] = {};
    int order[3] = {0, 1, 2};
    for (int col = 0; col < 3; ++col) {
      int pivot = col;
      for (int r = col + 1; r < 3; ++r) {
        if (std::fabs(ata[order[r]][col]) > std::fabs(ata[order[pivot]][col])) pivot = r;
      }
      std::swap(order[col], order[pivot]);
      const double p = ata[order[col]][col];
      if (p == 0.0) throw std::invalid_argument("eagle::simulate::fit_host_costs: the runs do not determine the costs");
      for (int r = col + 1; r < 3; ++r) {
        const double m = ata[order[r]][col] / p;
        for (int c = col; c < 3; ++c) ata[order[r]][c] -= m * ata[order[col]][c];
        atb[order[r]] -= m * atb[order[col]];
      }
    }
    for (int col = 2; col >= 0; --col) {
      double s = atb[order[col]];
      for (int c = col + 1; c < 3; ++c) s -= ata[order[col]][c] * x[c];
      x[col] = s / ata[order[col]][col];
    }
    bool negative = false;
    for (int i = 0; i < 3; ++i) {
      if (use[i] && x[i] < 0) {
        use[i] = false;
        negative = true;
      }
    }
    if (!negative) return {x[0], x[1], x[2]};
  }
  return {};
}

}  // namespace eagle::simulate
