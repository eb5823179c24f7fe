#pragma once
// How many steps each launch fuses. A pure description: no Kokkos, testable on its own.

#include <stdexcept>
#include <string>

namespace eagle {

/// The steps-per-launch setting of a deployed model: a fixed K (1 is the default).
class Steps {
 public:
  enum class Kind { fixed };

  /// Every launch fuses `k` steps (the last one is cut short at the cap).
  static Steps fixed(int k) {
    if (k <= 0) {
      throw std::invalid_argument("eagle::Steps::fixed: steps per launch must be positive, got " +
                                  std::to_string(k));
    }
    return Steps(Kind::fixed, k);
  }

  Kind kind() const { return kind_; }
  /// The fixed K.
  int k() const { return k_; }

  /// "k=16", as reports and tables print it.
  std::string describe() const { return "k=" + std::to_string(k_); }

 private:
  Steps(Kind kind, int k) : kind_(kind), k_(k) {}
  Kind kind_;
  int k_;
};

}  // namespace eagle
