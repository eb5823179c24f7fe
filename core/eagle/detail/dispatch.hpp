#pragma once
// The one place a runtime value becomes a template parameter: the launch's K rung, from the
// compiled ladder.

#include <eagle/ladder.hpp>

#include <type_traits>
#include <utility>

namespace eagle::detail {

template <class F, int... Values>
void with_compiled_impl(long long value, F& f, std::integer_sequence<int, Values...>) {
  static_cast<void>(((value == Values ? (f(std::integral_constant<int, Values>{}), true) : false) || ...));
}

/// Calls `f(std::integral_constant<int, K>{})` for K = rung_for(k), k >= 1.
template <class F>
void with_rung(long long k, F&& f) {
  with_compiled_impl(rung_for(k), f, Ladder{});
}

}  // namespace eagle::detail
