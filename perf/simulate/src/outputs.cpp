// eagle-simulate's tables, CSV and SVG charts, and the cost model's report
// (declared in eagle/simulate/outputs.hpp).

#include <eagle/simulate/outputs.hpp>

#include <plots/bar_chart.hpp>

#include <eagle/eagle.hpp>
#include <eagle/kernels/lorenz.hpp>
#include <eagle/kernels/oscillator.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace eagle::simulate {

namespace {

/// The cells of batch b that were measured, fastest first.
std::vector<const Cell*> ranked(const Results& r, std::size_t b) {
  std::vector<const Cell*> cells;
  for (const Cell& c : r.cells) {
    if (c.batch == b && !c.seconds.empty()) cells.push_back(&c);
  }
  std::stable_sort(cells.begin(), cells.end(), [](const Cell* x, const Cell* y) { return x->median() < y->median(); });
  return cells;
}

/// Each sample's finish step: the batch's lengths, which its end times stop exactly.
std::vector<std::int64_t> finish_steps(const BatchSpec& b) {
  const std::vector<double> lengths = lengths_of(b);
  return std::vector<std::int64_t>(lengths.begin(), lengths.end());
}

/// A sample's row of planes (state and bookkeeping), as compaction swaps it.
std::int64_t bytes_per_row(Model model) {
  return model == Model::lorenz
             ? eagle::detail::RowPlanes<double, kernels::Lorenz::state_count, Kokkos::HostSpace>::bytes_per_row
             : eagle::detail::RowPlanes<double, kernels::OscillatorUntil::state_count,
                                        Kokkos::HostSpace>::bytes_per_row;
}

/// A number as the CSV holds it (as many digits as a measurement has).
std::string csv_number(double x) {
  if (!std::isfinite(x)) return "null";
  char text[40];
  std::snprintf(text, sizeof(text), "%.9g", x);
  return text;
}

}  // namespace

std::string format_seconds(double s) {
  char text[32];
  if (s < 1e-3)
    std::snprintf(text, sizeof(text), "%.1f us", s * 1e6);
  else if (s < 1.0)
    std::snprintf(text, sizeof(text), "%.2f ms", s * 1e3);
  else
    std::snprintf(text, sizeof(text), "%.2f s", s);
  return text;
}

std::string table(const Results& r) {
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

std::string peer_table(const Results& r) {
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

ModelReport model_report(const Results& r) {
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

std::string model_table(const Results& r, const ModelReport& m) {
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

std::string to_csv(const Results& r) {
  std::ostringstream out;
  out << "batch,model,n,spread,arm,kind,repetitions,median_seconds,min_seconds,max_seconds,sample_steps_per_second,"
         "launches,fastest\n";
  for (const Cell& c : r.cells) {
    if (c.seconds.empty()) continue;
    const BatchSpec& b = r.batches[c.batch];
    const auto [lo, hi] = std::minmax_element(c.seconds.begin(), c.seconds.end());
    out << b.name() << "," << (b.model == Model::lorenz ? "lorenz" : "oscillator") << "," << b.n << "," << b.spread
        << "," << c.arm << ",measured," << c.seconds.size() << "," << csv_number(c.median()) << "," << csv_number(*lo)
        << "," << csv_number(*hi) << "," << csv_number(c.last.features.sample_steps / c.median()) << ","
        << csv_number(c.last.features.launches) << "," << (r.fastest(c.batch) == &c ? "yes" : "no") << "\n";
  }
  return out.str();
}

std::string times_svg(const Results& r) {
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

std::string launches_svg(const Results& r) {
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
