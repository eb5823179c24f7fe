// A parameter sweep of a damped, driven pendulum with an adaptive step (Heun-Euler 2(1)): each
// eagle step is one attempted step, accepted or rejected by its own error estimate. Samples whose
// drive is too violent for the smallest step fail with the model's own status. The run is stopped
// part way (a signal, as a batch scheduler sends before its kill), resumed from its checkpoint, and
// checked bit for bit against a run that was never stopped.
//
//   ./eagle-example-pendulum [samples] [checkpoint path]

#include <eagle/eagle.hpp>
#include <eagle/thread_binding.hpp>

#include <Kokkos_Core.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

struct Pendulum {
  static constexpr const char* name = "pendulum";
  using scalar_type = double;
  enum State : int { theta, omega, time, h, state_count };
  enum Input : int { damping, drive, input_count };
  static constexpr std::uint8_t step_underflow = eagle::status::first_model_failure;
  double drive_frequency = 2.0 / 3.0;
  double t_end = 50.0;
  double tolerance = 1e-6;
  double h_min = 1e-7;

  KOKKOS_INLINE_FUNCTION double acceleration(double t, double th, double om, double q, double a) const {
    return -q * om - eagle::math::sin(th) + a * eagle::math::cos(drive_frequency * t);
  }

  // [snippet step]
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION eagle::StepStatus step(S& s, const I& in) const {
    using eagle::math::fabs;
    const double dt = eagle::math::fmin(s[h], t_end - s[time]);
    const double q = in[damping], a = in[drive];
    const double k1_th = s[omega], k1_om = acceleration(s[time], s[theta], s[omega], q, a);
    const double euler_th = s[theta] + dt * k1_th, euler_om = s[omega] + dt * k1_om;
    const double k2_th = euler_om, k2_om = acceleration(s[time] + dt, euler_th, euler_om, q, a);
    const double heun_th = s[theta] + 0.5 * dt * (k1_th + k2_th), heun_om = s[omega] + 0.5 * dt * (k1_om + k2_om);
    const double error = eagle::math::fmax(fabs(heun_th - euler_th) / (tolerance * (1.0 + fabs(heun_th))),
                                           fabs(heun_om - euler_om) / (tolerance * (1.0 + fabs(heun_om))));
    if (error <= 1.0) {  // accepted
      s[theta] = heun_th, s[omega] = heun_om, s[time] += dt;
    }
    const double factor = error > 0.0 ? 0.9 / eagle::math::sqrt(error) : 5.0;
    s[h] = dt * eagle::math::fmin(5.0, eagle::math::fmax(0.2, factor));
    if (s[time] >= t_end) return eagle::StepStatus::done();
    return s[h] < h_min ? eagle::StepStatus::failed(step_underflow) : eagle::StepStatus::carry_on();
  }
  // [snippet end]
};

using View = Kokkos::View<double*>;

struct Sweep {
  View theta, omega, time, h, damping, drive;
  explicit Sweep(long n)
      : theta("theta", n), omega("omega", n), time("t", n), h("h", n), damping("q", n), drive("A", n) {}
  eagle::Report run(const eagle::Outcomes<Kokkos::DefaultExecutionSpace::memory_space>& out,
                    const eagle::RunOptions& options) const {
    return eagle::run_until_done(Kokkos::DefaultExecutionSpace(), eagle::deploy(Pendulum{}),
                                 eagle::state(theta, omega, time, h), eagle::inputs(damping, drive), out, 200000,
                                 options);
  }
};

/// The sweep's start: damping over one axis, drive over the other.
Sweep start(long n) {
  const Sweep sweep(n);
  const View th = sweep.theta, om = sweep.omega, t = sweep.time, hh = sweep.h, q = sweep.damping, a = sweep.drive;
  Kokkos::parallel_for(
      "start", n, KOKKOS_LAMBDA(const long k) {
        th(k) = 0.2, om(k) = 0.0, t(k) = 0.0, hh(k) = 1e-3;
        q(k) = 0.05 + 0.5 * static_cast<double>(k % 50) / 49.0;
        // Every 97th sample is driven far beyond what the smallest step resolves: it fails.
        a(k) = k % 97 == 13 ? 1e12 : 0.9 + 0.6 * static_cast<double>(k / 50 % 40) / 39.0;
      });
  return sweep;
}

/// Whether two planes hold the same bits.
bool same(const View& a, const View& b) {
  long differ = 0;
  Kokkos::parallel_reduce(
      "compare", a.extent(0), KOKKOS_LAMBDA(const long k, long& d) { d += a(k) == b(k) ? 0 : 1; }, differ);
  return differ == 0;
}

int main(int argc, char* argv[]) {
  eagle::bind_threads_by_default(argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const long n = argc > 1 ? std::atol(argv[1]) : 4000;
  const std::string path = argc > 2 ? argv[2] : "pendulum.ckpt";
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [samples > 0] [checkpoint path]\n", argv[0]);
    return 2;
  }

  const Sweep whole = start(n);
  const auto whole_out = eagle::outcomes(n);
  // [snippet failures]
  const eagle::Report straight = whole.run(whole_out, {});
  std::printf("never stopped: %s\n", straight.summary().c_str());
  std::printf("failed (step underflow): %lld of %ld, first at sample %lld\n", static_cast<long long>(straight.failed),
              n, straight.first_failures.empty() ? -1LL : static_cast<long long>(straight.first_failures[0].first));
  // [snippet end]

  // The same sweep, stopped by SIGUSR1 after its first launch, then resumed from the checkpoint.
  const Sweep stopped = start(n);
  // [snippet checkpoint]
  eagle::RunOptions options;
  options.checkpoint.path = path;
  options.checkpoint.on_signal = SIGUSR1;
  options.observer = [](const eagle::Progress& p) {
    if (p.launch == 1) std::raise(SIGUSR1);
  };
  const eagle::Report first = stopped.run(eagle::outcomes(n), options);
  std::printf("stopped:       %s\n", first.summary().c_str());
  eagle::RunOptions resume;
  resume.resume_from = path;
  const auto resumed_out = eagle::outcomes(n);
  const eagle::Report second = stopped.run(resumed_out, resume);
  std::printf("resumed:       %s\n", second.summary().c_str());
  // [snippet end]

  const bool identical = same(whole.theta, stopped.theta) && same(whole.omega, stopped.omega) &&
                         same(whole.time, stopped.time) && second.failed == straight.failed;
  std::printf("resumed run identical to the one never stopped: %s\n", identical ? "yes" : "NO");
  return first.interrupted && identical ? 0 : 1;
}
