// The seed's "Steps per launch" comparison: the oscillator, the same step body run with k=1 and
// k=16 steps per launch, and the launches, steps and exact_steps each took.

#include <eagle/eagle.hpp>
#include <eagle/kernels/oscillator.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <exception>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

eagle::Report run(int k, std::int64_t n) {
  Kokkos::View<double*, Mem> x("x", n), v("v", n), t("t", n), omega("omega", n);
  Kokkos::deep_copy(x, 1.0);
  Kokkos::parallel_for(
      "demo::omega", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { omega(i) = 1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1); });
  const eagle::kernels::Oscillator oscillator{/*t_end=*/1.0, /*dt=*/1e-3};
  return eagle::run_until_done(Space(), eagle::deploy(oscillator, k), eagle::state(x, v, t), eagle::inputs(omega),
                               /*max_steps=*/10000);
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
    const std::int64_t n = host ? 100000 : 1000000;
    std::printf("running on %s (%d %s), Kokkos %d.%d.%d, n = %lld\n", Space::name(), Space().concurrency(),
                host ? "threads" : "concurrent work items", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
                KOKKOS_VERSION % 100, static_cast<long long>(n));
    for (int k : {1, 16}) {
      const eagle::Report report = run(k, n);
      std::printf("%5s: %4lld launches, %5lld steps, exact_steps=%s   (%.3f s)\n", report.steps_setting.c_str(),
                  static_cast<long long>(report.launches), static_cast<long long>(report.steps),
                  report.exact_steps ? "True" : "False", report.seconds);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "eagle-demo: %s\n", e.what());
    return 1;
  }
  return 0;
}
