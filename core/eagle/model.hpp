#pragma once
// What eagle expects of a model: one step body, written once, that knows nothing of K, tiles or
// execution spaces.
//
//   struct MyModel {
//     static constexpr const char* name = "my_model";       // kernel labels: eagle::my_model[K=16]
//     using scalar_type = double;                           // type of every state and input plane
//     enum State : int { x, v, state_count };               // per-sample mutable state (Mutable)
//     enum Input : int { omega, input_count };              // per-sample read-only inputs (Scalar)
//     double dt;                                            // uniform parameters (Param): members
//     template <class S, class I>
//     KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in) const;  // one step; true = terminated
//   };
//
// `step` reads and writes `s[x]`, reads `in[omega]`, and returns the sample's terminated flag
// (Terminated). It is called once per step of a sample that is not yet terminated.
//
// A step body that is branch-free arithmetic (+ - * /, comparisons, eagle::select) may also say
//     static constexpr bool lane_packs = true;
// and return `auto`: the host tile then runs it on SIMD packs of lanes (eagle/pack.hpp). A step
// whose arithmetic is one long dependency chain (Runge-Kutta stages) may also say
//     static constexpr int packs_in_flight = 3;
// the packs (1 to 8) the tile advances side by side to hide that chain, measured on the model;
// by default (0) as many as the vector registers hold beside each pack's state, inputs and mask.
//
// A step that needs to know where it is (a per-sample random stream keyed by sample and step)
// takes a third argument:
//     KOKKOS_INLINE_FUNCTION bool step(S& s, const I& in, const eagle::StepContext& at) const;
// `at.sample` is the sample's index in the caller's batch (in the whole batch over MPI ranks),
// `at.step` the step it is taking, 0 for its first: the same on every nest, K, compaction, revival
// and resume. Such a model runs on the tile's single lanes (a pack of lanes would need a pack of
// 64-bit indices and step counts beside its state): drop `lane_packs` or the context.
// `auto` times the model's step on copies of the batch's samples before and during a run; those
// steps are rehearsals (`at.rehearsal()`, their sample indices negative): a step that writes
// outside its sample's state (a saved trajectory, an observer) writes nothing in a rehearsal.
//
// A model whose steps write memory of their own beyond the state (a saved trajectory) names it,
// so that checkpoints carry it and a run resumes into memory at another address:
//     eagle::WrittenMemory written_memory() const;  // its address and size, in the run's memory space
//     MyModel without_addresses() const;            // itself with every address cleared
// A checkpoint holds those bytes and a resume writes them back; the resume compares the model's
// parameters through without_addresses(), so a resumed process with other addresses matches.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace eagle {

/// One sample's state or inputs, held in registers while a launch runs its steps.
template <class T, int N>
using Values = Kokkos::Array<T, static_cast<std::size_t>(N)>;

/// Where a step is: the sample's index in the caller's batch and the step it takes (0: its first).
struct StepContext {
  std::int64_t sample;  ///< the sample's index in the caller's batch (over MPI ranks: in the whole batch)
  std::int64_t step;    ///< the step the sample is taking, 0 for its first

  /// Whether this is a rehearsal: a step of a copy of a sample that `auto` times, whose writes
  /// outside the sample's state must not happen (its sample index is negative).
  KOKKOS_INLINE_FUNCTION bool rehearsal() const { return sample < 0; }
};

/// Memory a model's steps write beyond the state planes, in the run's memory space: what a
/// checkpoint carries for it.
struct WrittenMemory {
  void* data = nullptr;   ///< its first byte
  std::size_t bytes = 0;  ///< its size
};

namespace detail {
/// Whether Model names memory its steps write (written_memory() and without_addresses()).
template <class Model, class = void>
struct WritesMemory : std::false_type {};
template <class Model>
struct WritesMemory<Model, std::void_t<decltype(std::declval<const Model&>().written_memory()),
                                       decltype(std::declval<const Model&>().without_addresses())>>
    : std::integral_constant<
          bool, std::is_same<decltype(std::declval<const Model&>().written_memory()), WrittenMemory>::value &&
                    std::is_same<decltype(std::declval<const Model&>().without_addresses()), Model>::value> {};
}  // namespace detail

/// Compile-time facts about a model, checked once so errors read well.
template <class Model>
struct ModelTraits {
  using scalar_type = typename Model::scalar_type;                          ///< every plane's element type
  static constexpr int state_count = static_cast<int>(Model::state_count);  ///< state fields per sample
  static constexpr int input_count = static_cast<int>(Model::input_count);  ///< input fields per sample (0: none)

  static_assert(std::is_floating_point<scalar_type>::value, "eagle: Model::scalar_type must be a floating-point type");
  static_assert(state_count > 0, "eagle: a model needs at least one state field");
  static_assert(input_count >= 0, "eagle: Model::input_count cannot be negative");
  static_assert(std::is_trivially_copyable<Model>::value,
                "eagle: a model is copied to the device; it must be trivially copyable");

  /// The model's name, as kernel labels, reports and checkpoints give it.
  static const char* name() { return Model::name; }
};

namespace detail {
template <class Model, class = void>
struct declares_lane_packs : std::false_type {};
template <class Model>
struct declares_lane_packs<Model, std::void_t<decltype(Model::lane_packs)>>
    : std::integral_constant<bool, Model::lane_packs> {};
}  // namespace detail

namespace detail {
template <class Model, class = void>
struct reads_context : std::false_type {};
template <class Model>
struct reads_context<
    Model, std::void_t<decltype(std::declval<const Model&>().step(
               std::declval<Values<typename Model::scalar_type, static_cast<int>(Model::state_count)>&>(),
               std::declval<const Values<typename Model::scalar_type, static_cast<int>(Model::input_count)>&>(),
               std::declval<const StepContext&>()))>> : std::true_type {};
}  // namespace detail

/// Whether the model's step body takes an eagle::StepContext.
template <class Model>
inline constexpr bool takes_context = detail::reads_context<Model>::value;

/// Whether the model's step body may run on SIMD packs of lanes (never with a context).
template <class Model>
inline constexpr bool uses_lane_packs = detail::declares_lane_packs<Model>::value && !takes_context<Model>;

namespace detail {
/// One step of a model, with its context when its step body takes one.
template <class Model, class S, class I>
KOKKOS_FORCEINLINE_FUNCTION auto take_step(const Model& model, S& s, const I& in, std::int64_t sample,
                                           std::int64_t step) {
  if constexpr (takes_context<Model>)
    return model.step(s, in, StepContext{sample, step});
  else
    return model.step(s, in);
}
}  // namespace detail

namespace detail {
template <class Model, class = void>
struct declares_packs_in_flight : std::integral_constant<int, 0> {};
template <class Model>
struct declares_packs_in_flight<Model, std::void_t<decltype(Model::packs_in_flight)>>
    : std::integral_constant<int, Model::packs_in_flight> {};
}  // namespace detail

/// Packs the host tile advances side by side for this model; 0: as the register file allows.
template <class Model>
inline constexpr int packs_in_flight = detail::declares_packs_in_flight<Model>::value;

}  // namespace eagle
