#pragma once
// The smaller Job checks of spec webhook.md §2.2: volumes (validateIO, §2.2.4), the task dependency
// DAG (spec webhook.md §2.2.5), partition policies (§2.2.3) and the MPI plugin's master flag
// (spec webhook.md §6.14).
//
// Threads: pure functions.

#include <string>
#include <vector>

#include "webhook/admission/jobs/job_view.h"

namespace vc::webhook::jobs {

// The first volume problem as Volcano words it, or "".
std::string validate_io(const std::vector<VolumeSpec>& volumes);

// True when the tasks' dependsOn form a DAG by Volcano's rules: unknown, duplicated and self
// dependencies, cycles and duplicate task names all fail.
bool tasks_form_dag(const std::vector<TaskSpec>& tasks);

// validatePartitionPolicy: "" or the message (no leading space, no ";").
std::string validate_partition_policy(const TaskSpec& task, const std::string& job_name);

// Both highestTierAllowed and highestTierName set.
bool topology_conflicts(const NetworkTopology& t);
inline constexpr const char* kTopologyConflict =
    "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
    "simultaneously";

// The mpi plugin's master task name: Go `flag` parsing of the arguments with flags master
// (default "master"), worker and port; parsing stops at the first problem and keeps what it had.
std::string mpi_master_name(const std::vector<std::string>& args);

// Go's %v of a []string: "[a b c]".
std::string go_string_list(const std::vector<std::string>& items);

}  // namespace vc::webhook::jobs
