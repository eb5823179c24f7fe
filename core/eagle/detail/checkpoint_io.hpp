#pragma once
// Moving a run's planes in and out of a host-side eagle::Checkpoint.

#include <eagle/checkpoint.hpp>
#include <eagle/fields.hpp>
#include <eagle/model.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#endif

namespace eagle::detail {

/// A plane's values on the host, as a vector of `X` (the plane's type, or raw bytes), copied on the
/// run's execution space instance.
template <class X, class ExecSpace, class View>
std::vector<X> host_values(const ExecSpace& exec, const View& view) {
  using Value = typename View::non_const_value_type;
  const Kokkos::View<Value*, Kokkos::HostSpace> host(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "eagle::host_values"), view.extent(0));
  Kokkos::deep_copy(exec, host, view);
  exec.fence();  // the host reads it next
  std::vector<X> out(host.extent(0) * sizeof(Value) / sizeof(X));
  if (!out.empty()) std::memcpy(out.data(), host.data(), out.size() * sizeof(X));
  return out;
}

/// Fills a plane from host values of `X` holding exactly its bytes, copied on the run's instance.
template <class X, class ExecSpace, class View>
void load_values(const ExecSpace& exec, const View& view, const std::vector<X>& values) {
  const auto host = Kokkos::create_mirror_view(view);
  if (!values.empty()) std::memcpy(host.data(), values.data(), values.size() * sizeof(X));
  Kokkos::deep_copy(exec, view, host);
  exec.fence();  // the host mirror goes out of scope
}

/// CRC-32 over the bytes of every plane, in order: a resume must read the same inputs.
template <class ExecSpace, class T, int N, class Mem>
std::uint32_t planes_crc(const ExecSpace& exec, const Fields<T, N, Mem>& fields) {
  std::uint32_t crc = 0;
  for (int f = 0; f < N; ++f) {
    const std::vector<unsigned char> bytes = host_values<unsigned char>(exec, fields.planes[f]);
    crc = crc32(bytes.data(), bytes.size(), crc);
  }
  return crc;
}

/// CRC-32 of a model's uniform parameters: its bytes, with any padding between members cleared
/// first (padding holds whatever the memory held, and would make two equal models differ), and
/// without the addresses of memory it writes (another process has other addresses).
template <class Model>
std::uint32_t parameters_crc(const Model& model) {
  static_assert(std::is_trivially_copyable<Model>::value, "eagle: models are trivially copyable");
  Model copy = model;
  if constexpr (WritesMemory<Model>::value) copy = model.without_addresses();
#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
  __builtin_clear_padding(&copy);
#endif
#endif
  unsigned char bytes[sizeof(Model)];
  std::memcpy(bytes, &copy, sizeof(Model));
  return crc32(bytes, sizeof(Model));
}

/// The model's C++ type as the compiler names it (demangled where the ABI allows), and its size:
/// what tells apart two models that share a `name`.
template <class Model>
std::string model_type_of() {
  const char* mangled = typeid(Model).name();
  std::string type = mangled;
#if __has_include(<cxxabi.h>)
  int status = 0;
  char* readable = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  if (status == 0 && readable != nullptr) type = readable;
  std::free(readable);
#endif
  return type + " (" + std::to_string(sizeof(Model)) + " bytes)";
}

/// Throws unless the checkpoint belongs to this run: same model, shapes, cap, steps and inputs.
inline void require_same_run(const char* function, const std::string& path, const Checkpoint& found,
                             const Checkpoint& expected) {
  const auto mismatch = [&](const std::string& what, const std::string& theirs, const std::string& ours) {
    if (theirs == ours) return;
    throw std::invalid_argument(std::string(function) + ": checkpoint '" + path + "' was written for " + what + " " +
                                theirs + ", this run has " + ours);
  };
  mismatch("model", found.model, expected.model);
  mismatch("model type", found.model_type, expected.model_type);
  // The part first: across MPI ranks, another rank count or partition changes the samples too.
  const auto part = [](const std::string& p) { return p.empty() ? std::string("the whole batch") : p; };
  mismatch("part", part(found.part), part(expected.part));
  mismatch("scalar bytes", std::to_string(found.scalar_bytes), std::to_string(expected.scalar_bytes));
  mismatch("state planes", std::to_string(found.state_count), std::to_string(expected.state_count));
  mismatch("input planes", std::to_string(found.input_count), std::to_string(expected.input_count));
  mismatch("samples", std::to_string(found.samples), std::to_string(expected.samples));
  mismatch("max_steps", std::to_string(found.max_steps), std::to_string(expected.max_steps));
  mismatch("steps", found.steps_setting, expected.steps_setting);
  mismatch("loop nest", found.loop_nest, expected.loop_nest);
  mismatch("in_flight", std::to_string(found.in_flight), std::to_string(expected.in_flight));
  mismatch("inputs with CRC-32", std::to_string(found.inputs_crc), std::to_string(expected.inputs_crc));
  mismatch("model " + expected.model + " with parameters of CRC-32", std::to_string(found.parameters_crc),
           std::to_string(expected.parameters_crc));
}

}  // namespace eagle::detail
