#pragma once
// Reports across ranks: the job's report reduced once from every rank's (walking the report's
// field tables, eagle/report.hpp), and a rank's report grown chunk by chunk under work stealing.

#include <eagle/detail/mpi_calls.hpp>
#include <eagle/detail/saturating.hpp>
#include <eagle/report.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace eagle::mpi {
namespace detail {

/// Every rank's (key, count) pairs summed, on every rank.
template <class Key>
std::map<Key, std::int64_t> sum_maps(MPI_Comm comm, const std::map<Key, std::int64_t>& mine) {
  std::ostringstream out;
  for (const auto& [key, count] : mine) out << key << '\t' << count << '\n';
  const std::string text = out.str();
  const int size = size_of(comm);
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(size), offsets(size);
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm), "MPI_Allgather");
  int all = 0;
  for (int r = 0; r < size; ++r) {
    offsets[r] = all;
    all += lengths[r];
  }
  std::string gathered(static_cast<std::size_t>(all), '\0');
  check(MPI_Allgatherv(text.data(), length, MPI_CHAR, gathered.data(), lengths.data(), offsets.data(), MPI_CHAR, comm),
        "MPI_Allgatherv");
  std::map<Key, std::int64_t> sum;
  std::istringstream in(gathered);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t tab = line.find('\t');
    std::istringstream key_text(line.substr(0, tab));
    Key key{};
    if constexpr (std::is_same<Key, std::string>::value)
      key = line.substr(0, tab);
    else
      key_text >> key;
    sum[key] += std::stoll(line.substr(tab + 1));
  }
  return sum;
}

/// MPI_SUM of counters, held at INT64_MAX as each rank's own counters are (an MPI_Op function).
inline void saturating_sum(void* in, void* inout, int* count, MPI_Datatype*) {
  const auto* add = static_cast<const std::int64_t*>(in);
  auto* sum = static_cast<std::int64_t*>(inout);
  for (int i = 0; i < *count; ++i) sum[i] = eagle::detail::saturating_add(sum[i], add[i]);
}

/// A chunk's report added to the rank's: counts summed, launches and time summed (the rank ran
/// its chunks one after another), maxima kept; failing samples named by global index.
inline void add_chunk(Report& rank, const Report& chunk, std::int64_t first_index) {
  for (const auto& [sample, code] : chunk.first_failures) {
    if (rank.first_failures.size() < Report::failures_named)
      rank.first_failures.push_back({first_index + sample, code});
  }
  if (rank.model.empty()) {
    const auto named = rank.first_failures;
    rank = chunk;
    rank.first_failures = named;
    return;
  }
  for (auto field : report_fields::summed) rank.*field = eagle::detail::saturating_add(rank.*field, chunk.*field);
  for (auto field : report_fields::sequential) rank.*field = eagle::detail::saturating_add(rank.*field, chunk.*field);
  for (auto field : report_fields::largest) rank.*field = std::max(rank.*field, chunk.*field);
  for (const auto& [k, count] : chunk.launches_by_k) rank.launches_by_k[k] += count;
  for (const auto& [code, count] : chunk.failures) rank.failures[code] += count;
  for (const auto& [action, count] : chunk.compaction_actions) rank.compaction_actions[action] += count;
}

}  // namespace detail

/// The job's report from every rank's: samples, statuses, work and launches by K summed; launches,
/// steps, the longest sample and time as the maximum over ranks. Failing samples are named by
/// their global index (`index_offset` shifts the local ones). Collective over `comm`.
inline Report reduce(MPI_Comm comm, const Report& local, std::int64_t index_offset) {
  Report g = local;
  const auto combine = [&](const auto& fields, MPI_Op op) {
    constexpr int count = static_cast<int>(std::extent<std::remove_reference_t<decltype(fields)>>::value);
    std::int64_t values[count];
    for (int i = 0; i < count; ++i) values[i] = local.*fields[i];
    check(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_INT64_T, op, comm), "MPI_Allreduce");
    for (int i = 0; i < count; ++i) g.*fields[i] = values[i];
  };
  MPI_Op sum = MPI_OP_NULL;
  check(MPI_Op_create(detail::saturating_sum, /*commute=*/1, &sum), "MPI_Op_create");
  combine(report_fields::summed, sum);
  MPI_Op_free(&sum);
  combine(report_fields::sequential, MPI_MAX);  // ranks run side by side
  combine(report_fields::largest, MPI_MAX);
  int interrupted = local.interrupted ? 1 : 0;
  check(MPI_Allreduce(MPI_IN_PLACE, &interrupted, 1, MPI_INT, MPI_LOR, comm), "MPI_Allreduce");
  g.interrupted = interrupted != 0;
  check(MPI_Allreduce(MPI_IN_PLACE, &g.seconds, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  g.exact_steps = g.longest_sample_steps == g.steps;
  g.capped = g.unfinished > 0 && !g.interrupted;
  g.launches_by_k = detail::sum_maps(comm, local.launches_by_k);
  g.failures = {};
  for (const auto& [code, count] :
       detail::sum_maps(comm, std::map<int, std::int64_t>(local.failures.begin(), local.failures.end()))) {
    g.failures[code] = count;
  }
  g.compaction_actions = detail::sum_maps(comm, local.compaction_actions);
  std::map<std::int64_t, std::int64_t> named;
  for (const auto& [sample, code] : local.first_failures) named[sample + index_offset] = code;
  g.first_failures.clear();
  for (const auto& [sample, code] : detail::sum_maps(comm, named)) {
    if (g.first_failures.size() < Report::failures_named) g.first_failures.push_back({sample, static_cast<int>(code)});
  }
  g.note = local.samples == 0 ? "this rank held no samples" : local.note;
  return g;
}

}  // namespace eagle::mpi
