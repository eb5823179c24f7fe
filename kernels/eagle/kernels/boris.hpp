#pragma once
// A charged particle in a static magnetic field, advanced by the Boris pusher (the particle-in-cell
// codes' workhorse):  x' = v,  v' = v x Omega,  Omega = (q/m) B per sample (input).
// One step of dt, with tau = Omega dt/2 and sigma = 2 tau / (1 + |tau|^2):
//   v- = v + v x tau,   v <- v + v- x sigma,   x <- x + dt v,   t <- t + dt;
// the velocity turns about Omega by 2 atan(|Omega| dt/2) a step and keeps its length (the
// discrete map's closed form, which the tests check it against). Done once t is within dt/2 of
// t_end. Branch-free, six state fields and three inputs: runs on lane packs.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace eagle::kernels {

/// The Boris pusher in a static magnetic field, Omega = (q/m) B per sample (see the top of this header).
struct Boris {
  static constexpr const char* name = "boris";  ///< kernel labels, reports, checkpoints
  using scalar_type = double;                   ///< every state and input plane holds double
  /// State fields.
  enum State : int {
    x,           ///< position, x
    y,           ///< position, y
    z,           ///< position, z
    vx,          ///< velocity, x
    vy,          ///< velocity, y
    vz,          ///< velocity, z
    t,           ///< time
    state_count  ///< state fields per sample
  };
  /// Input fields: the gyration vector Omega = (q/m) B.
  enum Input : int {
    omega_x,     ///< Omega, x
    omega_y,     ///< Omega, y
    omega_z,     ///< Omega, z
    input_count  ///< input fields per sample
  };
  static constexpr bool lane_packs = true;  ///< branch-free: the host tile runs it on SIMD packs

  double dt = 1e-3;    ///< time step
  double t_end = 1.0;  ///< each sample terminates once its t is within dt/2 of t_end

  /// One Boris step of dt; terminated once t + dt/2 >= t_end.
  template <class S, class I>
  KOKKOS_INLINE_FUNCTION auto step(S& s, const I& in) const {
    using V = std::remove_const_t<std::remove_reference_t<decltype(s[0])>>;
    const double half = 0.5 * dt;
    const V tx = half * in[omega_x], ty = half * in[omega_y], tz = half * in[omega_z];
    const V f = 2.0 / (1.0 + (tx * tx + ty * ty + tz * tz));
    const V sx = f * tx, sy = f * ty, sz = f * tz;
    const V ux = s[vx], uy = s[vy], uz = s[vz];
    const V mx = ux + (uy * tz - uz * ty), my = uy + (uz * tx - ux * tz), mz = uz + (ux * ty - uy * tx);
    const V wx = ux + (my * sz - mz * sy), wy = uy + (mz * sx - mx * sz), wz = uz + (mx * sy - my * sx);
    s[vx] = wx, s[vy] = wy, s[vz] = wz;
    s[x] += dt * wx, s[y] += dt * wy, s[z] += dt * wz;
    s[t] += dt;
    return s[t] + half >= t_end;
  }
};

}  // namespace eagle::kernels
