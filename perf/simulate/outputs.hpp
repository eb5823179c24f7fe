#pragma once
// What eagle-simulate shows and writes: the seed's table (batch, fastest arm, closest rivals),
// JSON with every measurement and the machine (schema: simulate.schema.json), CSV, SVG charts, and
// the cost model's fit and predictions, each row marked measured or modelled.

#include "../plots/bar_chart.hpp"
#include "cost_model.hpp"
#include "simulate.hpp"

#include <eagle/host_caches.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace eagle::simulate {

/// The cells of batch b that were measured, fastest first.
inline std::vector<const Cell*> ranked(const Results& r, std::size_t b) {
  std::vector<const Cell*> cells;
  for (const Cell& c : r.cells) {
    if (c.batch == b && !c.seconds.empty()) cells.push_back(&c);
  }
  std::stable_sort(cells.begin(), cells.end(), [](const Cell* x, const Cell* y) { return x->median() < y->median(); });
  return cells;
}

inline std::string format_seconds(double s) {
  char text[32];
  if (s < 1e-3)
    std::snprintf(text, sizeof(text), "%.1f us", s * 1e6);
  else if (s < 1.0)
    std::snprintf(text, sizeof(text), "%.2f ms", s * 1e3);
  else
    std::snprintf(text, sizeof(text), "%.2f s", s);
  return text;
}

/// The seed's table: for each batch the fastest arm (median) and its two closest rivals as ratios.
inline std::string table(const Results& r) {
  std::ostringstream out;
  out << "| Batch | Fastest arm | Closest rivals |\n|---|---|---|\n";
  for (std::size_t b = 0; b < r.batches.size(); ++b) {
    const auto cells = ranked(r, b);
    out << "| " << r.batches[b].name() << " | ";
    if (cells.empty()) {
      out << "(not measured) | |\n";
      continue;
    }
    out << cells[0]->arm << " " << format_seconds(cells[0]->median()) << " | ";
    for (std::size_t i = 1; i < std::min<std::size_t>(3, cells.size()); ++i) {
      char ratio[32];
      std::snprintf(ratio, sizeof(ratio), "%.2fx", cells[i]->median() / cells[0]->median());
      out << (i > 1 ? ", " : "") << cells[i]->arm << " " << ratio;
    }
    out << " |\n";
  }
  return out.str();
}

/// Sample-steps per second of every arm on the Lorenz peer batches (Boost.Odeint against eagle).
inline std::string peer_table(const Results& r) {
  std::ostringstream out;
  for (std::size_t b = 0; b < r.batches.size(); ++b) {
    if (r.batches[b].model != Model::lorenz) continue;
    out << "\n" << r.batches[b].name() << ", sample-steps per second:";
    for (const Cell* c : ranked(r, b)) {
      char rate[64];
      std::snprintf(rate, sizeof(rate), " %s %.1f M/s;", c->arm.c_str(),
                    c->last.features.sample_steps / c->median() / 1e6);
      out << rate;
    }
    out << "\n";
  }
  return out.str();
}

/// The model's view of the measured host runs and of the GPU profiles. The host constants are
/// fitted per model and arm (a Lorenz step costs about ten oscillator steps, and the tile and one
/// sample per work item do different work per step); GPU step costs scale the profile's oscillator
/// figure by the model's host step cost over the oscillator's (both from the "auto" arm).
struct ModelReport {
  struct Fit {
    Model model;
    std::string arm;
    CostConstants host;
  };
  std::vector<Fit> fits;
  struct Row {
    std::size_t batch;
    std::string arm;
    std::string device;  ///< "host (fitted)" or a profile name
    double predicted;
    double measured;  ///< < 0: modelled only
  };
  std::vector<Row> rows;
};

/// Each sample's finish step: the batch's lengths, which its end times stop exactly.
inline std::vector<std::int64_t> finish_steps(const BatchSpec& b) {
  const std::vector<double> lengths = lengths_of(b);
  return std::vector<std::int64_t>(lengths.begin(), lengths.end());
}

/// A sample's row of planes (state and bookkeeping), as compaction swaps it.
inline std::int64_t bytes_per_row(Model model) {
  return model == Model::lorenz
             ? eagle::detail::RowPlanes<double, kernels::Lorenz::state_count, Kokkos::HostSpace>::bytes_per_row
             : eagle::detail::RowPlanes<double, kernels::OscillatorUntil::state_count,
                                        Kokkos::HostSpace>::bytes_per_row;
}

inline ModelReport model_report(const Results& r) {
  ModelReport m;
  std::map<std::pair<int, std::string>, std::vector<std::pair<RunFeatures, double>>> groups;
  for (const Cell& c : r.cells) {
    if (c.seconds.empty() || !arm_info(c.arm).modelled()) continue;
    groups[{static_cast<int>(r.batches[c.batch].model), c.arm}].push_back({c.last.features, c.median()});
  }
  std::map<std::pair<int, std::string>, CostConstants> fitted;
  for (const auto& [key, runs] : groups) {
    if (runs.size() < 3) continue;  // too few batches to fit three constants
    try {
      fitted[key] = fit_host_costs(runs);
      m.fits.push_back({static_cast<Model>(key.first), key.second, fitted[key]});
    } catch (const std::invalid_argument&) {
      // the runs do not determine the constants (e.g. one batch size only): no fit for this arm
    }
  }
  const auto auto_fit = [&](Model model) {
    const auto it = fitted.find({static_cast<int>(model), "auto"});
    return it == fitted.end() ? 0.0 : it->second.per_step;
  };
  const double oscillator_step = auto_fit(Model::oscillator);
  for (const Cell& c : r.cells) {
    if (c.seconds.empty() || !arm_info(c.arm).modelled()) continue;
    const Model model = r.batches[c.batch].model;
    const auto fit = fitted.find({static_cast<int>(model), c.arm});
    if (fit != fitted.end()) {
      m.rows.push_back({c.batch, c.arm, "host (fitted)", predict_host(c.last.features, fit->second), c.median()});
    }
    const double weight = oscillator_step > 0 && auto_fit(model) > 0 ? auto_fit(model) / oscillator_step : 1.0;
    const ArmInfo& arm = arm_info(c.arm);
    const std::vector<std::int64_t> finish =
        arm.per_sample_k() < 0 ? std::vector<std::int64_t>{} : finish_steps(r.batches[c.batch]);
    for (DeviceProfile p : gpu_profiles()) {
      if (arm.host_only && !p.host_tile) continue;
      p.lane_steps_per_second /= weight;
      // Eagle's own arms as eagle would run them there; the baselines as they ran here.
      const RunFeatures f = arm.per_sample_k() < 0 ? c.last.features
                                                   : replay_on(p, finish, max_steps, arm.per_sample_k(), arm.compacts,
                                                               bytes_per_row(model));
      m.rows.push_back({c.batch, c.arm, p.name, predict_device(f, p), -1});
    }
  }
  return m;
}

/// The model's fit on the host (relative error per measured arm) and the predicted winner per
/// batch on each GPU profile.
inline std::string model_table(const Results& r, const ModelReport& m) {
  std::ostringstream out;
  if (m.rows.empty()) return "cost model: no measured eagle run to model\n";
  char line[256];
  out << "cost model fitted per model and arm on the measured host runs (s a launch, s a sample-step, s a "
         "scanned slot):\n";
  for (const auto& f : m.fits) {
    std::snprintf(line, sizeof(line), "  %-10s %-15s %.3g  %.3g  %.3g\n",
                  f.model == Model::lorenz ? "lorenz" : "oscillator", f.arm.c_str(), f.host.per_launch, f.host.per_step,
                  f.host.per_scanned_slot);
    out << line;
  }
  out << "| Batch | Arm | measured | modelled on host | error |\n|---|---|---|---|---|\n";
  for (const auto& row : m.rows) {
    if (row.measured < 0) continue;
    std::snprintf(line, sizeof(line), "| %s | %s | %s | %s | %+.0f%% |\n", r.batches[row.batch].name().c_str(),
                  row.arm.c_str(), format_seconds(row.measured).c_str(), format_seconds(row.predicted).c_str(),
                  100.0 * (row.predicted - row.measured) / row.measured);
    out << line;
  }
  for (const DeviceProfile& p : gpu_profiles()) {
    out << "\nmodelled, not measured: " << p.name << " (" << p.source
        << ")\n| Batch | Fastest arm (modelled) | Closest rivals |\n|---|---|---|\n";
    for (std::size_t b = 0; b < r.batches.size(); ++b) {
      std::vector<const ModelReport::Row*> rows;
      for (const auto& row : m.rows) {
        if (row.batch == b && row.device == p.name) rows.push_back(&row);
      }
      if (rows.empty()) continue;
      std::stable_sort(rows.begin(), rows.end(), [](auto* x, auto* y) { return x->predicted < y->predicted; });
      out << "| " << r.batches[b].name() << " | " << rows[0]->arm << " " << format_seconds(rows[0]->predicted) << " | ";
      for (std::size_t i = 1; i < std::min<std::size_t>(3, rows.size()); ++i) {
        std::snprintf(line, sizeof(line), "%s%s %.2fx", i > 1 ? ", " : "", rows[i]->arm.c_str(),
                      rows[i]->predicted / rows[0]->predicted);
        out << line;
      }
      out << " |\n";
    }
  }
  return out.str();
}

inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof(esc), "\\u%04x", ch);
      out += esc;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

inline std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char text[40];
  std::snprintf(text, sizeof(text), "%.9g", x);
  return text;
}

/// The machine the numbers come from.
inline std::string machine_json(const Results& r) {
  const CacheSizes& c = host_caches();
  std::ostringstream out;
  out << "{\"execution_space\": " << json_string(r.execution_space) << ", \"ranks\": " << r.ranks
      << ", \"concurrency\": " << Kokkos::DefaultExecutionSpace().concurrency() << ", \"kokkos_version\": "
      << json_string(std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                     std::to_string(KOKKOS_VERSION % 100))
      << ", \"compiler\": " << json_string(__VERSION__) << ", \"hwloc\": {\"source\": " << json_string(c.source)
      << ", \"l1d_bytes\": " << c.l1d << ", \"l2_bytes\": " << c.l2 << ", \"l3_bytes\": " << c.l3
      << "}, \"lane_pack_width\": " << pack_width<double> << ", \"isa\": " << json_string(native_isa()) << "}";
  return out.str();
}

inline std::string to_json(const Results& r, const ModelReport* m) {
  std::ostringstream out;
  out << "{\n  \"schema\": \"eagle-simulate/1\",\n  \"machine\": " << machine_json(r)
      << ",\n  \"budget_seconds\": " << json_number(r.budget_seconds)
      << ",\n  \"elapsed_seconds\": " << json_number(r.elapsed_seconds) << ",\n  \"batches\": [";
  for (std::size_t b = 0; b < r.batches.size(); ++b) {
    const BatchSpec& spec = r.batches[b];
    const Cell* fastest = r.fastest(b);
    out << (b ? "," : "") << "\n    {\"name\": " << json_string(spec.name())
        << ", \"model\": " << json_string(spec.model == Model::lorenz ? "lorenz" : "oscillator")
        << ", \"n\": " << spec.n << ", \"spread\": " << spec.spread
        << ", \"fastest\": " << (fastest ? json_string(fastest->arm) : "null") << ", \"arms\": [";
    bool first = true;
    for (const Cell& c : r.cells) {
      if (c.batch != b) continue;
      out << (first ? "" : ",") << "\n      {\"arm\": " << json_string(c.arm)
          << ", \"measured\": " << (c.seconds.empty() ? "false" : "true");
      first = false;
      if (c.seconds.empty()) {
        out << ", \"skipped\": " << json_string(describe(c.skipped)) << "}";
        continue;
      }
      out << ", \"seconds\": [";
      for (std::size_t i = 0; i < c.seconds.size(); ++i) out << (i ? ", " : "") << json_number(c.seconds[i]);
      const RunFeatures& f = c.last.features;
      out << "], \"median_seconds\": " << json_number(c.median())
          << ", \"sample_steps\": " << json_number(f.sample_steps)
          << ", \"sample_steps_per_second\": " << json_number(f.sample_steps / c.median())
          << ", \"launches\": " << json_number(f.launches) << ", \"lane_steps\": " << json_number(f.lane_steps)
          << ", \"scanned_slots\": " << json_number(f.scanned_slots) << ", \"launches_by_k\": {";
      bool first_k = true;
      for (const auto& [k, count] : c.last.launches_by_k) {
        out << (first_k ? "" : ", ") << "\"" << k << "\": " << count;
        first_k = false;
      }
      out << "}";
      if (!c.last.launch_costs.empty()) out << ", \"launch_costs\": " << json_string(c.last.launch_costs);
      out << ", \"checksum\": " << c.last.checksum << "}";
    }
    out << "]}";
  }
  out << "\n  ]";
  if (m != nullptr && !m->rows.empty()) {
    out << ",\n  \"model\": {\"host_fits\": [";
    for (std::size_t i = 0; i < m->fits.size(); ++i) {
      const auto& f = m->fits[i];
      out << (i ? ", " : "") << "{\"model\": " << json_string(f.model == Model::lorenz ? "lorenz" : "oscillator")
          << ", \"arm\": " << json_string(f.arm) << ", \"per_launch\": " << json_number(f.host.per_launch)
          << ", \"per_step\": " << json_number(f.host.per_step)
          << ", \"per_scanned_slot\": " << json_number(f.host.per_scanned_slot) << "}";
    }
    out << "], \"profiles\": [";
    for (std::size_t i = 0; i < gpu_profiles().size(); ++i) {
      const DeviceProfile& p = gpu_profiles()[i];
      out << (i ? ", " : "") << "{\"name\": " << json_string(p.name) << ", \"source\": " << json_string(p.source)
          << "}";
    }
    out << "], \"rows\": [";
    for (std::size_t i = 0; i < m->rows.size(); ++i) {
      const auto& row = m->rows[i];
      out << (i ? "," : "") << "\n    {\"batch\": " << json_string(r.batches[row.batch].name())
          << ", \"arm\": " << json_string(row.arm) << ", \"device\": " << json_string(row.device)
          << ", \"kind\": " << json_string(row.measured < 0 ? "modelled" : "measured")
          << ", \"predicted_seconds\": " << json_number(row.predicted)
          << ", \"measured_seconds\": " << (row.measured < 0 ? "null" : json_number(row.measured)) << "}";
    }
    out << "]}";
  }
  out << "\n}\n";
  return out.str();
}

inline std::string to_csv(const Results& r) {
  std::ostringstream out;
  out << "batch,model,n,spread,arm,kind,repetitions,median_seconds,min_seconds,max_seconds,sample_steps_per_second,"
         "launches,fastest\n";
  for (const Cell& c : r.cells) {
    if (c.seconds.empty()) continue;
    const BatchSpec& b = r.batches[c.batch];
    const auto [lo, hi] = std::minmax_element(c.seconds.begin(), c.seconds.end());
    out << b.name() << "," << (b.model == Model::lorenz ? "lorenz" : "oscillator") << "," << b.n << "," << b.spread
        << "," << c.arm << ",measured," << c.seconds.size() << "," << json_number(c.median()) << "," << json_number(*lo)
        << "," << json_number(*hi) << "," << json_number(c.last.features.sample_steps / c.median()) << ","
        << json_number(c.last.features.launches) << "," << (r.fastest(c.batch) == &c ? "yes" : "no") << "\n";
  }
  return out.str();
}

/// One chart per batch, stacked: each arm's median over the fastest arm's (1 = fastest).
inline std::string times_svg(const Results& r) {
  std::vector<std::string> charts;
  for (std::size_t b = 0; b < r.batches.size(); ++b) {
    const auto cells = ranked(r, b);
    if (cells.empty()) continue;
    perf::BarChart chart{r.batches[b].name() + ": time over the fastest (" + cells[0]->arm + ", " +
                             format_seconds(cells[0]->median()) + ")",
                         "arm",
                         "median / fastest median",
                         {}};
    for (const Cell* c : cells) chart.bars.push_back({c->arm, c->median() / cells[0]->median()});
    charts.push_back(perf::to_svg(chart));
  }
  return perf::stack_svgs(charts);
}

/// Launches by K of the auto arm on each spread batch it ran.
inline std::string launches_svg(const Results& r) {
  std::vector<std::string> charts;
  for (const Cell& c : r.cells) {
    if (c.arm != "auto" || c.seconds.empty()) continue;
    perf::BarChart chart{r.batches[c.batch].name() + ": launches by K, steps=auto", "K", "launches", {}};
    for (const auto& [k, count] : c.last.launches_by_k)
      chart.bars.push_back({std::to_string(k), static_cast<double>(count)});
    charts.push_back(perf::to_svg(chart));
  }
  return perf::stack_svgs(charts);
}

}  // namespace eagle::simulate
