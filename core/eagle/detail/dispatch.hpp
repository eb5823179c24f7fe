#pragma once
// The one place a runtime step count becomes a template K: the smallest ladder rung that holds it.

#include <eagle/ladder.hpp>

#include <type_traits>
#include <utility>

namespace eagle::detail {

template <class F, int... Rungs>
void with_rung_impl(int rung, F& f, std::integer_sequence<int, Rungs...>) {
  static_cast<void>(((rung == Rungs ? (f(std::integral_constant<int, Rungs>{}), true) : false) || ...));
}

/// Calls `f(std::integral_constant<int, K>{})` for K = rung_for(k); 1 <= k <= max_steps_per_launch.
template <class F>
void with_rung(int k, F&& f) {
  with_rung_impl(rung_for(k), f, Ladder{});
}

}  // namespace eagle::detail
