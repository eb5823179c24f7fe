#pragma once
// The arms a model's test runs under on TestSpace (k=1, a fixed K and auto per sample; on a
// host space the tile too), device planes for a host batch, and a run against the serial
// reference loop.

#include "batch.hpp"
#include "eagle_test_space.hpp"

#include <eagle/eagle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace eagle::test {

using Mem = TestSpace::memory_space;
using Plane = Kokkos::View<double*, Mem>;

struct Arm {
  Steps steps;
  LoopNest nest;
};

inline std::vector<Arm> arms() {
  std::vector<Arm> all{{Steps::fixed(1), LoopNest::per_sample},
                       {Steps::fixed(7), LoopNest::per_sample},
                       {Steps::automatic(), LoopNest::per_sample}};
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
    all.push_back({Steps::fixed(7), LoopNest::tile});
    all.push_back({Steps::automatic(), LoopNest::tile});
  }
  return all;
}

inline std::string arm_name(const ::testing::TestParamInfo<Arm>& info) {
  const std::string k =
      info.param.steps.kind() == Steps::Kind::automatic ? "auto" : "k" + std::to_string(info.param.steps.k());
  return k + (info.param.nest == LoopNest::tile ? "_tile" : "_per_sample");
}

/// "s0", "in3", ...: appended, not `"s" + std::string`, on which GCC 12 in C++20 mode warns falsely
/// (-Wrestrict).
inline std::string numbered(const char* prefix, std::size_t f) { return std::string(prefix).append(std::to_string(f)); }

/// Device planes for a host batch, run under an arm, and read back.
template <class Model>
struct Planes {
  explicit Planes(const HostBatch& host) {
    for (std::size_t f = 0; f < host.state.size(); ++f)
      state_planes.push_back(plane<TestSpace>(numbered("s", f), host.state[f]));
    for (std::size_t f = 0; f < host.inputs.size(); ++f)
      input_planes.push_back(plane<TestSpace>(numbered("in", f), host.inputs[f]));
  }
  template <std::size_t... S, std::size_t... I>
  Report run(const Model& model, const Arm& arm, std::int64_t max_steps, const RunOptions& options,
             std::index_sequence<S...>, std::index_sequence<I...>) {
    if constexpr (sizeof...(I) == 0)
      return run_until_done(TestSpace(), deploy(model, arm.steps, arm.nest), state(state_planes[S]...), no_inputs,
                            max_steps, options);
    else
      return run_until_done(TestSpace(), deploy(model, arm.steps, arm.nest), state(state_planes[S]...),
                            inputs(input_planes[I]...), max_steps, options);
  }
  Report run(const Model& model, const Arm& arm, std::int64_t max_steps, const RunOptions& options = {}) {
    return run(model, arm, max_steps, options, std::make_index_sequence<Model::state_count>{},
               std::make_index_sequence<Model::input_count>{});
  }
  std::vector<std::vector<double>> state_now() const {
    std::vector<std::vector<double>> out;
    for (const auto& p : state_planes) out.push_back(to_host(p));
    return out;
  }
  std::vector<Plane> state_planes, input_planes;
};

/// Runs the arm and the serial reference loop on the same batch; expects bit-identical states.
template <class Model>
std::pair<Report, HostBatch> run_against_reference(const Model& model, const HostBatch& start, const Arm& arm,
                                                   std::int64_t max_steps) {
  Planes<Model> planes(start);
  const Report report = planes.run(model, arm, max_steps);
  HostBatch expected = start;
  const ReferenceOutcome reference = reference_run(model, expected, max_steps);
  EXPECT_EQ(bits(planes.state_now()), bits(expected.state)) << "state differs from the serial reference";
  EXPECT_EQ(report.longest_sample_steps, *std::max_element(reference.steps.begin(), reference.steps.end()));
  HostBatch after = start;
  after.state = planes.state_now();
  return {report, after};
}

inline std::vector<double> spread(std::size_t n, double a, double b) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = a + (b - a) * static_cast<double>(i) / static_cast<double>(n - 1);
  return v;
}

}  // namespace eagle::test
