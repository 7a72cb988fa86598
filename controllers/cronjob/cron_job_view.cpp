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
                  // Invalid UTF-8 becomes U+FFFD, as Go's encoder (the API server) writes it.
                  out->job_template_spec =
                      js->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
                  out->job_template_spec.shrink_to_fit();
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
