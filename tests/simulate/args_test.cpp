// eagle-simulate's command line: defaults, every option, and bad input named.

#include <eagle/simulate/args.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace eagle::simulate {
namespace {

std::string refusal(const std::vector<std::string>& args) {
  try {
    parse_args(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(SimulateArgs, DefaultsRunEveryArmOnTheSeedsBatches) {
  const Options o = parse_args({});
  EXPECT_EQ(o.arms.size(), arm_catalogue().size());
  ASSERT_EQ(o.batches.size(), 13u);  // 4 sizes x 3 spreads, and the Lorenz peer batch
  EXPECT_EQ(o.batches.front().name(), "uniform n=1000");
  EXPECT_EQ(o.batches[11].name(), "spread-1000 n=1000000");
  EXPECT_EQ(o.batches.back().name(), "lorenz n=100000");
  EXPECT_EQ(o.budget_seconds, 30.0);
  EXPECT_FALSE(o.model);
}

TEST(SimulateArgs, EveryOption) {
  const Options o =
      parse_args({"--arms", "tile,auto,tile", "--batches", "1e5:spread-100,oscillator:300:uniform,lorenz:2e3",
                  "--budget", "2.5", "--repetitions", "7", "--out", "/tmp/x", "--model"});
  EXPECT_EQ(o.arms, (std::vector<std::string>{"tile", "auto"}));
  ASSERT_EQ(o.batches.size(), 3u);
  EXPECT_EQ(o.batches[0].n, 100000);
  EXPECT_EQ(o.batches[0].spread, 100);
  EXPECT_EQ(o.batches[1].name(), "uniform n=300");
  EXPECT_EQ(o.batches[2].model, Model::lorenz);
  EXPECT_EQ(o.batches[2].n, 2000);
  EXPECT_EQ(o.budget_seconds, 2.5);
  EXPECT_EQ(o.max_repetitions, 7);
  EXPECT_EQ(o.out_prefix, "/tmp/x");
  EXPECT_TRUE(o.model);
  EXPECT_TRUE(parse_args({"--help"}).help);
  EXPECT_NE(help_text().find("odeint: Boost.Odeint"), std::string::npos);
}

TEST(SimulateArgs, BadInputIsNamed) {
  EXPECT_EQ(refusal({"--arms", "k1,warp"}), "eagle-simulate: unknown arm 'warp' (see --help for the list)");
  EXPECT_EQ(refusal({"--arms", ""}), "eagle-simulate: --arms lists no arm");
  EXPECT_EQ(refusal({"--batches", "1e5:spread-7"}),
            "eagle-simulate: unknown spread 'spread-7' (uniform, spread-100 or spread-1000)");
  EXPECT_EQ(refusal({"--batches", "0:uniform"}), "eagle-simulate: '0' is not a sample count between 1 and 2^31 - 1");
  EXPECT_EQ(refusal({"--batches", "1e12:uniform"}),
            "eagle-simulate: '1e12' is not a sample count between 1 and 2^31 - 1");
  EXPECT_EQ(refusal({"--batches", "-5:uniform"}), "eagle-simulate: '-5' is not a sample count (like 1000 or 1e5)");
  EXPECT_EQ(refusal({"--batches", "a:b:c:d"}),
            "eagle-simulate: batch 'a:b:c:d' is not N:SPREAD, oscillator:N:SPREAD or lorenz:N");
  EXPECT_EQ(refusal({"--budget", "-1"}), "eagle-simulate: --budget needs seconds between 0 and 86400, got '-1'");
  EXPECT_EQ(refusal({"--repetitions", "0"}), "eagle-simulate: --repetitions needs an integer from 1 to 100, got '0'");
  EXPECT_EQ(refusal({"--budget"}), "eagle-simulate: --budget needs a value (see --help)");
  EXPECT_EQ(refusal({"--bogus"}), "eagle-simulate: unknown argument '--bogus' (see --help)");
}

}  // namespace
}  // namespace eagle::simulate
