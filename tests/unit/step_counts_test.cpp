// Per-sample launches that defer the step counts (StepCounts) and settle them with
// write_owed_steps leave every row as launches that write them each time do, and as a serial
// count says: min(length, cap) steps, terminated exactly when the length fits under the cap.

#include "batch.hpp"
#include "countdown_model.hpp"
#include "eagle_test_space.hpp"

#include <eagle/eagle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace eagle::test {
namespace {

using Mem = TestSpace::memory_space;
using Launch = detail::Launcher<TestSpace, Countdown, Mem>;

constexpr std::int64_t n = 1000;
constexpr std::int64_t max_steps = 50;
constexpr std::int64_t k = 3;  // 50 is no multiple of 3: the last launch is cut to the cap

/// Sample i terminates after 1 + (37 i mod 80) steps: a third of them never under the cap of 50.
std::int64_t length_of(std::int64_t i) { return 1 + (37 * i) % 80; }

struct Rows {
  std::vector<std::int64_t> steps;
  std::vector<bool> terminated;
  std::vector<std::uint8_t> status;
  std::vector<double> count;
  std::vector<std::int64_t> active_after;  ///< launch by launch
};

/// Launches of k steps up to the cap over the slots `map` names (empty: every row), counts
/// deferred wherever a run would defer them (`defer`) or always written; settled at the end.
Rows launch_to_the_cap(bool defer, const std::vector<int>& map) {
  std::vector<double> lengths(n);
  for (std::int64_t i = 0; i < n; ++i) lengths[static_cast<std::size_t>(i)] = static_cast<double>(length_of(i));
  const auto count = plane<TestSpace>("count", std::vector<double>(n, 0.0));
  const auto length = plane<TestSpace>("length", lengths);
  const detail::Bookkeeping<Mem> book{Kokkos::View<bool*, Mem>("terminated", n),
                                      Kokkos::View<std::uint8_t*, Mem>("status", n),  // zeros: running
                                      Kokkos::View<std::int64_t*, Mem>("steps_taken", n)};
  const Launch launch{TestSpace(), Countdown{}, state(count), inputs(length), book, LoopNest::per_sample, 0, max_steps};
  detail::Rows<Mem> rows{{}, {}, n};
  if (!map.empty()) {
    const Kokkos::View<detail::RowIndex*, Mem> slots("map", map.size());
    const auto host = Kokkos::create_mirror_view(slots);
    for (std::size_t j = 0; j < map.size(); ++j) host(j) = map[j];
    Kokkos::deep_copy(slots, host);
    rows = {slots, {}, static_cast<std::int64_t>(map.size())};
  }

  Rows out;
  std::int64_t done = 0, owed = 0;
  while (done < max_steps) {
    const std::int64_t steps = std::min(k, max_steps - done);
    const bool deferred = defer && done + steps < max_steps;
    if (!deferred && owed > 0) {
      detail::write_owed_steps(TestSpace(), book, rows, owed);
      owed = 0;
    }
    out.active_after.push_back(launch(rows, steps, false, {deferred, owed}));
    owed += deferred ? steps : 0;
    done += steps;
  }
  if (owed > 0) detail::write_owed_steps(TestSpace(), book, rows, owed);
  out.steps = to_host(book.steps_taken);
  out.terminated = to_host(book.terminated);
  out.status = to_host(book.status);
  out.count = to_host(count);
  return out;
}

/// What a serial count says of row i after launches up to the cap, when it is visited at all.
void expect_serial_counts(const Rows& got, const std::vector<bool>& visited) {
  for (std::int64_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::size_t>(i);
    const std::int64_t want = visited[r] ? std::min(length_of(i), max_steps) : 0;
    const bool ends = visited[r] && length_of(i) <= max_steps;
    EXPECT_EQ(got.steps[r], want) << "row " << i;
    EXPECT_EQ(got.count[r], static_cast<double>(want)) << "row " << i;
    EXPECT_EQ(got.terminated[r], ends) << "row " << i;
    EXPECT_EQ(got.status[r], ends ? status::finished : status::running) << "row " << i;
  }
  std::int64_t done = 0;
  for (const std::int64_t active : got.active_after) {
    done = std::min(done + k, max_steps);
    std::int64_t want = 0;
    for (std::int64_t i = 0; i < n; ++i) want += visited[static_cast<std::size_t>(i)] && length_of(i) > done ? 1 : 0;
    EXPECT_EQ(active, done < max_steps ? want : 0) << "after " << done << " steps";
  }
}

TEST(StepCounts, DeferredLaunchesSettleToTheSerialCounts) {
  const Rows deferred = launch_to_the_cap(true, {});
  expect_serial_counts(deferred, std::vector<bool>(n, true));
  const Rows written = launch_to_the_cap(false, {});
  EXPECT_EQ(deferred.steps, written.steps);
  EXPECT_EQ(deferred.active_after, written.active_after);
}

// A launch over every row without a map takes FusedSteps' plain path; the same rows named by an
// identity map take the general one: both must leave the same rows.
TEST(StepCounts, PlainLaunchesLeaveWhatGeneralOnesLeave) {
  std::vector<int> every_row(n);
  for (int i = 0; i < n; ++i) every_row[static_cast<std::size_t>(i)] = i;
  const Rows plain = launch_to_the_cap(true, {});
  const Rows general = launch_to_the_cap(true, every_row);
  expect_serial_counts(general, std::vector<bool>(n, true));
  EXPECT_EQ(plain.steps, general.steps);
  EXPECT_EQ(plain.count, general.count);
  EXPECT_EQ(plain.terminated, general.terminated);
  EXPECT_EQ(plain.status, general.status);
  EXPECT_EQ(plain.active_after, general.active_after);
}

TEST(StepCounts, OwedStepsGoOnlyToTheRowsTheSlotsName) {
  std::vector<int> odd_rows;
  std::vector<bool> visited(n, false);
  for (int i = 1; i < n; i += 2) {
    odd_rows.push_back(i);
    visited[static_cast<std::size_t>(i)] = true;
  }
  expect_serial_counts(launch_to_the_cap(true, odd_rows), visited);
}

}  // namespace
}  // namespace eagle::test
