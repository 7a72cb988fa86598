#pragma once
// The Go types the jobs, cronjobs and jobflows webhooks decode objects into (Volcano v1.15
// batch/v1alpha1 and flow/v1alpha1, with the parts of k8s.io/api core/v1 they embed), described
// for go::check_go_types and for the semantic comparison of job updates. No dependency on the
// webhook: the tables may move to common/ as they are.
//
// Threads: the descriptions are built once on first use (thread-safe static initialisation) and
// are immutable afterwards.

#include "common/go/json_types/json_types.h"

namespace vc::webhook::jobs::schema {

const go::GoType& job();       // v1alpha1.Job
const go::GoType& job_spec();  // v1alpha1.JobSpec
const go::GoType& cron_job();  // v1alpha1.CronJob
const go::GoType& job_flow();  // v1alpha1.JobFlow

}  // namespace vc::webhook::jobs::schema
