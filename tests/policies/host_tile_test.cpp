// The host tile rule, from cache sizes given as data (including bogus ones), and on this host.

#include <eagle/host_caches.hpp>
#include <eagle/host_tile.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace eagle {
namespace {

CacheSizes caches(std::int64_t l2) { return {48 * 1024, l2, 8 * 1024 * 1024, "test"}; }

/// Every sample of the partition in exactly one non-empty tile.
void expect_exact_cover(const Partition& part, const TilePlan& plan) {
  std::vector<int> covered(static_cast<std::size_t>(part.size()), 0);
  for (std::int64_t t = 0; t < plan.tiles; ++t) {
    const auto [begin, end] = tile_range(part, plan, t);
    EXPECT_LT(begin, end) << "tile " << t << " is empty";
    for (std::int64_t i = begin; i < end; ++i) ++covered[static_cast<std::size_t>(i - part.begin)];
  }
  for (std::size_t i = 0; i < covered.size(); ++i) EXPECT_EQ(covered[i], 1) << "sample " << part.begin + i;
}

TEST(TileRule, CoversThePartitionExactly) {
  const TileRule rule;
  for (std::int64_t begin : {0, 5, 1000}) {
    for (std::int64_t size : {0, 1, 15, 16, 17, 1000, 4097, 100003}) {
      const Partition part(begin, begin + size, begin + size + 3);
      for (std::int64_t bytes : {4, 36, 100, 5000}) {
        for (std::int64_t group : {1, 6, 48})
          expect_exact_cover(part, rule.plan(part, bytes, caches(1024 * 1024), 0, group));
      }
    }
  }
}

TEST(TileRule, SizedFromTheL2Share) {
  const TilePlan plan = TileRule{}.plan(Partition(0, 100000, 100000), 36, caches(128 * 1024));
  EXPECT_EQ(plan.lanes, 512);  // 128 KiB * 0.25 / 36 B = 910 -> the tile size below, 512
  EXPECT_EQ(plan.tiles, (100000 + 511) / 512);
  EXPECT_NE(plan.why.find("test L2 128 KiB"), std::string::npos) << plan.why;
  EXPECT_EQ(TileRule{}.plan(Partition(0, 100000, 100000), 36, caches(1024 * 1024)).lanes, max_tile_lanes);
}

TEST(TileRule, SizedTilesHoldWholeGroups) {
  const Partition part(0, 100000, 100000);
  // 1024 lanes from the L2 share; in groups of 48 lanes (6 AVX-512 packs of 8), 21 groups.
  const TilePlan plan = TileRule{}.plan(part, 36, caches(1024 * 1024), 0, 48);
  EXPECT_EQ(plan.lanes, 1008);
  EXPECT_EQ(plan.tiles, (100000 + 1007) / 1008);
  EXPECT_NE(plan.why.find("in groups of 48 lanes"), std::string::npos) << plan.why;
  EXPECT_EQ(TileRule{}.plan(part, 36, caches(1024 * 1024), 0, 16).lanes, 1024);     // whole groups already
  EXPECT_EQ(TileRule{}.plan(part, 1 << 20, caches(1024 * 1024), 0, 48).lanes, 48);  // at least one group
  EXPECT_EQ(TileRule{}.plan(part, 36, caches(1024 * 1024), 64, 48).lanes, 64);      // an override as asked
  EXPECT_THROW(TileRule{}.plan(part, 36, caches(1024 * 1024), 0, 0), std::invalid_argument);
}

TEST(TileRule, ShrinksAsSamplesGrow) {
  const Partition part(0, 1000000, 1000000);
  std::int64_t previous = 1 << 30;
  for (std::int64_t bytes : {4, 36, 400, 2000, 8000, 20000}) {
    const TilePlan plan = TileRule{}.plan(part, bytes, caches(1024 * 1024));
    EXPECT_LE(plan.lanes, previous) << bytes << " bytes";
    EXPECT_EQ(plan.lanes, tile_rung_at_most(plan.lanes));  // a tile size
    previous = plan.lanes;
  }
  EXPECT_EQ(previous, min_tile_lanes);
}

TEST(TileRule, BogusCachesFallBackToTheDefault) {
  const Partition part(0, 100000, 100000);
  const TilePlan sane = TileRule{}.plan(part, 400, caches(512 * 1024));
  for (std::int64_t bogus : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{12}, std::int64_t{508} << 20}) {
    const TilePlan plan = TileRule{}.plan(part, 400, caches(bogus));
    EXPECT_EQ(plan.lanes, sane.lanes) << bogus;
    EXPECT_NE(plan.why.find("not believed"), std::string::npos) << plan.why;
  }
}

TEST(TileRule, HugeSamplesStillGetTheSmallestTile) {
  EXPECT_EQ(TileRule{}.plan(Partition(0, 100, 100), 1 << 20, caches(1024 * 1024)).lanes, min_tile_lanes);
}

TEST(TileRule, ZeroAndOneSample) {
  EXPECT_EQ(TileRule{}.plan(Partition(0, 0, 0), 36, caches(1024 * 1024)).tiles, 0);
  EXPECT_EQ(TileRule{}.plan(Partition(7, 7, 9), 36, caches(1024 * 1024)).tiles, 0);
  EXPECT_EQ(TileRule{}.plan(Partition(0, 1, 1), 36, caches(1024 * 1024)).tiles, 1);
}

TEST(TileRule, OverrideWinsRoundedToACompiledTile) {
  const Partition part(0, 1000, 1000);
  const TilePlan exact = TileRule{}.plan(part, 36, caches(1024 * 1024), 64);
  EXPECT_EQ(exact.lanes, 64);
  EXPECT_EQ(exact.tiles, 16);
  EXPECT_EQ(exact.why, "override: 64 lanes asked");
  const TilePlan rounded = TileRule{}.plan(part, 36, caches(1024 * 1024), 100);
  EXPECT_EQ(rounded.lanes, 64);
  EXPECT_NE(rounded.why.find("tile of 64"), std::string::npos) << rounded.why;
  EXPECT_EQ(TileRule{}.plan(part, 36, caches(1024 * 1024), 1).lanes, min_tile_lanes);
  EXPECT_EQ(TileRule{}.plan(part, 36, caches(1024 * 1024), 1 << 20).lanes, max_tile_lanes);
}

TEST(TileRule, BadInputIsRefused) {
  EXPECT_THROW(Partition(5, 4, 10), std::invalid_argument);
  EXPECT_THROW(Partition(-1, 4, 10), std::invalid_argument);
  EXPECT_THROW(Partition(0, 11, 10), std::invalid_argument);
  EXPECT_THROW(TileRule{}.plan(Partition(0, 10, 10), 0, caches(1024 * 1024)), std::invalid_argument);
}

TEST(HostTile, EnvironmentOverrideMustBeAPositiveIntegerThatFits) {
  const auto refusal = [](const char* value) -> std::string {
    ::setenv("EAGLE_TILE_LANES", value, 1);
    std::string what;
    try {
      tile_lanes_from_environment();
    } catch (const std::invalid_argument& e) {
      what = e.what();
    }
    ::unsetenv("EAGLE_TILE_LANES");
    return what;
  };
  for (const char* bad : {"abc", "0", "-4", "12x", "99999999999999999999"}) {
    EXPECT_EQ(refusal(bad), std::string("eagle: EAGLE_TILE_LANES must be a positive integer, got '") + bad + "'");
  }
  EXPECT_EQ(refusal("256"), "");
  ::setenv("EAGLE_TILE_LANES", "9223372036854775807", 1);  // the largest that fits: read as it is
  EXPECT_EQ(tile_lanes_from_environment(), 9223372036854775807LL);
  ::unsetenv("EAGLE_TILE_LANES");
}

// The public API on this host's real caches (hwloc), as the seed calls it, against the L2 size
// glibc reports (sysconf, read from the CPU apart from hwloc) and the rule worked by hand: the
// largest power of two from 16 to 1024 lanes whose 1000 bytes each fit a quarter of L2.
TEST(HostTile, TileCountOnThisHostMatchesTheL2ByHand) {
  const long l2 = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 < 64 * 1024 || l2 > 64 * 1024 * 1024) GTEST_SKIP() << "glibc reports no believable L2 (" << l2 << ")";
  std::int64_t lanes = 16;
  while (lanes * 2 <= 1024 && lanes * 2 * 1000 <= l2 / 4) lanes *= 2;
  const Partition part(0, 100000, 100000);
  EXPECT_EQ(tile_size(part, 1000), lanes) << "L2 " << l2 << " bytes";
  EXPECT_EQ(tile_count(part, 1000), (100000 + lanes - 1) / lanes);
  EXPECT_EQ(tile_count(Partition(0, 0, 0), 1000), 0);
  EXPECT_EQ(tile_count(Partition(5, 6, 10), 1000), 1);
}

TEST(Partition, BalancedPartsCoverTheBatchInOrder) {
  for (std::int64_t total : {0, 1, 2, 7, 100, 1001}) {
    for (std::int64_t ranks : {1, 2, 3, 8}) {
      std::int64_t next = 0;
      for (std::int64_t r = 0; r < ranks; ++r) {
        const Partition p = Partition::balanced(r, ranks, total);
        EXPECT_EQ(p.begin, next);
        EXPECT_EQ(p.total, total);
        EXPECT_TRUE(p.size() == total / ranks || p.size() == total / ranks + 1);
        EXPECT_EQ(p.size(), total / ranks + (r < total % ranks ? 1 : 0));
        next = p.end;
      }
      EXPECT_EQ(next, total);
    }
  }
  EXPECT_EQ(Partition::balanced(2, 3, 2).size(), 0);  // a rank with nothing to do
  EXPECT_THROW(Partition::balanced(3, 3, 10), std::invalid_argument);
}

}  // namespace
}  // namespace eagle
