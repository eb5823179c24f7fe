#pragma once
// Per-sample data lives as planes, structure of arrays: one rank-1 View per field, the sample
// index contiguous. Coalesced on GPUs, unit-stride lanes on CPUs, cheap to permute.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace eagle {

/// N planes of the same type and memory space; `T` is const for read-only inputs.
template <class T, int N, class MemorySpace>
struct Fields {
  using value_type = T;                              ///< a plane's element type (const for inputs)
  using memory_space = MemorySpace;                  ///< where every plane lives
  using plane_type = Kokkos::View<T*, MemorySpace>;  ///< one plane: a rank-1 View, one element per sample
  static constexpr int count = N;                    ///< the number of planes

  /// The planes, in the model's field order.
  Kokkos::Array<plane_type, static_cast<std::size_t>(N)> planes;

  /// Plane `f` (a field index of the model).
  KOKKOS_INLINE_FUNCTION const plane_type& operator[](int f) const { return planes[f]; }
};

namespace detail {

/// Throws std::invalid_argument unless every plane is contiguous. Planes are unit-stride Views;
/// a strided one (a column of a LayoutRight matrix) would otherwise abort the process in Kokkos'
/// layout conversion, where no caller can catch it.
template <class... Views>
void require_contiguous(const char* function, const Views&... planes) {
  int index = 0;
  const auto check = [&](const auto& plane) {
    using View = std::decay_t<decltype(plane)>;
    if constexpr (std::is_same<typename View::array_layout, Kokkos::LayoutStride>::value) {
      if (plane.stride(0) != 1) {
        throw std::invalid_argument(std::string(function) + ": plane " + std::to_string(index) + " ('" + plane.label() +
                                    "') has stride " + std::to_string(plane.stride(0)) +
                                    "; eagle needs unit-stride planes (rank-1 Views, or LayoutLeft columns): copy "
                                    "a LayoutRight column into a View of its own");
      }
    }
    ++index;
  };
  (check(planes), ...);
}

}  // namespace detail

/// The mutable state planes of a batch, in the model's field order: `eagle::state(x, v, t)`.
/// Throws std::invalid_argument for a strided plane.
template <class View, class... Views>
auto state(const View& first, const Views&... rest) {
  using T = typename View::non_const_value_type;
  using Mem = typename View::memory_space;
  static_assert(View::rank == 1, "eagle::state: every state plane must be a rank-1 View");
  detail::require_contiguous("eagle::state", first, rest...);
  return Fields<T, 1 + sizeof...(Views), Mem>{{first, rest...}};
}

/// The read-only input planes of a batch, in the model's field order: `eagle::inputs(omega)`.
/// Throws std::invalid_argument for a strided plane.
template <class View, class... Views>
auto inputs(const View& first, const Views&... rest) {
  using T = const typename View::non_const_value_type;
  using Mem = typename View::memory_space;
  static_assert(View::rank == 1, "eagle::inputs: every input plane must be a rank-1 View");
  detail::require_contiguous("eagle::inputs", first, rest...);
  return Fields<T, 1 + sizeof...(Views), Mem>{{first, rest...}};
}

/// For models without per-sample inputs: `eagle::no_inputs`.
struct NoInputs {};
inline constexpr NoInputs no_inputs{};

namespace detail {

/// The input planes a run reads, whatever the caller passed (`eagle::inputs(...)` or `no_inputs`).
template <class T, int N, class Mem, class Given>
Fields<const T, N, Mem> input_fields(const Given& given) {
  if constexpr (std::is_same<Given, NoInputs>::value) {
    static_assert(N == 0, "eagle: this model declares per-sample inputs; pass eagle::inputs(...)");
    return {};
  } else {
    static_assert(Given::count == N, "eagle: eagle::inputs(...) must pass exactly Model::input_count planes");
    static_assert(std::is_same<typename Given::value_type, const T>::value,
                  "eagle: input planes must hold the model's scalar_type");
    static_assert(std::is_same<typename Given::memory_space, Mem>::value,
                  "eagle: input planes must live in the same memory space as the state planes");
    return given;
  }
}

/// Throws unless every plane has `n` samples; `what` names the argument in the message.
template <class F>
void check_extents(const char* function, const char* what, const F& fields, std::int64_t n) {
  for (int f = 0; f < F::count; ++f) {
    const auto extent = static_cast<std::int64_t>(fields.planes[f].extent(0));
    if (extent != n) {
      throw std::invalid_argument(std::string(function) + ": " + what + " plane " + std::to_string(f) + " ('" +
                                  fields.planes[f].label() + "') has " + std::to_string(extent) +
                                  " samples, expected " + std::to_string(n) + " like the first state plane");
    }
  }
}

}  // namespace detail
}  // namespace eagle
