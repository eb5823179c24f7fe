// The checkpoint file format, without Kokkos: round trip, CRC-32 known answer, and every damaged
// file refused with a reason (every truncation, every flipped byte, lying counts, other versions).

#include <eagle/checkpoint.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace eagle {
namespace {

Checkpoint small() {
  Checkpoint c;
  c.model = "spin";
  c.scalar_bytes = 8;
  c.state_count = 2;
  c.input_count = 1;
  c.samples = 3;
  c.max_steps = 100;
  c.steps_setting = "k=4";
  c.loop_nest = "tile";
  c.inputs_crc = 0xDEADBEEF;
  c.history = {{4, 3, 2}, {4, 2, 1}};
  c.seconds = 0.25;
  c.active = 1;
  c.compaction_actions = {{"map", 1}, {"none", 1}};
  c.rows_moved = 2;
  c.scanned_slots = 6;
  c.span = 3;
  c.slots = 1;
  c.state_planes = {std::vector<unsigned char>(24, 7), std::vector<unsigned char>(24, 9)};
  c.terminated = {1, 1, 0};
  c.status = {1, 1, 0};
  c.steps_taken = {3, 5, 8};
  c.origin = {2, 0, 1};
  c.map = {2};
  return c;
}

Checkpoint decode(const std::vector<unsigned char>& b) { return decode_checkpoint(b.data(), b.size()); }

std::string refusal(const std::vector<unsigned char>& b) {
  try {
    decode(b);
  } catch (const CheckpointError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckpointFormat, Crc32KnownAnswer) {
  const char* text = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const unsigned char*>(text), 9), 0xCBF43926u);
  EXPECT_EQ(crc32(nullptr, 0), 0u);
}

TEST(CheckpointFormat, RoundTripKeepsEveryField) {
  const Checkpoint c = small();
  const Checkpoint d = decode(encode_checkpoint(c));
  EXPECT_EQ(d.model, c.model);
  EXPECT_EQ(d.scalar_bytes, c.scalar_bytes);
  EXPECT_EQ(d.state_count, c.state_count);
  EXPECT_EQ(d.input_count, c.input_count);
  EXPECT_EQ(d.samples, c.samples);
  EXPECT_EQ(d.max_steps, c.max_steps);
  EXPECT_EQ(d.steps_setting, c.steps_setting);
  EXPECT_EQ(d.loop_nest, c.loop_nest);
  EXPECT_EQ(d.inputs_crc, c.inputs_crc);
  EXPECT_EQ(d.history, c.history);
  EXPECT_EQ(d.seconds, c.seconds);
  EXPECT_EQ(d.active, c.active);
  EXPECT_EQ(d.compaction_actions, c.compaction_actions);
  EXPECT_EQ(d.rows_moved, c.rows_moved);
  EXPECT_EQ(d.scanned_slots, c.scanned_slots);
  EXPECT_EQ(d.span, c.span);
  EXPECT_EQ(d.slots, c.slots);
  EXPECT_EQ(d.state_planes, c.state_planes);
  EXPECT_EQ(d.terminated, c.terminated);
  EXPECT_EQ(d.status, c.status);
  EXPECT_EQ(d.steps_taken, c.steps_taken);
  EXPECT_EQ(d.origin, c.origin);
  EXPECT_EQ(d.map, c.map);
}

TEST(CheckpointFormat, EveryTruncationIsRefused) {
  const std::vector<unsigned char> good = encode_checkpoint(small());
  for (std::size_t size = 0; size < good.size(); ++size) {
    EXPECT_NE(refusal(std::vector<unsigned char>(good.begin(), good.begin() + size)), "") << size << " bytes";
  }
}

TEST(CheckpointFormat, EveryFlippedByteIsRefused) {
  const std::vector<unsigned char> good = encode_checkpoint(small());
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::vector<unsigned char> bad = good;
    bad[i] ^= 0x01;
    EXPECT_NE(refusal(bad), "") << "byte " << i;
  }
}

TEST(CheckpointFormat, OtherVersionsAreNamed) {
  std::vector<unsigned char> b = encode_checkpoint(small());
  const std::uint32_t v2 = 2;
  std::memcpy(b.data() + 8, &v2, 4);
  EXPECT_EQ(refusal(b), "checkpoint format version 2; this eagle reads version 1");
}

TEST(CheckpointFormat, InconsistentFieldsAreRefusedEvenWithAGoodChecksum) {
  Checkpoint c = small();
  c.origin = {0, 7, 1};  // a row index outside the batch
  EXPECT_EQ(refusal(encode_checkpoint(c)), "checkpoint field 'origin' does not fit a batch of 3 samples");
  c = small();
  c.steps_taken.pop_back();
  EXPECT_EQ(refusal(encode_checkpoint(c)), "checkpoint field 'bookkeeping' does not fit a batch of 3 samples");
  c = small();
  c.map = {0, 1};  // two entries for one slot
  EXPECT_EQ(refusal(encode_checkpoint(c)), "checkpoint field 'rows' does not fit a batch of 3 samples");
}

}  // namespace
}  // namespace eagle
