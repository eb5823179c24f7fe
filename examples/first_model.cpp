// The README's first model: exponential decay at a rate per sample, run until y < 0.5, then read
// sample by sample and checked against a plain loop with the same arithmetic; then the same batch
// at a fixed K = 8 (the guide's first example). Exits non-zero unless every sample agrees.
// The regions between `[snippet NAME]` and `[snippet end]` are the guide's code, checked by
// tests/docs/check_snippets.py: change them here and the pages must follow.
//
//   ./eagle-example-first_model [samples]

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>

// [snippet model]
#include <eagle/eagle.hpp>

struct Decay {
  static constexpr const char* name = "decay";  // launches are labelled eagle::decay[K=...]
  using scalar_type = double;
  enum State : int { y, state_count };       // per-sample mutable state
  enum Input : int { lambda, input_count };  // per-sample read-only inputs
  double dt = 1e-2;                          // a uniform parameter

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in) const {
    s[y] *= 1.0 - in[lambda] * dt;
    return s[y] < 0.5;  // terminated
  }
};
// [snippet end]

namespace {

/// Rates from 0.5 to 50.5 per unit time: from 1 step to about 140 before y < 0.5.
KOKKOS_INLINE_FUNCTION double rate(std::int64_t i) { return 0.5 + static_cast<double>(i % 101) * 0.5; }

// [snippet reference]
/// The plain loop: y and the steps taken, with the model's arithmetic.
struct Reference {
  double y = 1.0;
  std::int64_t steps = 0;
};
Reference reference(const Decay& model, double lambda) {
  Reference r;
  do {
    r.y *= 1.0 - lambda * model.dt;
    ++r.steps;
  } while (!(r.y < 0.5));
  return r;
}
// [snippet end]

/// Samples whose y or steps taken differ from the plain loop.
std::int64_t disagreeing(const Kokkos::View<double*>& y, const Kokkos::View<std::int64_t*>& steps) {
  const auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const auto steps_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), steps);
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < y_host.extent_int(0); ++i) {
    const Reference r = reference(Decay{}, rate(i));
    wrong += y_host(i) != r.y || steps_host(i) != r.steps ? 1 : 0;
  }
  return wrong;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 1000;
  if (n < 1) {
    std::fprintf(stderr, "usage: %s [samples > 0]\n", argv[0]);
    return 2;
  }
  // [snippet planes]
  Kokkos::View<double*> y("y", n), lambda("lambda", n);  // one plane per field, filled by you
  // [snippet end]
  const auto fill = [&] {
    Kokkos::deep_copy(y, 1.0);
    Kokkos::parallel_for(
        "rates", n, KOKKOS_LAMBDA(const std::int64_t i) { lambda(i) = rate(i); });
  };
  fill();
  // [snippet run]
  const auto out = eagle::outcomes(n);  // per sample: terminated, status, steps taken
  const eagle::Report report =
      eagle::run_until_done(eagle::deploy(Decay{}), eagle::state(y), eagle::inputs(lambda), out, /*max_steps=*/100000);
  std::cout << report.summary() << "\n";  // launches, steps, exact_steps; report.launches_by_k too
  // [snippet end]
  std::int64_t wrong = disagreeing(y, out.steps_taken);

  fill();
  // [snippet run-k8]
  const auto fixed = eagle::outcomes(n);
  const eagle::Report k8 = eagle::run_until_done(Kokkos::DefaultExecutionSpace(), eagle::deploy(Decay{}, /*K=*/8),
                                                 eagle::state(y), eagle::inputs(lambda), fixed, /*max_steps=*/100000);
  std::cout << k8.summary() << "\n";  // K = 8: every launch 8 steps, samples stop at their own step
  // [snippet end]
  wrong += disagreeing(y, fixed.steps_taken);
  std::printf("%lld of %lld samples differ from the plain loop\n", static_cast<long long>(wrong),
              static_cast<long long>(n));
  return wrong == 0 && report.finished == n && k8.finished == n ? 0 : 1;
}
