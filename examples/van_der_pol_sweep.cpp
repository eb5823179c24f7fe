// Van der Pol's oscillator over a sweep of mu, integrated by eagle's steppers from a right-hand
// side written here: fixed-step RK4, and Tsitouras 5(4) and Dormand-Prince 5(4) with error control
// per sample (larger mu, stiffer cycle, more steps), then every sample's trajectory saved at 100
// times, then each sample stopped where x first falls through zero (an event). Exits non-zero
// unless the three agree, every time was saved, and the two adaptive steppers place every event
// alike, on x = 0.
//
//   ./eagle-example-van_der_pol_sweep [samples]

#include <eagle/eagle.hpp>
#include <eagle/ode/events.hpp>
#include <eagle/ode/saving.hpp>
#include <eagle/ode/steppers.hpp>
#include <eagle/thread_binding.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

// The user's system: x'' - mu (1 - x^2) x' + x = 0 as y = (x, x'), mu per sample.
// [snippet system]
struct VanDerPol {
  static constexpr const char* name = "van_der_pol";  // kernel labels, checkpoints
  static constexpr int state_count = 2;               // N: y[0] .. y[N-1]
  static constexpr int parameter_count = 1;           // P: per-sample inputs p[0] .. p[P-1]
  template <class V>                                  // double, or a lane pack on the host tile
  KOKKOS_INLINE_FUNCTION void operator()(const V& /*t*/, const eagle::Values<V, 2>& y, const eagle::Values<V, 1>& mu,
                                         eagle::Values<V, 2>& dy) const {
    dy[0] = y[1];
    dy[1] = mu[0] * (1.0 - y[0] * y[0]) * y[1] - y[0];
  }
};
// [snippet end]

// [snippet event]
/// The condition of an event: x through zero.
struct XThroughZero {
  KOKKOS_INLINE_FUNCTION double operator()(double /*t*/, const eagle::Values<double, 2>& y,
                                           const eagle::Values<double, 1>& /*mu*/) const {
    return y[0];
  }
};
// [snippet end]

using View = Kokkos::View<double*>;

/// Where a run left the samples: x and t.
struct Ends {
  View x, t;
};

/// Runs `model` on the sweep from (x, x') = (2, 0) at t = 0.
template <class Model>
Ends integrate(const Model& model, const View& mu, const char* label) {
  const auto n = static_cast<long>(mu.extent(0));
  View x("x", n), v("v", n), t("t", n), h("h", n), next_save("next_save", n);
  Kokkos::deep_copy(x, 2.0);
  // [snippet planes]
  const auto planes = [&] {
    if constexpr (Model::state_count == 3)
      return eagle::state(x, v, t);  // fixed steps: y, t
    else if constexpr (Model::state_count == 4)
      return eagle::state(x, v, t, h);  // adaptive: y, t, h (0: a first guess)
    else
      return eagle::state(x, v, t, h, next_save);  // saving: and the next save time's index
  }();
  // [snippet end]
  // [snippet run]
  const eagle::Report report = eagle::run_until_done(eagle::deploy(model), planes, eagle::inputs(mu), 10000000);
  // [snippet end]
  std::printf("%-14s %9lld sample-steps in %.3f s, %lld finished, %lld failed\n", label,
              static_cast<long long>(report.sample_steps), report.seconds, static_cast<long long>(report.finished),
              static_cast<long long>(report.failed));
  if (report.finished != n) std::exit(1);
  return {x, t};
}

/// A host copy of a View.
View::HostMirror on_host(const View& v) { return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v); }

int main(int argc, char* argv[]) {
  eagle::bind_threads_by_default(argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const long n = argc > 1 ? std::atol(argv[1]) : 10000;
  if (n <= 1) {
    std::fprintf(stderr, "usage: %s [samples > 1]\n", argv[0]);
    return 2;
  }
  View mu("mu", n);
  Kokkos::parallel_for(
      "sweep", n,
      KOKKOS_LAMBDA(const long k) { mu(k) = 0.1 + 4.9 * static_cast<double>(k) / static_cast<double>(n - 1); });

  // [snippet steppers]
  const double t_end = 10.0;
  eagle::ode::Rk4<VanDerPol> rk4;  // fixed steps: state (x, x', t)
  rk4.dt = 1e-3, rk4.t_end = t_end;
  eagle::ode::Tsit5<VanDerPol> tsit5;  // adaptive: state (x, x', t, h), h = 0 for a first guess
  eagle::ode::Dopri5<VanDerPol> dopri5;
  tsit5.t_end = dopri5.t_end = t_end;
  tsit5.rtol = dopri5.rtol = 1e-8;
  tsit5.atol = dopri5.atol = 1e-10;
  // [snippet end]

  const auto a = on_host(integrate(rk4, mu, "rk4").x);
  const auto b = on_host(integrate(tsit5, mu, "tsit5").x);
  const auto c = on_host(integrate(dopri5, mu, "dopri5").x);
  double worst = 0.0;
  for (long k = 0; k < n; ++k) worst = std::fmax(worst, std::fmax(std::fabs(b(k) - a(k)), std::fabs(c(k) - a(k))));
  std::printf("x(%g): the adaptive steppers within %.2e of RK4 (dt 1e-3) on every sample\n", t_end, worst);

  // Every sample's trajectory at 100 times from 0 to t_end (samples x times x (x, x')), as CSV.
  // [snippet saving]
  Kokkos::View<double***> out("trajectories", n, 100, 2);  // samples x times x (x, x')
  Kokkos::deep_copy(out, std::nan(""));
  const auto saving = eagle::ode::save_at(tsit5, out, 0.0, t_end / 99);  // t = 0, t_end / 99, ..., t_end
  // [snippet end]
  const auto end = on_host(integrate(saving, mu, "tsit5 saving").x);
  const auto saved = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const auto mu_host = on_host(mu);
  std::FILE* csv = std::fopen("van_der_pol_trajectories.csv", "w");
  if (csv == nullptr) {
    std::fprintf(stderr, "cannot write van_der_pol_trajectories.csv here\n");
    return 1;
  }
  std::fprintf(csv, "mu,t,x,dxdt\n");
  long unsaved = 0, not_at_end = 0;
  for (long k = 0; k < n; ++k) {
    for (int j = 0; j < 100; ++j) {
      unsaved += std::isnan(saved(k, j, 0)) ? 1 : 0;
      not_at_end += j == 99 && saved(k, j, 0) != end(k) ? 1 : 0;
      if (k % (n / 4 + 1) == 0)
        std::fprintf(csv, "%g,%g,%.10g,%.10g\n", mu_host(k), j * (t_end / 99), saved(k, j, 0), saved(k, j, 1));
    }
  }
  std::fclose(csv);
  std::printf("wrote van_der_pol_trajectories.csv; %ld slots never reached, %ld last slots unlike x(t_end)\n", unsaved,
              not_at_end);

  // Each sample stopped where x first falls through zero, located inside the step to 1e-10 in t.
  // [snippet stop]
  const auto swing = eagle::ode::stop_when(tsit5, XThroughZero{}, eagle::ode::Crossing::falling);
  // [snippet end]
  const Ends by_tsit5 = integrate(swing, mu, "tsit5 event");
  const Ends by_dopri5 =
      integrate(eagle::ode::stop_when(dopri5, XThroughZero{}, eagle::ode::Crossing::falling), mu, "dopri5 event");
  const auto x_event = on_host(by_tsit5.x), t_event = on_host(by_tsit5.t), t_other = on_host(by_dopri5.t);
  long misplaced = 0;
  for (long k = 0; k < n; ++k) {
    misplaced +=
        x_event(k) <= 0.0 && x_event(k) > -1e-8 && t_event(k) < t_end && std::fabs(t_event(k) - t_other(k)) < 1e-6 ? 0
                                                                                                                   : 1;
  }
  std::printf("x first through zero at t = %.6f (mu %.1f) ... %.6f (mu %.1f); %ld events misplaced\n", t_event(0),
              mu_host(0), t_event(n - 1), mu_host(n - 1), misplaced);
  return worst < 1e-5 && unsaved == 0 && not_at_end == 0 && misplaced == 0 ? 0 : 1;
}
