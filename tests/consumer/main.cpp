// A user's own model, run through eagle and checked against the closed form:
// y <- y (1 - lambda dt) until y < 1/2, i.e. after ceil(log(1/2) / log(1 - lambda dt)) steps.

#include <eagle/eagle.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>

struct Decay {
  static constexpr const char* name = "decay";
  using scalar_type = double;
  enum State : int { y, state_count };
  enum Input : int { lambda, input_count };
  double dt = 1e-2;

  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in) const {
    s[y] *= 1.0 - in[lambda] * dt;
    return s[y] < 0.5;
  }
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = 1000;
  Kokkos::View<double*> y("y", n), lambda("lambda", n);
  Kokkos::deep_copy(y, 1.0);
  auto lambda_host = Kokkos::create_mirror_view(lambda);
  for (int i = 0; i < n; ++i) lambda_host(i) = 0.5 + 0.01 * i;
  Kokkos::deep_copy(lambda, lambda_host);

  const Decay model;
  const eagle::Report report =
      eagle::run_until_done(eagle::deploy(model, 8), eagle::state(y), eagle::inputs(lambda), 100000);

  auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  long long longest = 0;
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const double factor = 1.0 - lambda_host(i) * model.dt;
    long long steps = 0;
    double expected = 1.0;
    while (!(expected < 0.5)) {
      expected *= factor;
      ++steps;
    }
    longest = steps > longest ? steps : longest;
    if (y_host(i) != expected) ++wrong;
  }
  const bool ok = wrong == 0 && report.finished == n && report.longest_sample_steps == longest;
  std::printf("eagle-consumer: %s; %s; %d samples differ from the serial loop\n", ok ? "ok" : "FAILED",
              report.summary().c_str(), wrong);
  return ok ? 0 : 1;
}
