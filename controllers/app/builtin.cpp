#include "controllers/app/builtin.h"

#include "controllers/colocation/colocation_controller.h"
#include "controllers/cronjob/cronjob_controller.h"
#include "controllers/garbagecollector/gc_controller.h"
#include "controllers/hypernode/hypernode_controller.h"
#include "controllers/job/job_controller.h"
#include "controllers/jobflow/jobflow_controller.h"
#include "controllers/jobtemplate/jobtemplate_controller.h"
#include "controllers/podgroup/podgroup_controller.h"
#include "controllers/queue/queue_controller.h"
#include "controllers/sharding/sharding_controller.h"

namespace vc::controllers::app {

void register_builtin_controllers(ControllerRegistry& registry) {
  // Lambdas, not function names: a controller may overload its factory with test seams.
  registry.add("queue-controller", [] { return queue::make_queue_controller(); });
  registry.add("pg-controller", [] { return podgroup::make_podgroup_controller(); });
  registry.add("gc-controller", [] { return gc::make_gc_controller(); });
  registry.add("job-controller", [] { return job::make_job_controller(); });
  registry.add("cronjob-controller", [] { return cronjob::make_cronjob_controller(); });
  registry.add("jobflow-controller", [] { return jobflow::make_jobflow_controller(); });
  registry.add("jobtemplate-controller", [] { return jobtemplate::make_jobtemplate_controller(); });
  registry.add("hyperNode-controller", [] { return hypernode::make_hypernode_controller(); });
  registry.add("colocation-config-controller",
               [] { return colocation::make_colocation_controller(); });
  registry.add("sharding-controller", [] { return sharding::make_sharding_controller(); });
}

}  // namespace vc::controllers::app
