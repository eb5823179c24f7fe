// Checkpoint and restart on TestSpace: a run interrupted (by an exception, or by SIGKILL in a
// child process) and resumed from its last checkpoint ends bit-identical to the uninterrupted run;
// damaged or foreign checkpoints are refused before anything is written.

#include "batch.hpp"
#include "eagle_test_space.hpp"
#include "spin_batch.hpp"

#include <eagle/eagle.hpp>
#include <eagle/kernels/spread_batches.hpp>

#include <gtest/gtest.h>

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace eagle::test {
namespace {

constexpr std::int64_t max_steps = 400;

/// A fresh folder for one test's checkpoint files.
std::string scratch_folder() {
  std::string pattern =
      (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) + "/eagle-checkpoint-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

HostBatch the_batch() { return spin_batch(kernels::Spread::x100, 3000, 4.0); }

struct Flavour {
  std::string name;
  Compaction compaction;
  std::int64_t in_flight;
};

const std::vector<Flavour> flavours = {{"plain", Compaction::off, 0},
                                       {"reorder", Compaction::reorder, 0},
                                       {"map", Compaction::map, 0},
                                       {"revival", Compaction::automatic, 700}};

RunOptions options_for(const Flavour& f) {
  RunOptions o;
  o.compaction = f.compaction;
  o.in_flight = f.in_flight;
  o.tile_lanes = 64;
  return o;
}

Deployed<Spin> deployed() { return deploy(Spin{}, 3); }

void expect_same_run(const SpinPlanes& got, const Report& got_report, const SpinPlanes& want,
                     const Report& want_report) {
  EXPECT_EQ(bits(got.state_now()), bits(want.state_now()));
  EXPECT_EQ(got.terminated_now(), want.terminated_now());
  EXPECT_EQ(got_report.launches, want_report.launches);
  EXPECT_EQ(got_report.steps, want_report.steps);
  EXPECT_EQ(got_report.launches_by_k, want_report.launches_by_k);
  EXPECT_EQ(got_report.sample_steps, want_report.sample_steps);
  EXPECT_EQ(got_report.finished, want_report.finished);
  EXPECT_EQ(got_report.unfinished, want_report.unfinished);
}

/// Resumes the reorder flavour's run of `batch` from `path` on fresh planes and expects the
/// uninterrupted run's bits and report; returns the resumed run's report.
Report expect_resume_like_uninterrupted(const HostBatch& batch, const std::string& path) {
  const SpinPlanes whole(batch);
  const Report uninterrupted = whole.run(deployed(), max_steps, options_for(flavours[1]));
  const SpinPlanes resumed_planes(batch);
  RunOptions o = options_for(flavours[1]);
  o.resume_from = path;
  const Report resumed = resumed_planes.run(deployed(), max_steps, o);
  expect_same_run(resumed_planes, resumed, whole, uninterrupted);
  return resumed;
}

TEST(Checkpoint, ResumedAfterAThrowEndsBitIdentical) {
  const HostBatch batch = the_batch();
  for (const Flavour& f : flavours) {
    SCOPED_TRACE(f.name);
    const std::string path = scratch_folder() + "/run.ckpt";
    const SpinPlanes whole(batch);
    const Report uninterrupted = whole.run(deployed(), max_steps, options_for(f));

    const SpinPlanes cut(batch);
    RunOptions o = options_for(f);
    o.checkpoint.path = path;
    o.checkpoint.every_launches = 4;
    o.observer = [](const Progress& p) {
      if (p.launch == 30) throw std::runtime_error("interrupted");
    };
    EXPECT_THROW(cut.run(deployed(), max_steps, o), std::runtime_error);

    o = options_for(f);
    o.resume_from = path;
    const Report resumed = cut.run(deployed(), max_steps, o);
    EXPECT_EQ(resumed.resumed_from, path);
    EXPECT_EQ(resumed.note, "resumed after launch 28");
    expect_same_run(cut, resumed, whole, uninterrupted);
  }
}

// Kokkos Tools regions seen while `work` runs: each push's name in order, and the deepest and
// final nesting (a pop without its push would go below zero).
struct RegionsSeen {
  std::vector<std::string> pushed;
  int depth = 0;
  int lowest = 0;
};
RegionsSeen* regions_seen = nullptr;
void push_region(const char* name) {
  regions_seen->pushed.emplace_back(name);
  ++regions_seen->depth;
}
void pop_region() { regions_seen->lowest = std::min(regions_seen->lowest, --regions_seen->depth); }
template <class Work>
RegionsSeen regions_during(const Work& work) {
  RegionsSeen seen;
  regions_seen = &seen;
  Kokkos::Tools::Experimental::set_push_region_callback(push_region);
  Kokkos::Tools::Experimental::set_pop_region_callback(pop_region);
  work();
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  Kokkos::Tools::Experimental::set_pop_region_callback(nullptr);
  regions_seen = nullptr;
  return seen;
}

TEST(Checkpoint, EachPhaseOfARunIsAKokkosToolsRegion) {
  const HostBatch batch = the_batch();
  const std::string path = scratch_folder() + "/run.ckpt";
  const auto count = [](const RegionsSeen& seen, const std::string& name) {
    return std::count(seen.pushed.begin(), seen.pushed.end(), name);
  };
  const auto expect_balanced_run = [](const RegionsSeen& seen) {
    ASSERT_FALSE(seen.pushed.empty());
    EXPECT_EQ(seen.pushed.front(), "eagle::run_until_done");  // the outermost
    EXPECT_EQ(seen.depth, 0);
    EXPECT_EQ(seen.lowest, 0);
  };

  RunOptions o = options_for(flavours[2]);  // map: compaction acts after launches
  o.checkpoint.path = path;
  o.checkpoint.every_launches = 4;
  Report written;
  const RegionsSeen run = regions_during([&] { written = SpinPlanes(batch).run(deployed(), max_steps, o); });
  expect_balanced_run(run);
  EXPECT_EQ(count(run, "eagle::run_until_done"), 1);
  EXPECT_EQ(count(run, "eagle::checkpoint_write"), written.checkpoints_written);
  EXPECT_EQ(count(run, "eagle::compaction"), written.launches - 1);  // after every launch but the last
  EXPECT_EQ(count(run, "eagle::summary"), 1);
  EXPECT_EQ(count(run, "eagle::restore"), 0);

  o = options_for(flavours[2]);
  o.resume_from = path;
  const RegionsSeen resumed = regions_during([&] { SpinPlanes(batch).run(deployed(), max_steps, o); });
  expect_balanced_run(resumed);
  EXPECT_EQ(count(resumed, "eagle::restore"), 1);  // the file read and checked, and the rows loaded

  const RegionsSeen revived =
      regions_during([&] { SpinPlanes(batch).run(deployed(), max_steps, options_for(flavours[3])); });
  expect_balanced_run(revived);
  EXPECT_GT(count(revived, "eagle::revival"), 0);
}

// The child half of KilledRunResumesBitIdentical, which runs it in a process of its own (disabled:
// never run, nor shown as skipped, in a plain run of the suite).
TEST(Checkpoint, DISABLED_ChildRunsUntilKilled) {
  const char* path = std::getenv("EAGLE_CHECKPOINT_CHILD");
  ASSERT_NE(path, nullptr) << "run by KilledRunResumesBitIdentical only";
  const SpinPlanes planes(the_batch());
  RunOptions o = options_for(flavours[1]);
  o.checkpoint.path = path;
  o.checkpoint.every_launches = 1;
  o.observer = [](const Progress&) { std::this_thread::sleep_for(std::chrono::milliseconds(10)); };
  planes.run(deployed(), max_steps, o);
}

TEST(Checkpoint, KilledRunResumesBitIdentical) {
  const std::string path = scratch_folder() + "/run.ckpt";
  const std::string variable = "EAGLE_CHECKPOINT_CHILD=" + path;
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) env.push_back(*e);
  env.push_back(const_cast<char*>(variable.c_str()));
  env.push_back(nullptr);
  std::string exe = "/proc/self/exe";
  std::string filter = "--gtest_filter=Checkpoint.DISABLED_ChildRunsUntilKilled";
  std::string disabled = "--gtest_also_run_disabled_tests";
  char* argv[] = {exe.data(), filter.data(), disabled.data(), nullptr};
  pid_t child = 0;
  ASSERT_EQ(::posix_spawn(&child, exe.c_str(), nullptr, nullptr, argv, env.data()), 0);

  // Kill it once its checkpoints show ten launches (at 10 ms a launch it needs over a second more).
  std::int64_t seen = 0;
  for (int wait = 0; wait < 6000 && seen < 10; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    try {
      seen = static_cast<std::int64_t>(read_checkpoint_file(path).history.size());
    } catch (const CheckpointError&) {
      // not written yet
    }
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child ended before it was killed";
  ASSERT_GE(seen, 10);

  const Report resumed = expect_resume_like_uninterrupted(the_batch(), path);
  ASSERT_EQ(resumed.note.rfind("resumed after launch ", 0), 0u) << resumed.note;
  EXPECT_GE(std::stoll(resumed.note.substr(21)), 10);
}

/// Writes a checkpoint after launch 4 and 8 of a run stopped at 9; returns its path.
std::string interrupted_run(const SpinPlanes& planes) {
  const std::string path = scratch_folder() + "/run.ckpt";
  RunOptions o = options_for(flavours[1]);
  o.checkpoint.path = path;
  o.checkpoint.every_launches = 4;
  o.observer = [](const Progress& p) {
    if (p.launch == 9) throw std::runtime_error("interrupted");
  };
  EXPECT_THROW(planes.run(deployed(), max_steps, o), std::runtime_error);
  return path;
}

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Resuming from `path` must fail with `message` and leave the planes as they were.
template <class Error>
void expect_refused(const SpinPlanes& planes, const std::string& path, const std::string& message,
                    std::int64_t cap = max_steps) {
  const auto before = bits(planes.state_now());
  RunOptions o = options_for(flavours[1]);
  o.resume_from = path;
  try {
    planes.run(deployed(), cap, o);
    ADD_FAILURE() << "resumed from " << path;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
  EXPECT_EQ(bits(planes.state_now()), before);
}

TEST(Checkpoint, TruncatedOrCorruptIsRefusedAndThePreviousRemains) {
  const SpinPlanes planes(the_batch());
  const std::string path = interrupted_run(planes);
  EXPECT_EQ(read_checkpoint_file(path).history.size(), 8u);
  EXPECT_EQ(read_checkpoint_file(path + ".prev").history.size(), 4u);  // the older good one

  const std::vector<char> good = file_bytes(path);
  write_bytes(path, std::vector<char>(good.begin(), good.end() - 100));
  expect_refused<CheckpointError>(planes, path, "truncated or padded");
  std::vector<char> flipped = good;
  flipped[flipped.size() / 2] ^= 0x10;
  write_bytes(path, flipped);
  expect_refused<CheckpointError>(planes, path, "CRC-32 does not match");
  write_bytes(path, std::vector<char>{'n', 'o', 'p', 'e'});
  expect_refused<CheckpointError>(planes, path, "not an eagle checkpoint");
  expect_refused<CheckpointError>(planes, path + ".missing", "cannot open checkpoint");

  // The previous checkpoint still resumes.
  RunOptions o = options_for(flavours[1]);
  o.resume_from = path + ".prev";
  EXPECT_EQ(planes.run(deployed(), max_steps, o).note, "resumed after launch 4");
}

TEST(Checkpoint, AnotherRunsCheckpointIsRefused) {
  const SpinPlanes planes(the_batch());
  const std::string path = interrupted_run(planes);
  expect_refused<std::invalid_argument>(planes, path, "was written for max_steps 400, this run has 300", 300);

  HostBatch other_inputs = the_batch();
  other_inputs.inputs[Spin::omega][17] += 1.0;
  const SpinPlanes other(other_inputs);
  expect_refused<std::invalid_argument>(other, path, "was written for inputs with CRC-32");
}

TEST(Checkpoint, AnotherModelParameterIsRefusedByName) {
  const SpinPlanes planes(the_batch());
  const std::string path = interrupted_run(planes);
  const auto before = bits(planes.state_now());
  RunOptions o = options_for(flavours[1]);
  o.resume_from = path;
  try {
    planes.run(deploy(Spin{2e-2}, 3), max_steps, o);  // dt 0.02, the checkpoint's run had 0.01
    ADD_FAILURE() << "resumed with another dt";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("was written for model spin with parameters of CRC-32 " +
                                         std::to_string(detail::parameters_crc(Spin{})) + ", this run has " +
                                         std::to_string(detail::parameters_crc(Spin{2e-2}))),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(bits(planes.state_now()), before);
}

// Padding between members holds whatever the memory held: two equal models fingerprint the same.
struct Padded {
  double a;
  int b;  // followed by 4 bytes of padding
};
TEST(Checkpoint, ParametersFingerprintIgnoresPadding) {
  alignas(Padded) unsigned char zeros[sizeof(Padded)], ones[sizeof(Padded)];
  std::memset(zeros, 0x00, sizeof zeros);
  std::memset(ones, 0xFF, sizeof ones);
  const Padded* x = new (zeros) Padded{1.5, 7};
  const Padded* y = new (ones) Padded{1.5, 7};
  static_assert(sizeof(Padded) > sizeof(double) + sizeof(int), "the test needs padding");
  EXPECT_EQ(detail::parameters_crc(*x), detail::parameters_crc(*y));
  EXPECT_NE(detail::parameters_crc(*x), detail::parameters_crc(Padded{1.5, 8}));
}

TEST(Checkpoint, SettingsWithoutAFrequencyAreRefused) {
  const SpinPlanes planes(the_batch());
  RunOptions o;
  o.checkpoint.path = scratch_folder() + "/run.ckpt";
  try {
    planes.run(deployed(), max_steps, o);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("checkpoint.path is set, but neither every_launches (0)"), std::string::npos);
  }
}

TEST(Checkpoint, UnwritablePathIsRefusedBeforeAnyLaunch) {
  const HostBatch batch = the_batch();
  const SpinPlanes planes(batch);
  const auto before = bits(planes.state_now());
  RunOptions o = options_for(flavours[1]);
  o.checkpoint.path = "/no/such/folder/run.ckpt";
  o.checkpoint.every_launches = 2;
  o.observer = [](const Progress&) { ADD_FAILURE() << "a launch ran"; };
  try {
    planes.run(deployed(), max_steps, o);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "eagle: cannot write checkpoint '/no/such/folder/run.ckpt': open: No such file or directory; "
              "nothing was run");
  }
  EXPECT_EQ(bits(planes.state_now()), before);
}

// A full disk, as a file size limit (ulimit -f) lowered after the first checkpoint: the second
// write fails part way. The run ends with the error, the rows back in the caller's order, and the
// first checkpoint intact: resuming from it ends bit-identical to the uninterrupted run.
TEST(Checkpoint, AWriteThatFailsMidwayKeepsThePreviousCheckpoint) {
  const HostBatch batch = the_batch();
  const SpinPlanes planes(batch);
  const std::string path = scratch_folder() + "/run.ckpt";
  RunOptions o = options_for(flavours[1]);
  o.checkpoint.path = path;
  o.checkpoint.every_launches = 4;
  rlimit unlimited{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &unlimited), 0);
  const auto handler = std::signal(SIGXFSZ, SIG_IGN);  // EFBIG from write() instead of a signal
  o.observer = [&](const Progress& p) {
    if (p.launch != 5) return;
    rlimit small = unlimited;
    small.rlim_cur = static_cast<rlim_t>(std::filesystem::file_size(path) / 2);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  };
  std::string what;
  try {
    planes.run(deployed(), max_steps, o);
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &unlimited);
  std::signal(SIGXFSZ, handler);
  EXPECT_EQ(what, "eagle: cannot write checkpoint '" + path + "': write: File too large");
  // Eight launches of 3 steps ran; each sample's count says so, in the caller's order.
  const auto counts = planes.state_now()[Spin::count];
  for (std::size_t i = 0; i < counts.size(); ++i) {
    ASSERT_EQ(counts[i], batch.terminated[i] ? 0.0 : std::min(24.0, batch.inputs[Spin::length][i])) << i;
  }
  EXPECT_EQ(read_checkpoint_file(path).history.size(), 4u);

  EXPECT_EQ(expect_resume_like_uninterrupted(batch, path).note, "resumed after launch 4");
}

}  // namespace
}  // namespace eagle::test
