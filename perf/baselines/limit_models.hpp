#pragma once
// The models of the limit (hand_limit.hpp), written by hand on its vectors: each `Lanes` holds a
// vector of lanes' state and inputs, steps it under a mask computed from its own state, and moves
// lanes to and from the caller's arrays.

#include <baselines/limit_vectors.hpp>

#include <cstdint>
#include <limits>

namespace eagle::perf {

/// The oscillator: x += dt v, v -= (dt w w) x, t += dt, the end time per lane (`PerSampleEnd`) or one
/// for all; dt w w is the model's dt * omega * omega, hoisted. A vector's lanes run while t < their
/// end: the mask is recomputed from t at every step (on AVX-512 a compare into a k register), never
/// carried in a vector register across steps.
template <bool PerSampleEnd>
struct OscillatorLanes {
  /// One vector of lanes.
  struct Vec {
    LimitVec x, v, t, c, e;
  };
  /// What a step changes.
  struct State {
    LimitVec x, v, t;
  };
  /// On AVX-512 too where every lane ends together: the mask is a large share of so short a step
  /// (AMD EPYC, uniform n = 10^5: 3.96 -> 3.0 ms); with ends per sample the bursts undone cost
  /// more (spread-100: 2.3 -> 2.6 ms; Lorenz and Boris: no gain).
  static constexpr bool unmasked_bursts = limit_unmasked_bursts || !PerSampleEnd;
  double *xs, *vs, *ts;
  const double *omega, *ends;
  double dt, t_end;

  void load(Vec& a, LimitMask where, std::int64_t i) const {
    a.x = with_lanes(where, xs[i], a.x), a.v = with_lanes(where, vs[i], a.v), a.t = with_lanes(where, ts[i], a.t);
    a.c = with_lanes(where, dt * omega[i] * omega[i], a.c);
    if constexpr (PerSampleEnd) a.e = with_lanes(where, ends[i], a.e);
  }
  void load_all(Vec& a, std::int64_t i) const {
    a.x = loadu(xs + i), a.v = loadu(vs + i), a.t = loadu(ts + i);
    const LimitVec w = loadu(omega + i);
    a.c = dt * w * w;
    if constexpr (PerSampleEnd) a.e = loadu(ends + i);
  }
  void empty(Vec& a, LimitMask where) const { a.t = with_lanes(where, std::numeric_limits<double>::infinity(), a.t); }
  void store(const Vec& a, int l, std::int64_t i) const {
    xs[i] = lane_of(a.x, l), vs[i] = lane_of(a.v, l), ts[i] = lane_of(a.t, l);
  }
  void store_all(const Vec& a, std::int64_t i) const { storeu(xs + i, a.x), storeu(vs + i, a.v), storeu(ts + i, a.t); }
  State save(const Vec& a) const { return {a.x, a.v, a.t}; }
  void restore(Vec& a, const State& s) const { a.x = s.x, a.v = s.v, a.t = s.t; }
  LimitMask live(const Vec& a) const {
    if constexpr (PerSampleEnd) return a.t < a.e;
    return a.t < LimitVec{} + t_end;
  }
  /// One step of the lanes `run`; the others keep their state.
  void step(Vec& a, LimitMask run) const {
    const LimitVec nx = a.x + dt * a.v;
    const LimitVec nv = a.v - a.c * a.x;
    a.x = blend(run, nx, a.x);
    a.v = blend(run, nv, a.v);
    a.t = blend(run, a.t + dt, a.t);
  }
};

/// Lorenz, classical RK4, the same arithmetic as eagle::kernels::Lorenz (eagle::ode::Rk4's: the
/// tableau's weights, the end within dt/2 of t_end), one end time for all; a vector's lanes run
/// while t + dt/2 < t_end.
struct LorenzLanes {
  /// One vector of lanes.
  struct Vec {
    LimitVec x, y, z, t, rho;
  };
  /// What a step changes.
  struct State {
    LimitVec x, y, z, t;
  };
  static constexpr bool unmasked_bursts = limit_unmasked_bursts;  ///< as the ISA's default
  double *xs, *ys, *zs, *ts;
  const double* rhos;
  double sigma, beta, dt, t_end;

  void load(Vec& a, LimitMask where, std::int64_t i) const {
    a.x = with_lanes(where, xs[i], a.x), a.y = with_lanes(where, ys[i], a.y), a.z = with_lanes(where, zs[i], a.z);
    a.t = with_lanes(where, ts[i], a.t), a.rho = with_lanes(where, rhos[i], a.rho);
  }
  void load_all(Vec& a, std::int64_t i) const {
    a.x = loadu(xs + i), a.y = loadu(ys + i), a.z = loadu(zs + i), a.t = loadu(ts + i), a.rho = loadu(rhos + i);
  }
  void empty(Vec& a, LimitMask where) const { a.t = with_lanes(where, std::numeric_limits<double>::infinity(), a.t); }
  void store(const Vec& a, int l, std::int64_t i) const {
    xs[i] = lane_of(a.x, l), ys[i] = lane_of(a.y, l), zs[i] = lane_of(a.z, l), ts[i] = lane_of(a.t, l);
  }
  void store_all(const Vec& a, std::int64_t i) const {
    storeu(xs + i, a.x), storeu(ys + i, a.y), storeu(zs + i, a.z), storeu(ts + i, a.t);
  }
  State save(const Vec& a) const { return {a.x, a.y, a.z, a.t}; }
  void restore(Vec& a, const State& s) const { a.x = s.x, a.y = s.y, a.z = s.z, a.t = s.t; }
  LimitMask live(const Vec& a) const { return a.t + 0.5 * dt < LimitVec{} + t_end; }
  /// One step of the lanes `run`; the others keep their state.
  void step(Vec& a, LimitMask run) const {
    const LimitVec x0 = a.x, y0 = a.y, z0 = a.z, r = a.rho;
    const double h = dt, sixth = 1.0 / 6, third = 1.0 / 3;
    const LimitVec k1x = sigma * (y0 - x0), k1y = x0 * (r - z0) - y0, k1z = x0 * y0 - beta * z0;
    const LimitVec x1 = x0 + h * (0.5 * k1x), y1 = y0 + h * (0.5 * k1y), z1 = z0 + h * (0.5 * k1z);
    const LimitVec k2x = sigma * (y1 - x1), k2y = x1 * (r - z1) - y1, k2z = x1 * y1 - beta * z1;
    const LimitVec x2 = x0 + h * (0.5 * k2x), y2 = y0 + h * (0.5 * k2y), z2 = z0 + h * (0.5 * k2z);
    const LimitVec k3x = sigma * (y2 - x2), k3y = x2 * (r - z2) - y2, k3z = x2 * y2 - beta * z2;
    const LimitVec x3 = x0 + h * k3x, y3 = y0 + h * k3y, z3 = z0 + h * k3z;
    const LimitVec k4x = sigma * (y3 - x3), k4y = x3 * (r - z3) - y3, k4z = x3 * y3 - beta * z3;
    a.x = blend(run, x0 + h * (sixth * k1x + third * k2x + third * k3x + sixth * k4x), x0);
    a.y = blend(run, y0 + h * (sixth * k1y + third * k2y + third * k3y + sixth * k4y), y0);
    a.z = blend(run, z0 + h * (sixth * k1z + third * k2z + third * k3z + sixth * k4z), z0);
    a.t = blend(run, a.t + dt, a.t);
  }
};

/// A charged particle in a static magnetic field, the Boris pusher, the same arithmetic as
/// eagle::kernels::Boris; tau = Omega dt/2 and sigma = 2 tau / (1 + |tau|^2) computed once a sample
/// (the model computes them every step from its inputs); a lane runs while t + dt/2 < t_end.
struct BorisLanes {
  /// One vector of lanes: position, velocity, t, tau and sigma.
  struct Vec {
    LimitVec x, y, z, vx, vy, vz, t, tx, ty, tz, sx, sy, sz;
  };
  /// What a step changes.
  struct State {
    LimitVec x, y, z, vx, vy, vz, t;
  };
  static constexpr bool unmasked_bursts = limit_unmasked_bursts;  ///< as the ISA's default
  double *xs, *ys, *zs, *vxs, *vys, *vzs, *ts;
  const double *oxs, *oys, *ozs;
  double dt, t_end;

  void load(Vec& a, LimitMask where, std::int64_t i) const {
    a.x = with_lanes(where, xs[i], a.x), a.y = with_lanes(where, ys[i], a.y), a.z = with_lanes(where, zs[i], a.z);
    a.vx = with_lanes(where, vxs[i], a.vx), a.vy = with_lanes(where, vys[i], a.vy);
    a.vz = with_lanes(where, vzs[i], a.vz), a.t = with_lanes(where, ts[i], a.t);
    const double half = 0.5 * dt, tx = half * oxs[i], ty = half * oys[i], tz = half * ozs[i];
    const double f = 2.0 / (1.0 + (tx * tx + ty * ty + tz * tz));
    a.tx = with_lanes(where, tx, a.tx), a.ty = with_lanes(where, ty, a.ty), a.tz = with_lanes(where, tz, a.tz);
    a.sx = with_lanes(where, f * tx, a.sx), a.sy = with_lanes(where, f * ty, a.sy);
    a.sz = with_lanes(where, f * tz, a.sz);
  }
  void load_all(Vec& a, std::int64_t i) const {
    a.x = loadu(xs + i), a.y = loadu(ys + i), a.z = loadu(zs + i), a.t = loadu(ts + i);
    a.vx = loadu(vxs + i), a.vy = loadu(vys + i), a.vz = loadu(vzs + i);
    const double half = 0.5 * dt;
    a.tx = half * loadu(oxs + i), a.ty = half * loadu(oys + i), a.tz = half * loadu(ozs + i);
    const LimitVec f = 2.0 / (1.0 + (a.tx * a.tx + a.ty * a.ty + a.tz * a.tz));
    a.sx = f * a.tx, a.sy = f * a.ty, a.sz = f * a.tz;
  }
  void empty(Vec& a, LimitMask where) const { a.t = with_lanes(where, std::numeric_limits<double>::infinity(), a.t); }
  void store(const Vec& a, int l, std::int64_t i) const {
    xs[i] = lane_of(a.x, l), ys[i] = lane_of(a.y, l), zs[i] = lane_of(a.z, l), ts[i] = lane_of(a.t, l);
    vxs[i] = lane_of(a.vx, l), vys[i] = lane_of(a.vy, l), vzs[i] = lane_of(a.vz, l);
  }
  void store_all(const Vec& a, std::int64_t i) const {
    storeu(xs + i, a.x), storeu(ys + i, a.y), storeu(zs + i, a.z), storeu(ts + i, a.t);
    storeu(vxs + i, a.vx), storeu(vys + i, a.vy), storeu(vzs + i, a.vz);
  }
  State save(const Vec& a) const { return {a.x, a.y, a.z, a.vx, a.vy, a.vz, a.t}; }
  void restore(Vec& a, const State& s) const {
    a.x = s.x, a.y = s.y, a.z = s.z, a.vx = s.vx, a.vy = s.vy, a.vz = s.vz, a.t = s.t;
  }
  LimitMask live(const Vec& a) const { return a.t + 0.5 * dt < LimitVec{} + t_end; }
  /// One step of the lanes `run`; the others keep their state.
  void step(Vec& a, LimitMask run) const {
    const LimitVec ux = a.vx, uy = a.vy, uz = a.vz;
    const LimitVec mx = ux + (uy * a.tz - uz * a.ty), my = uy + (uz * a.tx - ux * a.tz),
                   mz = uz + (ux * a.ty - uy * a.tx);
    const LimitVec wx = ux + (my * a.sz - mz * a.sy), wy = uy + (mz * a.sx - mx * a.sz),
                   wz = uz + (mx * a.sy - my * a.sx);
    a.vx = blend(run, wx, ux), a.vy = blend(run, wy, uy), a.vz = blend(run, wz, uz);
    a.x = blend(run, a.x + dt * wx, a.x), a.y = blend(run, a.y + dt * wy, a.y), a.z = blend(run, a.z + dt * wz, a.z);
    a.t = blend(run, a.t + dt, a.t);
  }
};

}  // namespace eagle::perf
