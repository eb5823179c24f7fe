// Fuzzes eagle's checkpoint reader. Each input is decoded twice: as a whole file (the header
// checks), and as a payload wrapped in a valid header and CRC-32, so that mutations reach the
// field parser behind the checksum. A refusal must be a CheckpointError; anything else (a crash, a
// sanitizer report, another exception) is a bug. A decoded checkpoint must encode back to the
// same bytes.

#include <eagle/checkpoint.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// How far inputs got, printed at exit: the cross-field checks are the ones a mutation must parse
// every field to reach.
struct Reached {
  long decoded = 0, cross_field = 0, other_refusals = 0;
  ~Reached() {
    std::fprintf(stderr, "checkpoint_fuzz: %ld decoded, %ld refused by the cross-field checks, %ld refused earlier\n",
                 decoded, cross_field, other_refusals);
  }
} reached;

void decode_or_refuse(const unsigned char* data, std::size_t size) {
  try {
    const eagle::Checkpoint c = eagle::decode_checkpoint(data, size);
    const std::vector<unsigned char> again = eagle::encode_checkpoint(c);
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();
    ++reached.decoded;
  } catch (const eagle::CheckpointError& e) {
    // Refused with a reason: fine. The cross-field checks' messages name a field and what it holds.
    const std::string what = e.what();
    const bool cross = what.rfind("checkpoint field '", 0) == 0 && what.find("does not fit") == std::string::npos &&
                       what.find("claims") == std::string::npos;
    ++(cross ? reached.cross_field : reached.other_refusals);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  decode_or_refuse(data, size);

  std::vector<unsigned char> file(eagle::detail::checkpoint_magic, eagle::detail::checkpoint_magic + 8);
  const auto put = [&](const auto& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    file.insert(file.end(), p, p + sizeof(v));
  };
  put(eagle::Checkpoint::format_version);
  put(eagle::detail::byte_order_mark);
  put(static_cast<std::uint64_t>(size));
  file.insert(file.end(), data, data + size);
  put(eagle::crc32(file.data(), file.size()));
  decode_or_refuse(file.data(), file.size());
  return 0;
}
