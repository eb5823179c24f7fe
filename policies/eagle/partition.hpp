#pragma once
// A rank's share of a batch: MPI runs, the host tile plan and eagle-simulate all split batches so.

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace eagle {

/// A rank's contiguous part [begin, end) of a batch of `total` samples.
struct Partition {
  std::int64_t begin = 0;  ///< the part's first sample, as an index into the whole batch
  std::int64_t end = 0;    ///< one past the part's last sample
  std::int64_t total = 0;  ///< samples in the whole batch

  /// The part [begin_, end_) of `total_` samples; throws std::invalid_argument unless
  /// 0 <= begin_ <= end_ <= total_.
  Partition(std::int64_t begin_, std::int64_t end_, std::int64_t total_) : begin(begin_), end(end_), total(total_) {
    if (begin < 0 || begin > end || end > total) {
      throw std::invalid_argument("eagle::Partition: need 0 <= begin <= end <= total, got begin " +
                                  std::to_string(begin) + ", end " + std::to_string(end) + ", total " +
                                  std::to_string(total));
    }
  }
  /// Samples in the part.
  std::int64_t size() const { return end - begin; }

  /// Part `rank` of `ranks` contiguous parts of a batch of `total` samples, balanced: the first
  /// total % ranks parts hold one sample more. A part may be empty.
  static Partition balanced(std::int64_t rank, std::int64_t ranks, std::int64_t total) {
    if (ranks <= 0 || rank < 0 || rank >= ranks || total < 0) {
      throw std::invalid_argument("eagle::Partition::balanced: need 0 <= rank < ranks and total >= 0, got rank " +
                                  std::to_string(rank) + ", ranks " + std::to_string(ranks) + ", total " +
                                  std::to_string(total));
    }
    const std::int64_t base = total / ranks, extra = total % ranks;
    const std::int64_t begin = rank * base + std::min(rank, extra);
    return Partition(begin, begin + base + (rank < extra ? 1 : 0), total);
  }
};

}  // namespace eagle
