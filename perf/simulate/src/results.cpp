// The out-of-line parts of eagle/simulate/results.hpp.

#include <eagle/simulate/results.hpp>

#include <eagle/kernels/spread_batches.hpp>

#include <algorithm>

namespace eagle::simulate {

std::vector<double> lengths_of(const BatchSpec& b) {
  if (b.model == Model::lorenz) return std::vector<double>(static_cast<std::size_t>(b.n), lorenz_steps);
  if (b.spread == 1) return std::vector<double>(static_cast<std::size_t>(b.n), uniform_steps);
  return kernels::sample_lengths(static_cast<kernels::Spread>(b.spread), b.n, 1.0, 11);
}

const char* describe(Skip s) {
  switch (s) {
    case Skip::none:
      return "";
    case Skip::other_model:
      return "not an arm for this model";
    case Skip::host_only:
      return "host execution spaces only";
    case Skip::no_odeint:
      return "built without Boost.Odeint and OpenMP";
    case Skip::out_of_time:
      return "the time budget ran out";
  }
  return "?";
}

double Cell::median() const {
  if (seconds.empty()) return -1;
  std::vector<double> t = seconds;
  std::sort(t.begin(), t.end());
  return t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
}

const Cell* Results::fastest(std::size_t b) const {
  const Cell* best = nullptr;
  for (const Cell& c : cells) {
    if (c.batch == b && !c.seconds.empty() && (best == nullptr || c.median() < best->median())) best = &c;
  }
  return best;
}

}  // namespace eagle::simulate
