// A user's own model, run through eagle and checked against a plain serial loop; the version the
// package reported to CMake is checked against the one in <eagle/version.hpp>.

#include "decay.hpp"

#include <eagle/eagle.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstring>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = 1000;
  Kokkos::View<double*> y("y", n), lambda("lambda", n);
  Kokkos::deep_copy(y, 1.0);
  auto lambda_host = Kokkos::create_mirror_view(lambda);
  for (int i = 0; i < n; ++i) lambda_host(i) = decay_rate(i);
  Kokkos::deep_copy(lambda, lambda_host);

  const Decay model;
  const eagle::Report report =
      eagle::run_until_done(eagle::deploy(model, 8), eagle::state(y), eagle::inputs(lambda), 100000);

  auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  std::int64_t longest = 0;
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const DecayEnd expected = decay_reference(model, lambda_host(i));
    longest = expected.steps > longest ? expected.steps : longest;
    if (y_host(i) != expected.y) ++wrong;
  }
  const bool version_ok = std::strcmp(EAGLE_VERSION_STRING, EAGLE_CONSUMER_EXPECTED_VERSION) == 0;
  const bool ok = version_ok && wrong == 0 && report.finished == n && report.longest_sample_steps == longest;
  std::printf("eagle-consumer: %s; eagle %s (CMake said %s); %s; %d samples differ from the serial loop\n",
              ok ? "ok" : "FAILED", EAGLE_VERSION_STRING, EAGLE_CONSUMER_EXPECTED_VERSION, report.summary().c_str(),
              wrong);
  return ok ? 0 : 1;
}
