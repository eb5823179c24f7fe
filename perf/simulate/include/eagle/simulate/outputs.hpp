#pragma once
// What eagle-simulate shows and writes: the seed's table (batch, fastest arm, closest rivals),
// JSON with every measurement and the machine (schema: simulate.schema.json), CSV, SVG charts, and
// the cost model's fit and predictions, each row marked measured or modelled.

#include <eagle/simulate/results.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace eagle::simulate {

/// A time as the tables show it: "12.3 us", "4.56 ms", "1.23 s".
std::string format_seconds(double s);

/// The seed's table: for each batch the fastest arm (median) and its two closest rivals as ratios.
std::string table(const Results& r);

/// Sample-steps per second of every arm on the Lorenz peer batches (Boost.Odeint against eagle).
std::string peer_table(const Results& r);

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

/// Fits the host constants to the measured runs and predicts every modelled arm on each GPU profile.
ModelReport model_report(const Results& r);

/// The model's fit on the host (relative error per measured arm) and the predicted winner per
/// batch on each GPU profile.
std::string model_table(const Results& r, const ModelReport& m);

/// One row per measured arm and batch: repetitions, median, range, rate, launches, fastest or not.
std::string to_csv(const Results& r);

/// One chart per batch, stacked: each arm's median over the fastest arm's (1 = fastest).
std::string times_svg(const Results& r);

/// Launches by K of the auto arm on each spread batch it ran.
std::string launches_svg(const Results& r);

/// Everything measured (and, given, the model), as the JSON documented by simulate.schema.json.
std::string to_json(const Results& r, const ModelReport* m);

}  // namespace eagle::simulate
