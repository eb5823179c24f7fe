#pragma once
// The host tile: how many samples one work item on a host execution space takes. Its group of lane
// packs streams the tile's samples through registers, refilling lanes as samples finish; once the
// tile has no sample left, lanes idle until its last ones finish, so long tiles waste less (a batch
// of spread lengths, AVX-512: 256 lanes 1.4x the hand-written limit, 1024 lanes 1.1x). The tile's samples
// (state, inputs, bookkeeping) stay within a share of the per-core L2, where the group's loads and
// write-backs find them. Pure logic: the cache sizes come in as data (read with hwloc in
// host_caches.hpp), so bogus data can be tested.

#include <eagle/partition.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace eagle {

/// Per-core data cache sizes in bytes (0: unknown; a cache shared by several cores counts for its
/// share per core) and where they came from.
struct CacheSizes {
  std::int64_t l1d = 0;         ///< level 1 data cache
  std::int64_t l2 = 0;          ///< level 2 cache, the one the tile rule sizes tiles by
  std::int64_t l3 = 0;          ///< level 3 cache
  std::string source = "none";  ///< "hwloc" (or why hwloc failed); "none" where not read
};

/// How a tile was sized: lanes per tile, tiles in the partition, and why.
struct TilePlan {
  /// Samples per tile: a power of two in [min_tile_lanes, max_tile_lanes] where asked; sized from
  /// the caches, that power of two rounded down to a multiple of the tile's group (at least one).
  std::int64_t lanes = 0;
  std::int64_t tiles = 0;  ///< tiles covering the partition, the last possibly shorter
  std::string why;         ///< how the size was chosen: the L2 and its source, or the override asked
};

/// Tile sizes are powers of two from min_tile_lanes to max_tile_lanes: a tile is the unit of work
/// a host thread takes, and the samples its group of lane packs refills from.
inline constexpr std::int64_t min_tile_lanes = 16;
inline constexpr std::int64_t max_tile_lanes = 1024;

/// The largest tile size not above `lanes` (at least the smallest).
constexpr std::int64_t tile_rung_at_most(std::int64_t lanes) {
  std::int64_t rung = min_tile_lanes;
  while (rung * 2 <= lanes && rung < max_tile_lanes) rung *= 2;
  return rung;
}

/// The tile rule. Defaults measured on this project's 2-core machines (docs/STEPS_AND_NESTS.md, the host tile).
struct TileRule {
  /// The fraction of the per-core L2 cache a tile's samples may fill.
  double l2_fraction = 0.25;
  /// L2 caches outside [min_l2, max_l2] bytes are not believed; default_l2 is used then.
  std::int64_t min_l2 = 64 * 1024;
  std::int64_t max_l2 = 64 * 1024 * 1024;  ///< the largest L2 believed, in bytes
  std::int64_t default_l2 = 512 * 1024;    ///< the L2 assumed, in bytes, where the one given is not believed

  /// Tiles of the partition for samples whose tile working set is `bytes_per_sample`;
  /// `lanes_override` > 0 asks for a tile size (API or EAGLE_TILE_LANES), rounded down to a
  /// tile size. `group`: the lanes the tile steps together (packs in flight x pack width). A tile
  /// that is not a multiple of it ends on a group part empty, which steps its empty packs as
  /// well: 1024 lanes in groups of 48 (AVX-512) cost a uniform batch 5 % of its time.
  TilePlan plan(const Partition& part, std::int64_t bytes_per_sample, const CacheSizes& caches,
                std::int64_t lanes_override = 0, std::int64_t group = 1) const {
    if (bytes_per_sample <= 0) {
      throw std::invalid_argument("eagle::TileRule::plan: bytes_per_sample must be positive, got " +
                                  std::to_string(bytes_per_sample));
    }
    if (group <= 0) {
      throw std::invalid_argument("eagle::TileRule::plan: group must be positive, got " + std::to_string(group));
    }
    TilePlan p;
    if (lanes_override > 0) {
      p.lanes = tile_rung_at_most(lanes_override);
      p.why = "override: " + std::to_string(lanes_override) + " lanes asked";
      if (p.lanes != lanes_override) p.why += ", tile of " + std::to_string(p.lanes);
    } else {
      std::int64_t l2 = caches.l2;
      std::string cache_note = caches.source + " L2 " + std::to_string(l2 / 1024) + " KiB";
      if (l2 < min_l2 || l2 > max_l2) {
        cache_note = caches.source + " L2 of " + std::to_string(l2) + " bytes not believed, default " +
                     std::to_string(default_l2 / 1024) + " KiB";
        l2 = default_l2;
      }
      const auto fit = static_cast<std::int64_t>(l2_fraction * static_cast<double>(l2)) / bytes_per_sample;
      p.lanes = tile_rung_at_most(fit);
      p.why =
          cache_note + " x " + std::to_string(l2_fraction) + " / " + std::to_string(bytes_per_sample) + " B per sample";
      if (p.lanes % group != 0) {
        p.lanes = std::max(group, p.lanes / group * group);
        p.why += ", in groups of " + std::to_string(group) + " lanes";
      }
    }
    p.tiles = (part.size() + p.lanes - 1) / p.lanes;
    return p;
  }
};

/// Samples in tile `t` of a plan: [begin, end) within the partition, the last tile possibly shorter.
inline std::pair<std::int64_t, std::int64_t> tile_range(const Partition& part, const TilePlan& plan, std::int64_t t) {
  const std::int64_t begin = part.begin + t * plan.lanes;
  return {begin, std::min(part.end, begin + plan.lanes)};
}

/// Steps a host tile launch asks for when eagle picks, the largest K of the host: each launch
/// writes every running sample back and loads it into a lane again, which costs tens of the
/// oscillator's steps (eagle-bench-oscillator's eagle_tile_fixed_k rows measure it), so launches
/// fall under 1 % of the run only at thousands of steps. A progress report then comes every 8192
/// steps.
inline constexpr std::int64_t tile_steps_per_launch = 8192;

}  // namespace eagle
