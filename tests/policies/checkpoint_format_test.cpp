// The checkpoint file format, without Kokkos: round trip, CRC-32 known answer, and every damaged
// file refused with a reason (every truncation, every flipped byte, lying counts, other versions).

#include <eagle/checkpoint.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace eagle {
namespace {

Checkpoint small() {
  Checkpoint c;
  c.model = "spin";
  c.model_type = "eagle::test::Spin (8 bytes)";
  c.scalar_bytes = 8;
  c.state_count = 2;
  c.input_count = 1;
  c.samples = 3;
  c.max_steps = 100;
  c.steps_setting = "k=4";
  c.loop_nest = "tile";
  c.part = "rank 1 of 2, samples [3, 6) of 6";
  c.inputs_crc = 0xDEADBEEF;
  c.parameters_crc = 0x12345678;
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
  c.status = {1, 4, 0};  // finished, finished by the model's own ending, running
  c.steps_taken = {3, 5, 8};
  c.origin = {2, 0, 1};
  c.map = {2};
  c.model_memory = std::vector<unsigned char>(16, 5);
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
  EXPECT_EQ(d.model_type, c.model_type);
  EXPECT_EQ(d.scalar_bytes, c.scalar_bytes);
  EXPECT_EQ(d.state_count, c.state_count);
  EXPECT_EQ(d.input_count, c.input_count);
  EXPECT_EQ(d.samples, c.samples);
  EXPECT_EQ(d.max_steps, c.max_steps);
  EXPECT_EQ(d.steps_setting, c.steps_setting);
  EXPECT_EQ(d.loop_nest, c.loop_nest);
  EXPECT_EQ(d.part, c.part);
  EXPECT_EQ(d.inputs_crc, c.inputs_crc);
  EXPECT_EQ(d.parameters_crc, c.parameters_crc);
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
  EXPECT_EQ(d.model_memory, c.model_memory);
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
  for (const std::uint32_t other : {3u, 5u}) {  // version 3 had no model memory
    std::memcpy(b.data() + 8, &other, 4);
    EXPECT_EQ(refusal(b), "checkpoint format version " + std::to_string(other) + "; this eagle reads version 4");
  }
}

TEST(CheckpointFormat, InconsistentFieldsAreRefusedEvenWithAGoodChecksum) {
  Checkpoint c = small();
  c.steps_taken.pop_back();
  EXPECT_EQ(refusal(encode_checkpoint(c)), "checkpoint field 'bookkeeping' does not fit a batch of 3 samples");
  c = small();
  c.map = {0, 1};  // two entries for one slot
  EXPECT_EQ(refusal(encode_checkpoint(c)), "checkpoint field 'rows' does not fit a batch of 3 samples");
}

// Each field checked against the others: every case is a file with a valid header and CRC that
// the first reader (format version 1, shapes only) accepted.
TEST(CheckpointFormat, FieldsThatDisagreeAreRefusedByName) {
  struct Case {
    const char* name;
    void (*spoil)(Checkpoint&);
    const char* refusal;
  };
  const Case cases[] = {
      {"origin out of range",
       [](Checkpoint& c) {
         c.origin = {0, 7, 1};
       },
       "checkpoint field 'origin' is not a permutation of the samples (7 out of range or twice)"},
      {"origin with a duplicate",
       [](Checkpoint& c) {
         c.origin = {0, 1, 1};
       },
       "checkpoint field 'origin' is not a permutation of the samples (1 out of range or twice)"},
      {"terminated byte 2", [](Checkpoint& c) { c.terminated[0] = 2; },
       "checkpoint field 'terminated' holds 2 at row 0, not 0 or 1"},
      {"terminated without a status", [](Checkpoint& c) { c.terminated[2] = 1; },
       "checkpoint field 'terminated' disagrees with status 0 at row 2"},
      {"capped in flight", [](Checkpoint& c) { c.status[1] = 3, c.terminated[1] = 1; },
       "checkpoint field 'status' holds 3 (capped) at row 1, which no run in flight holds"},
      {"steps past the cap", [](Checkpoint& c) { c.steps_taken[1] = 101; },
       "checkpoint field 'steps taken' holds 101 at row 1, outside 0 ... max_steps 100"},
      {"negative steps", [](Checkpoint& c) { c.steps_taken[0] = -1; },
       "checkpoint field 'steps taken' holds -1 at row 0, outside 0 ... max_steps 100"},
      {"more active than running", [](Checkpoint& c) { c.active = 2; },
       "checkpoint field 'active' holds 2, but 1 rows are running"},
      {"map twice the same row",
       [](Checkpoint& c) {
         c.slots = 2;
         c.map = {2, 2};
       },
       "checkpoint field 'map' names row 2 outside the span or twice"},
      {"map past the span", [](Checkpoint& c) { c.span = 2; },
       "checkpoint field 'map' names row 2 outside the span or twice"},
      {"more slots than the span",
       [](Checkpoint& c) {
         c.span = 0;
         c.map = {};
       },
       "checkpoint field 'rows' names more slots (1) than the span (0)"},
      {"history growing",
       [](Checkpoint& c) {
         c.history[1] = {4, 2, 3};
       },
       "checkpoint field 'history' holds a launch of 4 steps from 2 to 3 running samples"},
      {"history past the cap",
       [](Checkpoint& c) {
         c.history[1] = {97, 2, 1};
       },
       "checkpoint field 'history' asks for more steps in all than max_steps 100"},
      {"launch past the cap",
       [](Checkpoint& c) {
         c.history[1] = {101, 2, 1};
       },
       "checkpoint field 'history' holds a launch of 101 steps from 2 to 1 running samples"},
      {"launches whose sum overflows",  // found by the checkpoint fuzzer
       [](Checkpoint& c) {
         c.max_steps = std::numeric_limits<std::int64_t>::max() - 1;
         c.history = {{c.max_steps - 1, 3, 2}, {c.max_steps - 1, 2, 1}};
       },
       "checkpoint field 'history' asks for more steps in all than max_steps 9223372036854775806"},
      {"non-positive cap", [](Checkpoint& c) { c.max_steps = 0; },
       "checkpoint field 'max steps' must be positive, holds 0"},
      {"negative seconds", [](Checkpoint& c) { c.seconds = -1.0; },
       "checkpoint field 'seconds' must be finite and non-negative"},
  };
  ASSERT_EQ(refusal(encode_checkpoint(small())), "");
  for (const Case& k : cases) {
    Checkpoint c = small();
    k.spoil(c);
    EXPECT_EQ(refusal(encode_checkpoint(c)), k.refusal) << k.name;
  }
}

}  // namespace
}  // namespace eagle
