#include "controllers/cronjob/cron_job_view.h"

namespace vc::controllers::cronjob {

kube::cache::Transform cron_job_view_transform() {
  return {"cronjob-view", [](nlohmann::json&& object) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<CronJobView>();
            volcano::decode_cron_job(object, *out);
            // decode_cron_job has type-checked the path: objects all the way down, or absent.
            if (auto spec = object.find("spec"); spec != object.end() && spec->is_object()) {
              if (auto t = spec->find("jobTemplate"); t != spec->end() && t->is_object()) {
                if (auto js = t->find("spec"); js != t->end()) {
                  out->job_template_spec = std::move(*js);
                }
              }
            }
            return out;
          }};
}

std::shared_ptr<const CronJobView> as_cron_job(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const CronJobView>(object);
}

}  // namespace vc::controllers::cronjob
