#pragma once
// The job controller's names for the shared Volcano Job model (common/volcano/job.h): the
// controller code says Job, TaskSpec, phase::kRunning within its own namespace.

#include "common/volcano/job.h"
#include "common/volcano/pod_template.h"

namespace vc::controllers::job {

namespace phase = volcano::phase;
namespace keys = volcano::keys;

using volcano::DependsOn;
using volcano::interned_pod_templates;
using volcano::Job;
using volcano::JobCondition;
using volcano::JobPtr;
using volcano::JobSpec;
using volcano::JobStatus;
using volcano::kJobApiVersion;
using volcano::kJobKind;
using volcano::LifecyclePolicy;
using volcano::NetworkTopology;
using volcano::PartitionPolicy;
using volcano::PodTemplate;
using volcano::TaskPhaseCounts;
using volcano::TaskSpec;
using volcano::VolumeSpec;

}  // namespace vc::controllers::job
