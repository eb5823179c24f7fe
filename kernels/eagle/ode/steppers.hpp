#pragma once
// Runge-Kutta steppers over a right-hand side: a user writes dy/dt = f(t, y, p) for N states and P
// per-sample parameters, and a stepper makes it an eagle model. A system:
//
//   struct VanDerPol {
//     static constexpr const char* name = "van_der_pol";  // kernel labels, checkpoints
//     static constexpr int state_count = 2;                // N: y[0] .. y[N-1]
//     static constexpr int parameter_count = 1;            // P: per-sample inputs p[0] .. p[P-1]
//     template <class V>                                   // double, or a lane pack on the tile
//     KOKKOS_INLINE_FUNCTION void operator()(const V& t, const eagle::Values<V, 2>& y,
//                                            const eagle::Values<V, 1>& p, eagle::Values<V, 2>& dy) const {
//       dy[0] = y[1];
//       dy[1] = p[0] * (1.0 - y[0] * y[0]) * y[1] - y[0];
//     }
//   };
//
// Uniform parameters are the system's members. A right-hand side written with + - * / and
// eagle::math, templated on V as above, runs on the host tile's lane packs under every stepper; one
// written for double alone runs there one sample at a time.
//
// The steppers and their model layout (state fields, then inputs = the P parameters):
//   eagle::ode::Rk4<System>           y[0..N-1], t     fixed steps of dt until t reaches t_end
//   eagle::ode::Dopri5<System>        y[0..N-1], t, h  adaptive, per-sample error control
//   eagle::ode::Tsit5<System>         y[0..N-1], t, h  adaptive, per-sample error control
//   eagle::ode::Rosenbrock23<System>  y[0..N-1], t, h  stiff systems, adaptive (eagle/ode/rosenbrock.hpp)
// Each names its fields: Stepper::time, Stepper::step_size (adaptive), y's are 0..N-1.

#include <eagle/math.hpp>
#include <eagle/model.hpp>
#include <eagle/ode/tableaus.hpp>
#include <eagle/status.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace eagle::ode {

namespace detail {

/// The scalar of a value a step computes with: T itself, or a lane pack's T.
template <class V>
struct ScalarOf {
  using type = V;
};
template <class T>
struct ScalarOf<Pack<T>> {
  using type = T;
};
/// A tableau's weight (a double constant) in V's scalar: a float system computes in float.
template <class V>
KOKKOS_FORCEINLINE_FUNCTION constexpr typename ScalarOf<V>::type weight(double w) {
  return static_cast<typename ScalarOf<V>::type>(w);
}

/// The tableau's weights of stage i's argument.
template <class Tableau, int i>
struct StageWeights {
  static constexpr int size = i;
  KOKKOS_INLINE_FUNCTION static constexpr double at(int j) { return Tableau::a(i, j); }
};
/// The tableau's weights of the solution.
template <class Tableau>
struct SolutionWeights {
  static constexpr int size = Tableau::stages;
  KOKKOS_INLINE_FUNCTION static constexpr double at(int j) { return Tableau::b(j); }
};
/// The tableau's weights of the error estimate.
template <class Tableau>
struct ErrorWeights {
  static constexpr int size = Tableau::stages;
  KOKKOS_INLINE_FUNCTION static constexpr double at(int j) { return Tableau::e(j); }
};

/// sum_j w(j) k[j][n] over the nonzero weights, left to right (at least one weight is nonzero).
template <class Weights, int j = 0, bool started = false, class Y, std::size_t S>
KOKKOS_FORCEINLINE_FUNCTION auto weighted_sum(const Y (&k)[S], int n, const typename Y::value_type& sum) {
  using V = typename Y::value_type;
  if constexpr (j == Weights::size) {
    static_assert(started, "eagle::ode: a row of weights that are all zero");
    return sum;
  } else if constexpr (Weights::at(j) == 0.0) {
    return weighted_sum<Weights, j + 1, started>(k, n, sum);
  } else if constexpr (!started) {
    return weighted_sum<Weights, j + 1, true>(k, n, V(weight<V>(Weights::at(j)) * k[j][n]));
  } else {
    return weighted_sum<Weights, j + 1, true>(k, n, V(sum + weight<V>(Weights::at(j)) * k[j][n]));
  }
}
template <class Weights, class Y, std::size_t S>
KOKKOS_FORCEINLINE_FUNCTION auto weighted_sum(const Y (&k)[S], int n) {
  return weighted_sum<Weights>(k, n, k[0][n]);
}

/// Stages i .. S-1 of an explicit Runge-Kutta step of size h from (t0, y0), the earlier ones in k:
/// k[i] = f(t0 + c_i h, y0 + h sum_j a_ij k[j]). Unrolled with constant indices, so each tableau
/// weight is a constant and zero weights cost nothing; forced inline, stage by stage, so the
/// stages' values stay in registers (GCC keeps a generic lambda per stage out of line).
template <class Tableau, int N, int i = 1, class System, class V, class H, class Y, class Parameters>
KOKKOS_FORCEINLINE_FUNCTION void later_stages(const System& f, const V& t0, const H& h, const Y& y0,
                                              const Parameters& p, Y (&k)[Tableau::stages]) {
  Y yi;
  for (int n = 0; n < N; ++n) yi[n] = y0[n] + h * weighted_sum<StageWeights<Tableau, i>>(k, n);
  f(V(t0 + weight<V>(Tableau::c(i)) * h), yi, p, k[i]);
  if constexpr (i + 1 < Tableau::stages) later_stages<Tableau, N, i + 1>(f, t0, h, y0, p, k);
}

/// The step's result from its stages: y1 = y0 + h sum_j b_j k[j].
template <class Tableau, int N, class H, class Y>
KOKKOS_FORCEINLINE_FUNCTION void solution(const H& h, const Y& y0, const Y (&k)[Tableau::stages], Y& y1) {
  for (int n = 0; n < N; ++n) y1[n] = y0[n] + h * weighted_sum<SolutionWeights<Tableau>>(k, n);
}

/// One whole step of size h from (t0, y0) into y1, every stage evaluated here.
template <class Tableau, int N, class System, class V, class H, class Y, class Parameters>
KOKKOS_FORCEINLINE_FUNCTION void whole_step(const System& f, const V& t0, const H& h, const Y& y0, const Parameters& p,
                                            Y& y1) {
  Y k[Tableau::stages];
  f(t0, y0, p, k[0]);
  later_stages<Tableau, N>(f, t0, h, y0, p, k);
  solution<Tableau, N>(h, y0, k, y1);
}

/// Whether System's right-hand side takes V: a template over V, not written for double alone.
template <class System, class V, class = void>
struct TakesValues : std::false_type {};
template <class System, class V>
struct TakesValues<
    System, V,
    std::void_t<decltype(std::declval<const System&>()(
        std::declval<const V&>(), std::declval<const Values<V, System::state_count>&>(),
        std::declval<const Values<V, System::parameter_count>&>(), std::declval<Values<V, System::state_count>&>()))>>
    : std::true_type {};

/// System::scalar_type where it declares one (float or double), else double.
template <class System, class = void>
struct ScalarOfSystem {
  using type = double;
};
template <class System>
struct ScalarOfSystem<System, std::void_t<typename System::scalar_type>> {
  using type = typename System::scalar_type;
};

/// Whether System's right-hand side runs on the host tile's lane packs (false where there are none).
template <class System>
constexpr bool rhs_on_packs() {
#if defined(EAGLE_HAS_LANE_PACKS)
  return TakesValues<System, Pack<typename ScalarOfSystem<System>::type>>::value;
#else
  return false;
#endif
}

/// A system's compile-time facts, checked once so errors read well.
template <class System>
struct SystemTraits {
  static constexpr int states = System::state_count;
  static constexpr int parameters = System::parameter_count;
  using scalar = typename ScalarOfSystem<System>::type;
  static_assert(std::is_same<scalar, double>::value || std::is_same<scalar, float>::value,
                "eagle::ode: System::scalar_type is float or double");
  static_assert(states > 0, "eagle::ode: a system needs at least one state (System::state_count)");
  static_assert(parameters >= 0, "eagle::ode: System::parameter_count cannot be negative");
  static_assert(std::is_trivially_copyable<System>::value,
                "eagle::ode: a system is copied to the device; it must be trivially copyable");
};

}  // namespace detail

/// A fixed-step explicit Runge-Kutta method as an eagle model: steps of dt while t + dt/2 < t_end,
/// so a sample takes round((t_end - t) / dt) steps whatever the rounding of t. Branch-free: the
/// host tile runs it on lane packs. In the system's scalar_type (float or double; double where it
/// declares none), and with its packs_in_flight where it declares one.
template <class Tableau, class System>
struct FixedStep {
  static constexpr const char* name = System::name;                   ///< the system's name: kernel labels, checkpoints
  using scalar_type = typename detail::SystemTraits<System>::scalar;  ///< every state and input plane holds it
  // Enumerators, not static members: device code may take a field index by reference.
  /// The model's fields after y's 0 .. N-1, and its field counts.
  enum Field : int {
    time = detail::SystemTraits<System>::states,            ///< the state field holding t (y's are 0 .. N-1)
    state_count,                                            ///< state fields per sample: N + 1
    input_count = detail::SystemTraits<System>::parameters  ///< input fields per sample: the P parameters
  };
  /// The host tile runs it on lane packs (V is a pack there) where the right-hand side takes them.
  static constexpr bool lane_packs = detail::rhs_on_packs<System>();
  /// Packs the tile keeps in flight: the system's, or as the register file allows.
  static constexpr int packs_in_flight = eagle::packs_in_flight<System>;
  static constexpr bool adaptive = false;  ///< fixed steps, no dense output: Saving saves at the step nearest each time

  System system{};                     ///< the right-hand side, with its uniform parameters
  scalar_type dt = scalar_type(1e-3);  ///< the step
  scalar_type t_end = 1;               ///< each sample terminates once its t reaches t_end (to within dt/2)

  /// One step of dt; terminated once t + dt/2 >= t_end.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& p) const {
    using V = std::remove_const_t<std::remove_reference_t<decltype(s[0])>>;
    constexpr int N = time;
    Values<V, N> y0, y1;
    for (int n = 0; n < N; ++n) y0[n] = s[n];
    const V t0 = s[time];
    single_step(t0, dt, y0, p, y1);
    for (int n = 0; n < N; ++n) s[n] = y1[n];
    s[time] = t0 + dt;
    return s[time] + scalar_type(0.5) * dt >= t_end;
  }

  /// One step of the method of size h from (t0, y0) into y1 (what an event is located with).
  template <class V, class H, class I>
  KOKKOS_INLINE_FUNCTION void single_step(const V& t0, const H& h, const Values<V, time>& y0, const I& p,
                                          Values<V, time>& y1) const {
    detail::whole_step<Tableau, time>(system, t0, h, y0, p, y1);
  }
};

/// What an accepted step leaves to evaluate its solution anywhere inside it (its dense output):
/// the step from (t0, y0) to (t1, y1), the size h its stages were computed with, and the stages.
template <class Method, int N>
struct DenseOutput {
  double t0 = 0.0;                                       ///< the step's start
  double t1 = 0.0;                                       ///< its end: t0 + h, or the time it landed on
  double h = 0.0;                                        ///< the step size of its stages
  Values<double, N> y0{};                                ///< y at t0
  Values<double, N> y1{};                                ///< y at t1
  typename Method::template Stages<double, N> stages{};  ///< what the method interpolates from

  /// y at t in [t0, t1] by the method's continuous extension; y1 itself from t1 on.
  KOKKOS_INLINE_FUNCTION void at(double t, Values<double, N>& y) const {
    if (t >= t1)
      y = y1;
    else
      Method::template interpolate<N>((t - t0) / h, h, y0, stages, y);
  }
};

/// An embedded explicit Runge-Kutta pair with a continuous extension, as the method of an
/// Adaptive stepper: a trial step with its error estimate, and its dense output.
template <class Tableau>
struct ExplicitPair {
  static constexpr int error_order = Tableau::error_order;  ///< order of the error estimate
  static constexpr int dense_order = Tableau::dense_order;  ///< order of the dense output
  /// Its trial step runs on lane packs wherever System's right-hand side does.
  template <class System>
  static constexpr bool lane_packs_for = detail::rhs_on_packs<System>();

  /// A step's stages: what its dense output interpolates from.
  template <class V, int N>
  struct Stages {
    Values<V, N> k[Tableau::stages];  ///< k[j] = f at stage j
  };

  /// A step of size h from (t0, y0), f0 = f(t0, y0): the solution y1, the error estimate e, and
  /// the stages into *keep unless it is null (the double after f0, the size below which a
  /// component is negligible, is for implicit methods).
  template <int N, class System, class V, class I>
  KOKKOS_FORCEINLINE_FUNCTION static void trial(const System& f, const V& t0, const V& h, const Values<V, N>& y0,
                                                const I& p, const Values<V, N>& f0, double, Values<V, N>& y1,
                                                Values<V, N>& e, Stages<V, N>* keep) {
    // A local array, not *keep: with the stages in *keep GCC 12 kept them in memory (1.9x slower).
    Values<V, N> k[Tableau::stages];
    k[0] = f0;
    detail::later_stages<Tableau, N>(f, t0, h, y0, p, k);
    detail::solution<Tableau, N>(h, y0, k, y1);
    for (int n = 0; n < N; ++n) e[n] = h * detail::weighted_sum<detail::ErrorWeights<Tableau>>(k, n);
    if (keep != nullptr)
      for (int j = 0; j < Tableau::stages; ++j) keep->k[j] = k[j];
  }

  /// y at t0 + theta h, theta in [0, 1], from the stages of a step of size h from y0.
  template <int N>
  KOKKOS_INLINE_FUNCTION static void interpolate(double theta, double h, const Values<double, N>& y0,
                                                 const Stages<double, N>& stages, Values<double, N>& y) {
    double w[Tableau::stages];
    for (int j = 0; j < Tableau::stages; ++j) w[j] = Tableau::dense(j, theta);
    for (int n = 0; n < N; ++n) {
      double sum = 0.0;
      for (int j = 0; j < Tableau::stages; ++j) sum += w[j] * stages.k[j][n];
      y[n] = y0[n] + h * sum;
    }
  }
};

/// An adaptive stepper as an eagle model: a method with an error estimate and a dense output
/// (ExplicitPair, or Rosenbrock23Method in eagle/ode/rosenbrock.hpp) and error control per sample. One kernel step
/// is one attempted step of size h = min(the sample's h, h_max), or t_end - t where that is less
/// than 1.01 h. It is accepted when the error norm
/// sqrt(mean_i (e_i / (atol + rtol max(|y0_i|, |y1_i|)))^2) is at most 1, and t advances (landing
/// on t_end exactly); either way the next h is h min(factor_max, max(factor_min, safety
/// err^(-1/(q+1)))), q the order of the error estimate. A sample whose h falls below h_min fails
/// with status step_size_underflow; a non-finite error shrinks h until it does. A sample starting
/// with h <= 0 gets a first h of 0.01 |y| / |f(t, y)| in the error norm (Hairer's first guess),
/// at most h_max. Runs on the host tile's lane packs where the method does (each lane's status its
/// own).
template <class Method, class System>
struct Adaptive {
  static constexpr const char* name = System::name;  ///< the system's name: kernel labels, checkpoints
  using scalar_type = double;                        ///< every state and input plane holds double
  static_assert(std::is_same<typename detail::SystemTraits<System>::scalar, double>::value,
                "eagle::ode: the adaptive steppers run in double (System::scalar_type)");
  // Enumerators, not static members: device code may take a field index by reference.
  /// The model's fields after y's 0 .. N-1, and its field counts.
  enum Field : int {
    time = detail::SystemTraits<System>::states,            ///< the state field holding t (y's are 0 .. N-1)
    step_size,                                              ///< the state field holding h
    state_count,                                            ///< state fields per sample: N + 2
    input_count = detail::SystemTraits<System>::parameters  ///< input fields per sample: the P parameters
  };
  /// Per-sample step sizes, and a dense output (Dense) Saving and StopWhen interpolate inside steps.
  static constexpr bool adaptive = true;
  /// The host tile runs it on lane packs where true: the method and the system both take them.
  static constexpr bool lane_packs = Method::template lane_packs_for<System>;
  using Dense = DenseOutput<Method, time>;  ///< a step's dense output, on one sample
  /// The status of a sample whose step size fell below h_min.
  static constexpr std::uint8_t step_size_underflow = status::first_model_failure;

  System system{};          ///< the right-hand side, with its uniform parameters
  double t_end = 1.0;       ///< each sample is done once its t reaches t_end
  double rtol = 1e-6;       ///< relative tolerance, per step
  double atol = 1e-9;       ///< absolute tolerance, per step
  double h_min = 1e-14;     ///< a smaller step fails the sample
  double h_max = 1e300;     ///< no step is longer
  double safety = 0.9;      ///< the controller's safety factor
  double factor_min = 0.2;  ///< h shrinks at most by this factor a step
  double factor_max = 5.0;  ///< h grows at most by this factor a step

  /// One attempted step toward t_end (attempt with t_stop = t_end).
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& p) const {
    return attempt(s, p, t_end);
  }

  /// One attempted step toward t_stop (at most t_end), landing on it exactly where the step
  /// reaches it: done once t reaches t_end, else carry_on (accepted or rejected) or a failure.
  /// Branch-free (selects), so on the tile's lane packs each lane accepts or rejects on its own.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto attempt(S& s, const I& p, double t_stop) const {
    return attempt_keeping(s, p, t_stop, nullptr);
  }

  /// As attempt, on one sample, keeping the step in `dense`: where t advanced, y anywhere from the
  /// old t to the new one.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION StepStatus attempt(S& s, const I& p, double t_stop, Dense& dense) const {
    dense.t0 = s[time];
    for (int n = 0; n < time; ++n) dense.y0[n] = s[n];
    const StepStatus result = attempt_keeping(s, p, t_stop, &dense);
    dense.t1 = s[time];
    for (int n = 0; n < time; ++n) dense.y1[n] = s[n];
    return result;
  }

 private:
  /// The attempt; its stages and step size kept in *keep unless keep is nullptr (a pack's path).
  template <class S, class I, class Keep>
  KOKKOS_INLINE_FUNCTION auto attempt_keeping(S& s, const I& p, double t_stop, Keep keep) const {
    using V = std::remove_const_t<std::remove_reference_t<decltype(s[0])>>;
    constexpr int N = time;
    Values<V, N> y0;
    for (int n = 0; n < N; ++n) y0[n] = s[n];
    const V t0 = s[time];
    const V h_before = s[step_size];
    const V rest = t_stop - t0;
    Values<V, N> f0;
    system(t0, y0, p, f0);
    const auto unset = !(h_before > 0.0);
    V asked = h_before;
    if (any(unset)) asked = select(unset, first_guess(y0, f0), h_before);  // a sample's first step
    asked = math::fmin(asked, h_max);
    // A step that would leave less than 1 % of itself to t_stop goes there (Hairer's DOPRI5): no
    // last step of a rounding error's length, below h_min.
    const V h = select(asked * 1.01 >= rest, rest, asked);
    const auto underflow = !(h >= h_min);  // NaN too: the sample fails, its state as it was

    Values<V, N> y1, e;
    typename Method::template Stages<V, N>* stages = nullptr;
    if constexpr (!std::is_same<Keep, std::nullptr_t>::value) stages = &keep->stages, keep->h = h;
    Method::template trial<N>(system, t0, h, y0, p, f0, atol, y1, e, stages);
    V sum = 0.0;
    for (int n = 0; n < N; ++n) {
      const V scaled = e[n] / (atol + rtol * math::fmax(math::fabs(y0[n]), math::fabs(y1[n])));
      sum += scaled * scaled;
    }
    const V err = math::sqrt(sum / N);
    constexpr double exponent = -1.0 / (Method::error_order + 1);
    // err = 0 gives factor_max (pow is infinite); fmax drops a NaN: a non-finite error shrinks h
    // by factor_min.
    const V next_h = h * math::fmin(factor_max, math::fmax(factor_min, safety * math::pow(err, exponent)));
    s[step_size] = select(underflow, h_before, next_h);
    const auto accepted = (err <= 1.0) & !underflow;  // else the same t, a smaller h
    for (int n = 0; n < N; ++n) s[n] = select(accepted, y1[n], y0[n]);
    s[time] = select(accepted, select(h == rest, V(t_stop), V(t0 + h)), t0);
    return step_result(s[time] >= t_end, underflow, step_size_underflow);
  }

  /// 0.01 |y| / |f| in the error norm, 1e-6 where either is tiny (Hairer, Norsett and Wanner).
  template <class V>
  KOKKOS_INLINE_FUNCTION V first_guess(const Values<V, time>& y, const Values<V, time>& f) const {
    constexpr int N = time;
    V yy = 0.0, ff = 0.0;
    for (int n = 0; n < N; ++n) {
      const V scale = atol + rtol * math::fabs(y[n]);
      yy += (y[n] / scale) * (y[n] / scale);
      ff += (f[n] / scale) * (f[n] / scale);
    }
    const V d0 = math::sqrt(yy / N), d1 = math::sqrt(ff / N);
    return select((d0 < 1e-5) | (d1 < 1e-5), V(1e-6), V(0.01 * d0 / d1));
  }
};

/// The classical fourth-order Runge-Kutta method, fixed steps.
template <class System>
using Rk4 = FixedStep<Rk4Tableau, System>;
/// Dormand-Prince 5(4), adaptive.
template <class System>
using Dopri5 = Adaptive<ExplicitPair<Dopri5Tableau>, System>;
/// Tsitouras 5(4), adaptive.
template <class System>
using Tsit5 = Adaptive<ExplicitPair<Tsit5Tableau>, System>;

}  // namespace eagle::ode
