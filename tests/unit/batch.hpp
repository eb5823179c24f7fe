#pragma once
// Test helpers: planes filled from host vectors, copied back, and a plain serial reference run.

#include <eagle/eagle.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace eagle::test {

/// Host copy of a batch's planes: state[f][i], inputs[f][i], terminated[i].
struct HostBatch {
  std::vector<std::vector<double>> state;
  std::vector<std::vector<double>> inputs;
  std::vector<bool> terminated;
};

/// A rank-1 View in `Space`'s memory holding `values`.
template <class Space>
Kokkos::View<double*, typename Space::memory_space> plane(const std::string& label, const std::vector<double>& values) {
  Kokkos::View<double*, typename Space::memory_space> view(label, values.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < values.size(); ++i) host(i) = values[i];
  Kokkos::deep_copy(view, host);
  return view;
}

template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& view) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  return std::vector<typename View::non_const_value_type>(host.data(), host.data() + host.extent(0));
}

/// A fresh folder for one test's checkpoint files.
inline std::string scratch_folder() {
  std::string pattern =
      (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) + "/eagle-checkpoint-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

/// The bit patterns of planes of doubles, so that NaN compares equal to itself.
inline std::vector<std::vector<std::uint64_t>> bits(const std::vector<std::vector<double>>& planes) {
  std::vector<std::vector<std::uint64_t>> out;
  for (const auto& p : planes) {
    out.emplace_back(p.size());
    if (!p.empty()) std::memcpy(out.back().data(), p.data(), p.size() * sizeof(double));
  }
  return out;
}

/// The reference: each sample alone, step after step, until it terminates or takes max_steps
/// (its context: its index and step number). `batch` is advanced in place; returns each sample's
/// step count and status code (capped: still running at max_steps; non-finite: a state ended NaN
/// or infinite, though a run stops such a sample only at the end of its launch).
struct ReferenceOutcome {
  std::vector<std::int64_t> steps;
  std::vector<std::uint8_t> status;
};

template <class Model>
ReferenceOutcome reference_run(const Model& model, HostBatch& batch, std::int64_t max_steps) {
  constexpr int NS = ModelTraits<Model>::state_count;
  constexpr int NI = ModelTraits<Model>::input_count;
  const std::size_t n = batch.state[0].size();
  ReferenceOutcome out{std::vector<std::int64_t>(n, 0), std::vector<std::uint8_t>(n, status::running)};
  for (std::size_t i = 0; i < n; ++i) {
    Values<double, NS> s;
    Values<double, NI> in;
    for (int f = 0; f < NS; ++f) s[f] = batch.state[f][i];
    for (int f = 0; f < NI; ++f) in[f] = batch.inputs[f][i];
    std::uint8_t code = batch.terminated[i] ? status::finished : status::running;
    while (code == status::running && out.steps[i] < max_steps) {
      code = detail::outcome(detail::take_step(model, s, static_cast<const Values<double, NI>&>(in),
                                               static_cast<std::int64_t>(i), out.steps[i]));
      ++out.steps[i];
    }
    for (int f = 0; f < NS; ++f) batch.state[f][i] = s[f];
    code = detail::check_finite(s, code);
    batch.terminated[i] = code != status::running;
    out.status[i] = code == status::running ? status::capped : code;
  }
  return out;
}

}  // namespace eagle::test
