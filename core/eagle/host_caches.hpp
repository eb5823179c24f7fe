#pragma once
// The host's per-core data cache sizes, read with hwloc once per process.

#include <eagle/host_tile.hpp>

#include <hwloc.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#if HWLOC_API_VERSION < 0x00020000
#error "eagle needs hwloc 2.x"
#endif

namespace eagle {
namespace detail {

/// Walks from the first processing unit up through its data caches; a cache shared by several
/// cores counts for its share per core.
inline CacheSizes read_hwloc_caches() {
  CacheSizes caches;
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) {
    caches.source = "hwloc (init failed)";
    return caches;
  }
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    caches.source = "hwloc (load failed)";
    return caches;
  }
  caches.source = "hwloc";
  for (hwloc_obj_t obj = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PU, 0); obj != nullptr; obj = obj->parent) {
    if (!hwloc_obj_type_is_dcache(obj->type) || obj->attr == nullptr) continue;
    const int cores = hwloc_get_nbobjs_inside_cpuset_by_type(topology, obj->cpuset, HWLOC_OBJ_CORE);
    const auto per_core = static_cast<std::int64_t>(obj->attr->cache.size) / (cores > 0 ? cores : 1);
    switch (obj->attr->cache.depth) {
      case 1:
        caches.l1d = per_core;
        break;
      case 2:
        caches.l2 = per_core;
        break;
      case 3:
        caches.l3 = per_core;
        break;
      default:
        break;
    }
  }
  hwloc_topology_destroy(topology);
  return caches;
}

}  // namespace detail

/// This host's caches, read once per process.
inline const CacheSizes& host_caches() {
  static const CacheSizes caches = detail::read_hwloc_caches();
  return caches;
}

/// EAGLE_TILE_LANES from the environment, or 0 when unset; throws when it is not a positive integer.
inline std::int64_t tile_lanes_from_environment() {
  const char* text = std::getenv("EAGLE_TILE_LANES");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const long long lanes = std::strtoll(text, &end, 10);
  if (*end != '\0' || lanes <= 0 || errno == ERANGE) {
    throw std::invalid_argument(std::string("eagle: EAGLE_TILE_LANES must be a positive integer, got '") + text + "'");
  }
  return lanes;
}

/// The tile plan for a partition on this host (hwloc caches, EAGLE_TILE_LANES honoured), for a
/// tile stepping `group` lanes together (TileRule::plan).
inline TilePlan host_tile_plan(const Partition& part, std::int64_t bytes_per_sample, std::int64_t lanes_override = 0,
                               const TileRule& rule = {}, std::int64_t group = 1) {
  const std::int64_t lanes = lanes_override > 0 ? lanes_override : tile_lanes_from_environment();
  return rule.plan(part, bytes_per_sample, host_caches(), lanes, group);
}

/// Samples per tile on this host, as the seed's HostTeam.tile_size.
inline std::int64_t tile_size(const Partition& part, std::int64_t bytes_per_sample) {
  return host_tile_plan(part, bytes_per_sample).lanes;
}

/// Tiles covering the partition on this host, as the seed's HostTeam.tile_count.
inline std::int64_t tile_count(const Partition& part, std::int64_t bytes_per_sample) {
  return host_tile_plan(part, bytes_per_sample).tiles;
}

}  // namespace eagle
