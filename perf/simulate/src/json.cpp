// eagle-simulate's JSON (schema: simulate.schema.json) through nlohmann::json, which escapes
// strings and writes non-finite numbers as null; keys keep the schema's order for readers.

#include <eagle/simulate/outputs.hpp>

#include <eagle/eagle.hpp>

#include <Kokkos_Core.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace eagle::simulate {

namespace {

using Json = nlohmann::ordered_json;

const char* model_name(Model m) { return m == Model::lorenz ? "lorenz" : "oscillator"; }

/// The machine the numbers come from.
Json machine(const Results& r) {
  const CacheSizes& c = host_caches();
  return {{"execution_space", r.execution_space},
          {"ranks", r.ranks},
          {"concurrency", Kokkos::DefaultExecutionSpace().concurrency()},
          {"kokkos_version", std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) +
                                 "." + std::to_string(KOKKOS_VERSION % 100)},
          {"compiler", __VERSION__},
          {"hwloc", {{"source", c.source}, {"l1d_bytes", c.l1d}, {"l2_bytes", c.l2}, {"l3_bytes", c.l3}}},
          {"lane_pack_width", pack_width<double>},
          {"isa", native_isa()}};
}

/// One arm on one batch: every timing and what the last run did, or why it was not measured.
Json cell(const Cell& c) {
  Json j = {{"arm", c.arm}, {"measured", !c.seconds.empty()}};
  if (c.seconds.empty()) {
    j["skipped"] = describe(c.skipped);
    return j;
  }
  const RunFeatures& f = c.last.features;
  j["seconds"] = c.seconds;
  j["median_seconds"] = c.median();
  j["sample_steps"] = f.sample_steps;
  j["sample_steps_per_second"] = f.sample_steps / c.median();
  j["launches"] = f.launches;
  j["lane_steps"] = f.lane_steps;
  j["scanned_slots"] = f.scanned_slots;
  Json by_k = Json::object();
  for (const auto& [k, count] : c.last.launches_by_k) by_k[std::to_string(k)] = count;
  j["launches_by_k"] = by_k;
  if (!c.last.launch_costs.empty()) j["launch_costs"] = c.last.launch_costs;
  j["checksum"] = c.last.checksum;
  return j;
}

Json batches(const Results& r) {
  Json all = Json::array();
  for (std::size_t b = 0; b < r.batches.size(); ++b) {
    const BatchSpec& spec = r.batches[b];
    const Cell* fastest = r.fastest(b);
    Json arms = Json::array();
    for (const Cell& c : r.cells) {
      if (c.batch == b) arms.push_back(cell(c));
    }
    all.push_back({{"name", spec.name()},
                   {"model", model_name(spec.model)},
                   {"n", spec.n},
                   {"spread", spec.spread},
                   {"fastest", fastest ? Json(fastest->arm) : Json(nullptr)},
                   {"arms", arms}});
  }
  return all;
}

Json model(const Results& r, const ModelReport& m) {
  Json fits = Json::array();
  for (const auto& f : m.fits) {
    fits.push_back({{"model", model_name(f.model)},
                    {"arm", f.arm},
                    {"per_launch", f.host.per_launch},
                    {"per_step", f.host.per_step},
                    {"per_scanned_slot", f.host.per_scanned_slot}});
  }
  Json profiles = Json::array();
  for (const DeviceProfile& p : gpu_profiles()) profiles.push_back({{"name", p.name}, {"source", p.source}});
  Json rows = Json::array();
  for (const auto& row : m.rows) {
    rows.push_back({{"batch", r.batches[row.batch].name()},
                    {"arm", row.arm},
                    {"device", row.device},
                    {"kind", row.measured < 0 ? "modelled" : "measured"},
                    {"predicted_seconds", row.predicted},
                    {"measured_seconds", row.measured < 0 ? Json(nullptr) : Json(row.measured)}});
  }
  return {{"host_fits", fits}, {"profiles", profiles}, {"rows", rows}};
}

}  // namespace

std::string to_json(const Results& r, const ModelReport* m) {
  Json j = {{"schema", "eagle-simulate/1"},
            {"machine", machine(r)},
            {"budget_seconds", r.budget_seconds},
            {"elapsed_seconds", r.elapsed_seconds},
            {"batches", batches(r)}};
  if (m != nullptr && !m->rows.empty()) j["model"] = model(r, *m);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace eagle::simulate
