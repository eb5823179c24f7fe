#pragma once
// How many steps each launch fuses, and which loop nest runs them. Pure descriptions: no Kokkos.

#include <stdexcept>
#include <string>

namespace eagle {

/// The steps-per-launch setting of a deployed model: a fixed K, or automatic (the default).
class Steps {
 public:
  /// Whether every launch fuses the same K (fixed) or eagle picks K launch by launch (automatic).
  enum class Kind { fixed, automatic };

  /// Every launch fuses `k` steps (the last one is cut short at the cap).
  static Steps fixed(long long k) {
    if (k <= 0) {
      throw std::invalid_argument("eagle::Steps::fixed: steps per launch must be positive, got " + std::to_string(k));
    }
    return Steps(Kind::fixed, k);
  }

  /// eagle picks K launch by launch (see auto_steps.hpp and host_tile.hpp).
  static Steps automatic() { return Steps(Kind::automatic, 0); }

  /// Fixed or automatic.
  Kind kind() const { return kind_; }
  /// The fixed K; 0 when automatic.
  long long k() const { return k_; }

  /// "k=16" or "auto", as reports and tables print it.
  std::string describe() const { return kind_ == Kind::automatic ? "auto" : "k=" + std::to_string(k_); }

 private:
  Steps(Kind kind, long long k) : kind_(kind), k_(k) {}
  Kind kind_;
  long long k_;
};

/// Which loop nest runs a launch's steps.
enum class LoopNest {
  space_default,  ///< the tile on host execution spaces, per sample elsewhere
  per_sample,     ///< one sample per work item, its state in registers for the launch's steps
  tile,           ///< host only: a tile of samples per work item, steps outside, lanes inside (SIMD)
};

inline const char* describe(LoopNest nest) {
  switch (nest) {
    case LoopNest::per_sample:
      return "per-sample";
    case LoopNest::tile:
      return "tile";
    default:
      return "space default";
  }
}

}  // namespace eagle
