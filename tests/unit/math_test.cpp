// eagle::math against the C library: scalars on the host bit for bit (Kokkos calls it there), lane
// packs lane by lane, and inside a kernel on TestSpace to a few ulps (a device has its own).

#include "batch.hpp"
#include "eagle_test_space.hpp"

#include <eagle/math.hpp>
#include <eagle/pack.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace eagle::test {

using Mem = TestSpace::memory_space;
constexpr int math_outputs = 8;

/// Eight functions of in(i) into out(i, 0 ... 7) on TestSpace. Out of the test body: nvcc takes a
/// device lambda only in a function it may name (a test body is a private member).
void math_in_a_kernel(const Kokkos::View<double*, Mem>& in,
                      const Kokkos::View<double**, Kokkos::LayoutRight, Mem>& out) {
  Kokkos::parallel_for(
      "eagle::test::math", Kokkos::RangePolicy<TestSpace>(0, in.extent(0)), KOKKOS_LAMBDA(const int i) {
        const double v = in(i);
        out(i, 0) = math::exp(v);
        out(i, 1) = math::log1p(math::fabs(v));
        out(i, 2) = math::sin(v);
        out(i, 3) = math::tanh(v);
        out(i, 4) = math::atan2(v, 1.5);
        out(i, 5) = math::cbrt(v);
        out(i, 6) = math::erf(v);
        out(i, 7) = math::floor(v);
      });
}

namespace {

// Each function once: its name, eagle's and the C library's, and arguments inside its domain.
struct Unary {
  const char* name;
  double (*eagle)(double);
  double (*c)(double);
  std::vector<double> at;
};
struct Binary {
  const char* name;
  double (*eagle)(double, double);
  double (*c)(double, double);
};

#define EAGLE_UNARY(f, ...)                                                                  \
  Unary {                                                                                    \
#f, [](double x) { return math::f(x); }, [](double x) { return std::f(x); }, __VA_ARGS__ \
  }
const std::vector<double> anywhere = {-7.25, -1.0, -0.3, 0.0, 1e-9, 0.5, 2.0, 31.0};
const std::vector<double> positive = {1e-300, 1e-9, 0.25, 1.0, 2.5, 1e6};
const std::vector<double> unit = {-1.0, -0.7, 0.0, 0.3, 1.0};
const std::vector<Unary> unary = {
    EAGLE_UNARY(fabs, anywhere),          EAGLE_UNARY(sqrt, positive),   EAGLE_UNARY(cbrt, anywhere),
    EAGLE_UNARY(exp, anywhere),           EAGLE_UNARY(exp2, anywhere),   EAGLE_UNARY(expm1, anywhere),
    EAGLE_UNARY(log, positive),           EAGLE_UNARY(log2, positive),   EAGLE_UNARY(log10, positive),
    EAGLE_UNARY(log1p, positive),         EAGLE_UNARY(sin, anywhere),    EAGLE_UNARY(cos, anywhere),
    EAGLE_UNARY(tan, anywhere),           EAGLE_UNARY(asin, unit),       EAGLE_UNARY(acos, unit),
    EAGLE_UNARY(atan, anywhere),          EAGLE_UNARY(sinh, anywhere),   EAGLE_UNARY(cosh, anywhere),
    EAGLE_UNARY(tanh, anywhere),          EAGLE_UNARY(asinh, anywhere),  EAGLE_UNARY(acosh, {1.0, 1.5, 40.0}),
    EAGLE_UNARY(atanh, {-0.9, 0.0, 0.5}), EAGLE_UNARY(erf, anywhere),    EAGLE_UNARY(erfc, anywhere),
    EAGLE_UNARY(tgamma, positive),        EAGLE_UNARY(lgamma, positive), EAGLE_UNARY(floor, anywhere),
    EAGLE_UNARY(ceil, anywhere),          EAGLE_UNARY(trunc, anywhere),  EAGLE_UNARY(nearbyint, anywhere)};
#undef EAGLE_UNARY

#define EAGLE_BINARY(f)                                                                                   \
  Binary {                                                                                                \
#f, [](double x, double y) { return math::f(x, y); }, [](double x, double y) { return std::f(x, y); } \
  }
const std::vector<Binary> binary = {EAGLE_BINARY(pow),       EAGLE_BINARY(atan2), EAGLE_BINARY(hypot),
                                    EAGLE_BINARY(fmod),      EAGLE_BINARY(fmin),  EAGLE_BINARY(fmax),
                                    EAGLE_BINARY(remainder), EAGLE_BINARY(fdim)};
#undef EAGLE_BINARY
const std::vector<std::pair<double, double>> pairs = {{2.0, 3.0}, {0.5, -1.5}, {7.25, 2.0}, {-3.0, 4.0}, {1e-3, 9.0}};

TEST(Math, ScalarsAreTheCLibrarysOnTheHost) {
  for (const Unary& f : unary) {
    for (double x : f.at) EXPECT_EQ(bits({{f.eagle(x)}}), bits({{f.c(x)}})) << f.name << "(" << x << ")";
  }
  for (const Binary& f : binary) {
    for (auto [x, y] : pairs)
      EXPECT_EQ(bits({{f.eagle(x, y)}}), bits({{f.c(x, y)}})) << f.name << "(" << x << ", " << y << ")";
  }
  EXPECT_EQ(math::sin(0.5f), std::sin(0.5f));  // float overloads stay in float
  EXPECT_EQ(math::pow(1.5f, 2.5f), std::pow(1.5f, 2.5f));
  EXPECT_FALSE(math::isfinite(std::numeric_limits<double>::quiet_NaN()));
}

#if defined(EAGLE_HAS_LANE_PACKS)
TEST(Math, PacksAreTheScalarsLaneByLane) {
  using P = Pack<double>;
  P x, y;
  for (int lane = 0; lane < P::width; ++lane) {
    x.set(lane, 0.25 + 0.5 * lane);
    y.set(lane, 3.0 - 0.75 * lane);
  }
  const auto expect_lanes = [&](P got, auto scalar, const char* name) {
    for (int lane = 0; lane < P::width; ++lane)
      EXPECT_EQ(got[lane], scalar(x[lane], y[lane])) << name << " lane " << lane;
  };
  expect_lanes(
      math::exp(x), [](double a, double) { return std::exp(a); }, "exp");
  expect_lanes(
      math::log(x), [](double a, double) { return std::log(a); }, "log");
  expect_lanes(
      math::sin(x), [](double a, double) { return std::sin(a); }, "sin");
  expect_lanes(
      math::tanh(y), [](double, double b) { return std::tanh(b); }, "tanh");
  expect_lanes(
      math::atan2(x, y), [](double a, double b) { return std::atan2(a, b); }, "atan2");
  expect_lanes(
      math::pow(x, 1.5), [](double a, double) { return std::pow(a, 1.5); }, "pow(pack, scalar)");
  expect_lanes(
      math::hypot(2.0, y), [](double, double b) { return std::hypot(2.0, b); }, "hypot(scalar, pack)");
}
#endif

#if defined(EAGLE_HAS_LANE_PACKS)
// Every comparison, its negation and a mask anded with the negation (the tile's `alive & !done`),
// lane by lane against C's scalar operators, NaN lanes included (a negated ordered compare is true
// on them).
template <class T>
void expect_comparisons_lane_by_lane() {
  using P = Pack<T>;
  constexpr T nan = std::numeric_limits<T>::quiet_NaN();
  const T as[] = {1, 2, 3, nan, 1, nan, -0.0, 5};
  const T bs[] = {2, 2, 1, 1, nan, nan, 0.0, 5};
  P a, b;
  unsigned odd = 0;  // lanes 1, 3, 5, ...
  for (int lane = 0; lane < P::width; ++lane) {
    a.set(lane, as[lane % 8]);
    b.set(lane, bs[lane % 8] + static_cast<T>(lane / 8));
    if (lane % 2 == 1) odd |= 1U << lane;
  }
  const PackMask<T> alive = mask_from_bits<T>(odd);
  const auto expect = [&](PackMask<T> got, PackMask<T> negated, PackMask<T> alive_and_not, auto scalar,
                          const char* name) {
    for (int lane = 0; lane < P::width; ++lane) {
      const bool want = scalar(a[lane], b[lane]);
      EXPECT_EQ((bits(got) >> lane) & 1U, want ? 1U : 0U) << name << " lane " << lane;
      EXPECT_EQ((bits(negated) >> lane) & 1U, want ? 0U : 1U) << "!(" << name << ") lane " << lane;
      EXPECT_EQ((bits(alive_and_not) >> lane) & 1U, !want && lane % 2 == 1 ? 1U : 0U)
          << "alive & !(" << name << ") lane " << lane;
    }
  };
  expect(
      a < b, !(a < b), alive & !(a < b), [](T x, T y) { return x < y; }, "<");
  expect(
      a <= b, !(a <= b), alive & !(a <= b), [](T x, T y) { return x <= y; }, "<=");
  expect(
      a > b, !(a > b), alive & !(a > b), [](T x, T y) { return x > y; }, ">");
  expect(
      a >= b, !(a >= b), alive & !(a >= b), [](T x, T y) { return x >= y; }, ">=");
  expect(
      a == b, !(a == b), alive & !(a == b), [](T x, T y) { return x == y; }, "==");
  expect(
      a != b, !(a != b), alive & !(a != b), [](T x, T y) { return x != y; }, "!=");
  expect(
      !!(a < b), !!!(a < b), alive & !!!(a < b), [](T x, T y) { return x < y; }, "!!<");
  // A comparison's type as a mask variable's holds any mask; its negation is then the complement.
  decltype(a < b) held = a < b;
  held = alive;
  EXPECT_EQ(bits(!held), ~odd & ((1U << P::width) - 1U));
  EXPECT_EQ(bits(alive & !held), 0U);
}

TEST(Math, PackComparisonsAndTheirNegationsAreCsLaneByLane) {
  expect_comparisons_lane_by_lane<double>();
  expect_comparisons_lane_by_lane<float>();
}
#endif

#if defined(EAGLE_HAS_LANE_PACKS)
TEST(Math, WholePackFunctionsAreTheCLibrarysBitForBit) {  // |x|, sqrt, fmin, fmax: not lane by lane
  using P = Pack<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = {-0.0, 0.0, -2.5, 1e-300, 3.0, inf, -inf, nan};
  for (double a : values) {
    for (std::size_t shift = 0; shift < values.size(); ++shift) {
      P x, y;  // lane w: (a, values[shift + w]) and (values[shift + w], a): every pair, both orders
      for (int lane = 0; lane < P::width; ++lane) {
        const double b = values[(shift + static_cast<std::size_t>(lane)) % values.size()];
        x.set(lane, lane % 2 == 0 ? a : b);
        y.set(lane, lane % 2 == 0 ? b : a);
      }
      const P got[] = {math::fabs(x),    math::sqrt(x),      math::fmin(x, y),
                       math::fmax(x, y), math::fmin(x, 0.0), math::fmax(-0.0, y)};
      for (int lane = 0; lane < P::width; ++lane) {
        const double want[] = {std::fabs(x[lane]),          std::sqrt(x[lane]),      std::fmin(x[lane], y[lane]),
                               std::fmax(x[lane], y[lane]), std::fmin(x[lane], 0.0), std::fmax(-0.0, y[lane])};
        const double first[] = {x[lane], x[lane], x[lane], x[lane], x[lane], -0.0};
        const double second[] = {x[lane], x[lane], y[lane], y[lane], 0.0, y[lane]};
        for (std::size_t f = 0; f < std::size(want); ++f) {
          // fmin/fmax of +0 and -0: either zero (C leaves the sign open; GCC's inline expansions
          // and glibc's calls differ).
          if (f >= 2 && first[f] == 0.0 && second[f] == 0.0)
            EXPECT_EQ(got[f][lane], 0.0) << "function " << f << " of (" << first[f] << ", " << second[f] << ")";
          else
            EXPECT_EQ(bits({{got[f][lane]}}), bits({{want[f]}}))
                << "function " << f << " of (" << x[lane] << ", " << y[lane] << ")";
        }
      }
    }
  }
}
#endif

TEST(Math, InsideAKernelWithinAFewUlps) {
  const std::vector<double> x = {-2.5, -0.4, 0.0, 0.3, 1.0, 7.5};
  const auto in = plane<TestSpace>("x", x);
  const Kokkos::View<double**, Kokkos::LayoutRight, Mem> out("out", x.size(), math_outputs);
  math_in_a_kernel(in, out);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    const double want[math_outputs] = {std::exp(v),        std::log1p(std::fabs(v)),
                                       std::sin(v),        std::tanh(v),
                                       std::atan2(v, 1.5), std::cbrt(v),
                                       std::erf(v),        std::floor(v)};
    for (int f = 0; f < math_outputs; ++f) {
      EXPECT_NEAR(host(i, f), want[f], 4 * std::numeric_limits<double>::epsilon() * std::fabs(want[f]))
          << "function " << f << " at " << v;
    }
  }
}

}  // namespace
}  // namespace eagle::test
