// A stochastic SIR epidemic (Gillespie: one infection or recovery a step) over a sweep of R0,
// every sample with its own random stream, read by outcome: epidemics that died out (finished)
// against those still going at the step cap (capped).
//
//   ./eagle-example-epidemic [samples]

#include <eagle/eagle.hpp>
#include <eagle/thread_binding.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

// [snippet model]
#include <eagle/kernels/counter_rng.hpp>

struct Epidemic {
  static constexpr const char* name = "sir";
  using scalar_type = double;
  enum State : int { susceptible, infected, recovered, time, state_count };
  enum Input : int { r0, input_count };
  double population;     // N, the same for every sample
  double recovery_rate;  // gamma: R0 = beta / gamma
  std::uint64_t seed;

  // The step draws its numbers from (seed, sample, step): the same epidemic for any K, loop nest
  // or backend, and after a resume.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in, const eagle::StepContext& at) const {
    eagle::kernels::RandomStream random(seed, static_cast<std::uint64_t>(at.sample),
                                        static_cast<std::uint64_t>(at.step));
    const double infect = in[r0] * recovery_rate * s[susceptible] * s[infected] / population;
    const double recover = recovery_rate * s[infected];
    const double total = infect + recover;
    s[time] += random.exponential(total);
    const bool infection = random.uniform() * total < infect;
    s[susceptible] -= infection ? 1.0 : 0.0;
    s[infected] += infection ? 1.0 : -1.0;
    s[recovered] += infection ? 0.0 : 1.0;
    return s[infected] == 0.0;  // the epidemic is over
  }
};
// [snippet end]

int main(int argc, char* argv[]) {
  eagle::bind_threads_by_default(argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const long n = argc > 1 ? std::atol(argv[1]) : 20000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [samples > 0]\n", argv[0]);
    return 2;
  }
  using View = Kokkos::View<double*>;
  const double population = 1000.0;
  View r0("R0", n);
  Kokkos::parallel_for(
      "R0", n, KOKKOS_LAMBDA(const long k) { r0(k) = 0.5 + 2.5 * static_cast<double>(k % 100) / 99.0; });  // 0.5 to 3
  const auto one_infected = [&](View s, View i, View r, View t) {
    Kokkos::parallel_for(
        "start", n, KOKKOS_LAMBDA(const long k) { s(k) = population - 1.0, i(k) = 1.0, r(k) = 0.0, t(k) = 0.0; });
  };
  View s("S", n), i("I", n), r("R", n), t("t", n);
  one_infected(s, i, r, t);

  // At most 2000 events: the largest outbreaks (up to 2N events) are stopped there, capped.
  const auto out = eagle::outcomes(n);
  const eagle::Report report = eagle::run_until_done(eagle::deploy(Epidemic{population, 0.1, 2026}),
                                                     eagle::state(s, i, r, t), eagle::inputs(r0), out, 2000);
  std::printf("%s\n%lld sample-steps in %.3f s (probe %.3f s)\n", report.summary().c_str(),
              static_cast<long long>(report.sample_steps), report.seconds, report.probe_seconds);

  // Split the batch by outcome, on the host: mean outbreak size of the epidemics that ended.
  // [snippet outcomes]
  const auto status = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.status);
  const auto steps = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.steps_taken);
  // [snippet end]
  const auto recovered = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
  const auto r0_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r0);
  std::printf("R0 band   ended  capped  mean size of those that ended  mean events\n");
  for (int band = 0; band < 5; ++band) {
    long ended = 0, capped = 0, events = 0;
    double size = 0.0;
    for (long k = 0; k < n; ++k) {
      if (static_cast<int>((r0_host(k) - 0.5) / 0.5001) != band) continue;
      events += steps(k);
      if (status(k) == eagle::status::finished) ++ended, size += recovered(k);
      if (status(k) == eagle::status::capped) ++capped;
    }
    std::printf("%.1f-%.1f  %6ld  %6ld  %29.1f  %11.1f\n", 0.5 + 0.5 * band, 1.0 + 0.5 * band, ended, capped,
                ended > 0 ? size / static_cast<double>(ended) : 0.0,
                static_cast<double>(events) / static_cast<double>(std::max(1L, ended + capped)));
  }

  // The same epidemics scheduled another way: an eighth of the batch in flight, each sample that
  // ends handing its slot to one not yet started. The streams are keyed by sample and step, not by
  // slot, so every epidemic draws the same numbers and ends the same.
  View s2("S", n), i2("I", n), r2("R", n), t2("t", n);
  one_infected(s2, i2, r2, t2);
  // [snippet revival]
  eagle::RunOptions options;
  options.in_flight = std::max(1L, n / 8);  // revival: unstarted samples stream into freed slots
  const auto streamed_out = eagle::outcomes(n);
  const eagle::Report streamed =
      eagle::run_until_done(eagle::deploy(Epidemic{population, 0.1, 2026}), eagle::state(s2, i2, r2, t2),
                            eagle::inputs(r0), streamed_out, 2000, options);
  std::printf("%s, %lld samples revived\n", streamed.summary().c_str(), static_cast<long long>(streamed.revived));
  // [snippet end]
  long differ = 0;
  Kokkos::parallel_reduce(
      "compare", n,
      KOKKOS_LAMBDA(const long k, long& d) {
        d += r(k) == r2(k) && t(k) == t2(k) && out.steps_taken(k) == streamed_out.steps_taken(k) ? 0 : 1;
      },
      differ);
  std::printf("%ld epidemics differ between the two schedules\n", differ);

  // Every sample either ended or was capped: nothing failed, nothing was left running.
  return report.failed == 0 && report.finished + report.unfinished == n && differ == 0 && streamed.revived > 0 ? 0 : 1;
}
