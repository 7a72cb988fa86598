#include "controllers/job/job_pods.h"

#include <string_view>
#include <unordered_set>

#include "common/log/log.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

namespace {

views::PodViewPtr as_terminating(const views::PodViewPtr& pod, api::TimePoint since) {
  auto going = std::make_shared<views::PodView>(*pod);
  going->deletion_timestamp = since;
  return going;
}

}  // namespace

std::vector<std::string> job_pods_index(const kube::cache::Object& obj) {
  const auto* pod = dynamic_cast<const views::PodView*>(&obj);
  if (!pod) return {};
  const views::OwnerRefView* ref = pod->controller_ref();
  if (!ref || ref->api_version != kJobApiVersion || ref->kind != kJobKind) return {};
  const std::string* job_name = pod->annotation(keys::kJobName);
  if (!job_name || !pod->annotation(keys::kTaskSpec)) return {};
  return {kube::cache::object_key(pod->namespace_, *job_name)};
}

std::vector<views::PodViewPtr> job_pods(const kube::cache::Store& pods, const std::string& job_key,
                                        PendingWrites& pending, api::TimePoint deletion_stand_in) {
  // The records before the cache: the informer updates its store before its handler forgets a
  // created pod, so every pod is in the records read here or in the store read after.
  const std::vector<kube::cache::ObjectPtr> created = pending.pods_created.of(job_key);
  std::vector<views::PodViewPtr> out;
  int deleted_live = 0;
  for (const auto& obj : pods.by_index(kJobPodsIndex, job_key)) {
    auto pod = views::as_pod_view(obj);
    if (!pod) continue;
    if (!pending.deleted.empty()) {
      if (pod->deletion_timestamp) {
        pending.deleted.forget(pod->uid);
      } else if (pending.deleted.contains(pod->uid)) {
        // Deleted by us, not yet shown by the informer: it is terminating.
        pod = as_terminating(pod, deletion_stand_in);
        ++deleted_live;
      }
    }
    out.push_back(std::move(pod));
  }
  int created_missing = 0;
  if (!created.empty()) {
    std::unordered_set<std::string_view> cached;
    cached.reserve(out.size());
    for (const auto& pod : out) cached.insert(pod->name);
    for (const auto& obj : created) {
      auto pod = views::as_pod_view(obj);
      if (!pod) continue;
      if (cached.contains(pod->name)) {
        // The cache shows this name: our pod (the informer caught up) or, ours being gone, a
        // newer one. Either way the cache tells the truth about it from now on.
        pending.pods_created.forget(job_key, pod->uid);
        continue;
      }
      if (pending.deleted.contains(pod->uid)) pod = as_terminating(pod, deletion_stand_in);
      out.push_back(std::move(pod));
      ++created_missing;
    }
  }
  if (deleted_live > 0 || created_missing > 0) {
    VC_LOG_DEBUG("pod cache behind our writes; counted from them", kv("job", job_key),
                 kv("deleted_still_live", deleted_live), kv("created_not_cached", created_missing));
  }
  return out;
}

}  // namespace vc::controllers::job
