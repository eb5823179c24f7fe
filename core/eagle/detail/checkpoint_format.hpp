#pragma once
// A checkpoint's contents and its file format, on the host and without Kokkos.
//
// File: "EAGLECKP", format version (u32), byte-order mark (u32), payload size (u64), the payload,
// then the CRC-32 of everything before it. The payload is the fields in the order `visit_fields`
// lists them; integers and floats in the host's byte order, which the mark checks; every count is
// checked against the bytes left before anything is allocated, so a corrupt file is refused,
// never trusted.

#include <eagle/crc32.hpp>
#include <eagle/status_codes.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace eagle {

/// Thrown for a checkpoint that cannot be read: missing, truncated, corrupt, or another version.
struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A run between two launches: enough to continue it bit for bit.
struct Checkpoint {
  /// 4: the memory the model writes (model_memory). 3: the model's C++ type beside its name
  /// (model_type). 2: the model's parameters fingerprinted (parameters_crc), the part of a batch
  /// named (MPI ranks), every field checked against the others.
  static constexpr std::uint32_t format_version = 4;

  // Which run this is: a resume must match every field.
  std::string model;
  /// The model's C++ type as the compiler names it, and its size in bytes ("ns::Pendulum (24
  /// bytes)"): another step body under the same `name` is another type. A step body edited and
  /// recompiled under the same type name cannot be told apart from the file.
  std::string model_type;
  std::uint32_t scalar_bytes = 0;
  std::int32_t state_count = 0;
  std::int32_t input_count = 0;
  std::int64_t samples = 0;
  std::int64_t max_steps = 0;
  std::string steps_setting;
  std::string loop_nest;
  std::string part;                  ///< CheckpointSettings::part of the run that wrote it
  std::uint32_t inputs_crc = 0;      ///< CRC-32 of the input planes' bytes
  std::uint32_t parameters_crc = 0;  ///< CRC-32 of the model's uniform parameters (its bytes, padding cleared)

  // The launch loop: its history is the auto policy's state and gives launches, steps and K counts.
  std::vector<std::array<std::int64_t, 3>> history;  ///< (k, active before, active after)
  double seconds = 0.0;
  std::int64_t active = 0;
  std::map<std::string, std::int64_t> compaction_actions;
  std::int64_t rows_moved = 0;
  std::int64_t revived = 0;
  std::int64_t extra_bytes_peak = 0;
  std::int64_t scanned_slots = 0;

  // Rows as they lie in the planes (permuted by compaction: origin maps rows to samples).
  std::int64_t span = 0;
  std::int64_t slots = 0;
  std::int64_t next_pending = 0;
  std::int64_t end_pending = 0;
  std::int64_t in_flight = 0;
  std::vector<std::vector<unsigned char>> state_planes;  ///< raw bytes, samples x scalar_bytes each
  std::vector<unsigned char> terminated;
  std::vector<std::uint8_t> status;
  std::vector<std::int64_t> steps_taken;
  std::vector<std::int32_t> origin;  ///< empty: rows in the caller's order
  std::vector<std::int32_t> map;     ///< the active-set map; empty: none
  /// The bytes of the memory the model writes (eagle::WrittenMemory: a saved trajectory); empty: none.
  std::vector<unsigned char> model_memory;
};

namespace detail {

inline constexpr char checkpoint_magic[8] = {'E', 'A', 'G', 'L', 'E', 'C', 'K', 'P'};
inline constexpr std::uint32_t byte_order_mark = 0x01020304u;
inline constexpr std::size_t checkpoint_header_bytes = 8 + 4 + 4 + 8;

class ByteWriter {
 public:
  template <class V>
  void put(const V& v) {
    static_assert(std::is_arithmetic<V>::value, "plain numbers only");
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(V));
  }
  template <class V>
  void put_vector(const std::vector<V>& v) {
    put(static_cast<std::uint64_t>(v.size()));
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size() * sizeof(V));
  }
  void put_string(const std::string& s) { put_vector(std::vector<char>(s.begin(), s.end())); }
  std::vector<unsigned char> bytes;
};

class ByteReader {
 public:
  ByteReader(const unsigned char* data, std::size_t size) : data_(data), left_(size) {}
  template <class V>
  V get(const char* what) {
    V v;
    take(&v, sizeof(V), what);
    return v;
  }
  template <class V>
  std::vector<V> get_vector(const char* what) {
    const auto count = get<std::uint64_t>(what);
    if (count > left_ / sizeof(V)) {
      throw CheckpointError(std::string("checkpoint field '") + what + "' claims " + std::to_string(count) +
                            " entries, more than the file holds");
    }
    std::vector<V> v(static_cast<std::size_t>(count));
    take(v.data(), v.size() * sizeof(V), what);
    return v;
  }
  std::string get_string(const char* what) {
    const std::vector<char> chars = get_vector<char>(what);
    return std::string(chars.begin(), chars.end());
  }
  std::size_t left() const { return left_; }

 private:
  void take(void* to, std::size_t size, const char* what) {
    if (size > left_) throw CheckpointError(std::string("checkpoint ends inside field '") + what + "'");
    if (size > 0) std::memcpy(to, data_, size);
    data_ += size;
    left_ -= size;
  }
  const unsigned char* data_;
  std::size_t left_;
};

/// Every field of a checkpoint in file order, each with the name errors give it: the one list
/// encoding and decoding walk. `C` is Checkpoint or const Checkpoint.
template <class C, class Visit>
void visit_fields(C& c, Visit&& visit) {
  visit("model", c.model);
  visit("model type", c.model_type);
  visit("scalar bytes", c.scalar_bytes);
  visit("state count", c.state_count);
  visit("input count", c.input_count);
  visit("samples", c.samples);
  visit("max steps", c.max_steps);
  visit("steps setting", c.steps_setting);
  visit("loop nest", c.loop_nest);
  visit("part", c.part);
  visit("inputs crc", c.inputs_crc);
  visit("parameters crc", c.parameters_crc);
  visit("history", c.history);
  visit("seconds", c.seconds);
  visit("active", c.active);
  visit("compaction actions", c.compaction_actions);
  visit("rows moved", c.rows_moved);
  visit("revived", c.revived);
  visit("extra bytes peak", c.extra_bytes_peak);
  visit("scanned slots", c.scanned_slots);
  visit("span", c.span);
  visit("slots", c.slots);
  visit("next pending", c.next_pending);
  visit("end pending", c.end_pending);
  visit("in flight", c.in_flight);
  visit("state plane", c.state_planes);
  visit("terminated", c.terminated);
  visit("status", c.status);
  visit("steps taken", c.steps_taken);
  visit("origin", c.origin);
  visit("map", c.map);
  visit("model memory", c.model_memory);
}

/// Writes one field of each kind a checkpoint holds.
struct FieldWriter {
  ByteWriter& out;
  template <class V>
  void operator()(const char*, const V& v) {
    out.put(v);
  }
  void operator()(const char*, const std::string& s) { out.put_string(s); }
  template <class V>
  void operator()(const char*, const std::vector<V>& v) {
    out.put_vector(v);
  }
  void operator()(const char*, const std::vector<std::array<std::int64_t, 3>>& history) {
    out.put(static_cast<std::uint64_t>(history.size()));
    for (const auto& h : history)
      for (std::int64_t x : h) out.put(x);
  }
  void operator()(const char*, const std::map<std::string, std::int64_t>& counts) {
    out.put(static_cast<std::uint64_t>(counts.size()));
    for (const auto& [name, count] : counts) {
      out.put_string(name);
      out.put(count);
    }
  }
  // One plane per state field, their count given by the state count: no count of its own.
  void operator()(const char*, const std::vector<std::vector<unsigned char>>& planes) {
    for (const auto& plane : planes) out.put_vector(plane);
  }
};

inline void check_length(bool ok, const char* what, std::int64_t samples) {
  if (!ok) {
    throw CheckpointError(std::string("checkpoint field '") + what + "' does not fit a batch of " +
                          std::to_string(samples) + " samples");
  }
}

/// Throws CheckpointError unless a value that passed the shape checks agrees with the others: a
/// file with a valid CRC may still come from another version or a hand, and a bad row index or a
/// duplicate in `origin` would make the restore write one row twice and another never.
inline void fail_field(bool ok, const char* field, const std::string& what) {
  if (!ok) throw CheckpointError(std::string("checkpoint field '") + field + "' " + what);
}
inline void check_rows_agree(const Checkpoint& c) {
  const std::int64_t n = c.samples;
  fail_field(c.max_steps > 0, "max steps", "must be positive, holds " + std::to_string(c.max_steps));
  fail_field(c.seconds >= 0.0 && c.seconds < 1e300, "seconds", "must be finite and non-negative");
  fail_field(c.in_flight >= 0 && c.in_flight <= n, "in flight", "must be within 0 ... samples");
  fail_field(c.slots <= c.span, "rows",
             "names more slots (" + std::to_string(c.slots) + ") than the span (" + std::to_string(c.span) + ")");
  std::int64_t running = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto at = [&] { return " at row " + std::to_string(i); };
    const unsigned char flag = c.terminated[static_cast<std::size_t>(i)];
    const std::uint8_t code = c.status[static_cast<std::size_t>(i)];
    const std::int64_t taken = c.steps_taken[static_cast<std::size_t>(i)];
    fail_field(flag <= 1, "terminated", "holds " + std::to_string(flag) + at() + ", not 0 or 1");
    fail_field(code != status::capped, "status", "holds 3 (capped)" + at() + ", which no run in flight holds");
    fail_field((flag == 1) == (code != status::running), "terminated",
               "disagrees with status " + std::to_string(code) + at());
    fail_field(taken >= 0 && taken <= c.max_steps, "steps taken",
               "holds " + std::to_string(taken) + at() + ", outside 0 ... max_steps " + std::to_string(c.max_steps));
    running += code == status::running ? 1 : 0;
  }
  fail_field(c.active >= 0 && c.active <= running, "active",
             "holds " + std::to_string(c.active) + ", but " + std::to_string(running) + " rows are running");
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (std::int32_t r : c.origin) {
    fail_field(r >= 0 && r < n && !seen[static_cast<std::size_t>(r)], "origin",
               "is not a permutation of the samples (" + std::to_string(r) + " out of range or twice)");
    seen[static_cast<std::size_t>(r)] = true;
  }
  std::fill(seen.begin(), seen.end(), false);
  for (std::int32_t r : c.map) {
    fail_field(r >= 0 && r < c.span && !seen[static_cast<std::size_t>(r)], "map",
               "names row " + std::to_string(r) + " outside the span or twice");
    seen[static_cast<std::size_t>(r)] = true;
  }
  // No launch asks for more than max_steps. With revival each sample is capped on its own steps;
  // otherwise the launches together are (compared before adding, so the sum cannot overflow).
  std::int64_t steps = 0;
  for (const auto& h : c.history) {
    fail_field(h[0] > 0 && h[0] <= c.max_steps && h[2] >= 0 && h[2] <= h[1] && h[1] <= n, "history",
               "holds a launch of " + std::to_string(h[0]) + " steps from " + std::to_string(h[1]) + " to " +
                   std::to_string(h[2]) + " running samples");
    if (c.in_flight > 0) continue;
    fail_field(h[0] <= c.max_steps - steps, "history",
               "asks for more steps in all than max_steps " + std::to_string(c.max_steps));
    steps += h[0];
  }
}

/// Reads one field of each kind; `c` is the checkpoint read so far (the state planes' count).
struct FieldReader {
  ByteReader& in;
  const Checkpoint& c;
  template <class V>
  void operator()(const char* name, V& v) {
    v = in.get<V>(name);
  }
  void operator()(const char* name, std::string& s) { s = in.get_string(name); }
  template <class V>
  void operator()(const char* name, std::vector<V>& v) {
    v = in.get_vector<V>(name);
  }
  void operator()(const char* name, std::vector<std::array<std::int64_t, 3>>& history) {
    const auto launches = in.get<std::uint64_t>(name);
    if (launches > in.left() / (3 * sizeof(std::int64_t)))
      throw CheckpointError("checkpoint history longer than the file");
    history.resize(static_cast<std::size_t>(launches));
    for (auto& h : history)
      for (auto& x : h) x = in.get<std::int64_t>(name);
  }
  void operator()(const char* name, std::map<std::string, std::int64_t>& counts) {
    const auto entries = in.get<std::uint64_t>(name);
    for (std::uint64_t e = 0; e < entries; ++e) {
      const std::string key = in.get_string(name);
      counts[key] = in.get<std::int64_t>(name);
    }
  }
  void operator()(const char* name, std::vector<std::vector<unsigned char>>& planes) {
    check_length(c.samples >= 0 && c.state_count > 0 && c.state_count <= 1024 && c.input_count >= 0 &&
                     c.scalar_bytes > 0 && c.scalar_bytes <= 64,
                 "shape", c.samples);
    for (std::int32_t f = 0; f < c.state_count; ++f) planes.push_back(in.get_vector<unsigned char>(name));
  }
};

/// Throws CheckpointError unless every length fits the batch and the fields agree.
inline void check_fields(const Checkpoint& c) {
  const auto n = static_cast<std::uint64_t>(c.samples);
  for (const auto& plane : c.state_planes) check_length(plane.size() == n * c.scalar_bytes, "state plane", c.samples);
  check_length(c.terminated.size() == n && c.status.size() == n && c.steps_taken.size() == n, "bookkeeping", c.samples);
  check_length(c.origin.empty() || c.origin.size() == n, "origin", c.samples);
  check_length(0 <= c.slots && c.slots <= c.samples && 0 <= c.span && c.span <= c.samples && 0 <= c.next_pending &&
                   c.next_pending <= c.end_pending && c.end_pending <= c.samples &&
                   (c.map.empty() || static_cast<std::int64_t>(c.map.size()) == c.slots),
               "rows", c.samples);
  check_rows_agree(c);
}

}  // namespace detail

/// The file's bytes: header, payload, CRC-32.
inline std::vector<unsigned char> encode_checkpoint(const Checkpoint& c) {
  detail::ByteWriter payload;
  detail::FieldWriter writer{payload};
  detail::visit_fields(c, writer);
  detail::ByteWriter file;
  file.bytes.assign(std::begin(detail::checkpoint_magic), std::end(detail::checkpoint_magic));
  file.put(Checkpoint::format_version);
  file.put(detail::byte_order_mark);
  file.put(static_cast<std::uint64_t>(payload.bytes.size()));
  file.bytes.insert(file.bytes.end(), payload.bytes.begin(), payload.bytes.end());
  file.put(crc32(file.bytes.data(), file.bytes.size()));
  return file.bytes;
}

/// Parses and checks a checkpoint's bytes; throws CheckpointError naming what is wrong.
inline Checkpoint decode_checkpoint(const unsigned char* data, std::size_t size) {
  if (size < detail::checkpoint_header_bytes + 4 ||
      std::memcmp(data, detail::checkpoint_magic, sizeof(detail::checkpoint_magic)) != 0) {
    throw CheckpointError("not an eagle checkpoint (no EAGLECKP header)");
  }
  detail::ByteReader header(data + 8, detail::checkpoint_header_bytes - 8);
  const auto version = header.get<std::uint32_t>("format version");
  if (version != Checkpoint::format_version) {
    throw CheckpointError("checkpoint format version " + std::to_string(version) + "; this eagle reads version " +
                          std::to_string(Checkpoint::format_version));
  }
  if (header.get<std::uint32_t>("byte order") != detail::byte_order_mark) {
    throw CheckpointError("checkpoint written on a machine of the other byte order");
  }
  const auto payload_size = header.get<std::uint64_t>("payload size");
  const std::size_t available = size - detail::checkpoint_header_bytes - 4;
  if (payload_size != available) {
    throw CheckpointError("checkpoint truncated or padded: its header announces " + std::to_string(payload_size) +
                          " bytes of payload, the file holds " + std::to_string(available));
  }
  std::uint32_t stored = 0;
  std::memcpy(&stored, data + size - 4, 4);
  if (crc32(data, size - 4) != stored) throw CheckpointError("checkpoint corrupt: its CRC-32 does not match");

  detail::ByteReader in(data + detail::checkpoint_header_bytes, available);
  Checkpoint c;
  detail::FieldReader reader{in, c};
  detail::visit_fields(c, reader);
  if (in.left() != 0)
    throw CheckpointError("checkpoint has " + std::to_string(in.left()) + " bytes after its last field");
  detail::check_fields(c);
  return c;
}

}  // namespace eagle
