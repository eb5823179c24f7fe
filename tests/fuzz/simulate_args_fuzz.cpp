// Fuzzes eagle-simulate's command-line parser: the input, split at NUL bytes, is the argument
// list. A refusal must be a UsageError; a parse that succeeds must describe a runnable request.

#include <eagle/simulate/args.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0)
      args.emplace_back();
    else
      args.back() += static_cast<char>(data[i]);
  }
  try {
    const eagle::simulate::Options o = eagle::simulate::parse_args(args);
    if (o.arms.empty() || o.batches.empty() || !(o.budget_seconds > 0) || o.max_repetitions < 1) std::abort();
    for (const auto& b : o.batches) {
      if (b.n < 1 || (b.spread != 1 && b.spread != 100 && b.spread != 1000)) std::abort();
    }
  } catch (const eagle::simulate::UsageError&) {
    // refused with a reason: fine
  }
  return 0;
}
