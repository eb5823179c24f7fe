#pragma once
// eagle: fuse the steps of large batches of independent samples into few Kokkos launches.

#include <eagle/auto_steps.hpp>
#include <eagle/compaction.hpp>
#include <eagle/compaction_costs.hpp>
#include <eagle/deploy.hpp>
#include <eagle/fields.hpp>
#include <eagle/host_caches.hpp>
#include <eagle/host_tile.hpp>
#include <eagle/ladder.hpp>
#include <eagle/model.hpp>
#include <eagle/outcomes.hpp>
#include <eagle/partition.hpp>
#include <eagle/progress.hpp>
#include <eagle/report.hpp>
#include <eagle/run.hpp>
#include <eagle/run_options.hpp>
#include <eagle/run_stopped.hpp>
#include <eagle/status.hpp>
#include <eagle/steps.hpp>
#include <eagle/version.hpp>
