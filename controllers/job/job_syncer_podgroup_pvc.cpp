// JobSyncer's steps on the job's PodGroup and claims (spec job-controller.md §4.2, §4.3 step 9,
// §4.5): create or update the PodGroup, delete it at the end of a kill, and make sure every
// volume's claim exists. The rest of JobSyncer is in job_syncer.cpp.

#include "controllers/job/job_syncer.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "common/kube/resource.h"
#include "common/log/log.h"
#include "controllers/job/derive/podgroup.h"
#include "controllers/job/derive/pvc.h"
#include "controllers/job/model/job_json.h"
#include "controllers/views/podgroup_view.h"

namespace vc::controllers::job {

namespace {

using kube::ErrorKind;
using nlohmann::json;
namespace resources = kube::resources;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

api::Status JobSyncer::delete_podgroup(const Job& job) {
  views::PodGroupViewPtr hold;
  if (const views::PodGroupView* pg = find_podgroup(job, hold)) {
    auto removed = writer_.remove(resources::podgroups, pg->namespace_, pg->name);
    if (!removed.ok() && !removed.is(ErrorKind::NotFound)) {
      return api::Unexpected{"delete PodGroup " + pg->name + ": " + removed.error().describe()};
    }
    pending_.deleted.record(pg->uid);
    return api::ok_status();
  }
  // The cache does not show a PodGroup, but we may have created one a moment ago: left alone it
  // would outlive the Abort, Complete or Terminate. Deleted by name with its UID as a
  // precondition, so a PodGroup of that name that is not the one we created is never touched.
  for (const kube::cache::ObjectPtr& pg : pending_.podgroups_created.of(job.key())) {
    if (pending_.deleted.contains(pg->uid)) continue;
    kube::DeleteOptions opts;
    opts.precondition_uid = pg->uid;
    auto removed = writer_.remove(resources::podgroups, pg->namespace_, pg->name, opts);
    // NotFound: gone already. Conflict: the UID precondition failed, so ours is gone and the
    // PodGroup of that name is someone else's.
    if (!removed.ok() && !removed.is(ErrorKind::NotFound) && !removed.is(ErrorKind::Conflict)) {
      return api::Unexpected{"delete PodGroup " + pg->name + ": " + removed.error().describe()};
    }
    VC_LOG_DEBUG("PodGroup created by us is not cached yet; deleted by name", kv("job", job.key()),
                 kv("podgroup", pg->name));
    pending_.deleted.record(pg->uid);
    pending_.podgroups_created.forget(job.key(), pg->uid);
  }
  return api::ok_status();
}

api::Status JobSyncer::ensure_pvcs(Job& job, JobStatus& working) {
  for (std::size_t i = 0; i < job.spec.volumes.size(); ++i) {
    const VolumeSpec volume = job.spec.volumes[i];
    std::string name = volume.volume_claim_name;
    if (name.empty()) {
      do {
        name = generated_pvc_name(job, options_.random_name);
      } while (caches_.pvcs.get(kube::cache::object_key(job.namespace_, name)));
      // Record the name in the spec before creating the claim, so a failed update cannot leave an
      // orphaned claim behind (Volcano creates first, spec job-controller.md §8.15). Should the
      // create fail, the next pass finds the name and creates the claim (ensure_pvc).
      auto fresh = writer_.get(resources::jobs, job.namespace_, job.name);
      if (!fresh.ok()) return api::Unexpected{"get job: " + fresh.error().describe()};
      json& volumes = (*fresh)["spec"]["volumes"];
      if (!volumes.is_array() || volumes.size() <= i) {
        return api::Unexpected{"job volumes changed, retrying"};
      }
      volumes[i]["volumeClaimName"] = name;
      auto updated = writer_.update(resources::jobs, job.namespace_, *fresh);
      if (!updated.ok()) {
        return api::Unexpected{"update job volumes: " + updated.error().describe()};
      }
      try {
        auto parsed = job_from_json(*updated);
        jobs_.record_write(parsed);
        job = *parsed;
      } catch (const std::exception& e) {
        return api::Unexpected{std::string("read updated job: ") + e.what()};
      }
      if (volume.volume_claim_text) {
        auto created = writer_.create(resources::persistentvolumeclaims, job.namespace_,
                                      build_pvc(job, name, *volume.volume_claim_text));
        if (!created.ok()) {
          return api::Unexpected{"create PVC " + name + ": " + created.error().describe()};
        }
      }
    } else if (auto exists = ensure_pvc(job, volume, name); !exists) {
      return exists;
    }
    working.controlled_resources["volume-pvc-" + name] = name;
  }
  return api::ok_status();
}

api::Status JobSyncer::ensure_pvc(const Job& job, const VolumeSpec& volume,
                                  const std::string& name) {
  if (caches_.pvcs.get(kube::cache::object_key(job.namespace_, name))) return api::ok_status();
  // Not cached: maybe created a moment ago (by us, or by the user the job waits for), so the
  // server decides.
  auto fresh = writer_.get(resources::persistentvolumeclaims, job.namespace_, name);
  if (fresh.ok()) return api::ok_status();
  if (!fresh.is(ErrorKind::NotFound)) {
    return api::Unexpected{"get PVC " + name + ": " + fresh.error().describe()};
  }
  // A name with a volumeClaim is one we generated (the webhook refuses a user's job that sets
  // both) and recorded in the spec before creating the claim: that create failed, so make it now.
  if (volume.volume_claim_text) {
    auto created = writer_.create(resources::persistentvolumeclaims, job.namespace_,
                                  build_pvc(job, name, *volume.volume_claim_text));
    if (created.ok() || created.is(ErrorKind::AlreadyExists)) return api::ok_status();
    return api::Unexpected{"create PVC " + name + ": " + created.error().describe()};
  }
  return api::Unexpected{
      "pvc " + name +
      " is not found, the job will be in the Pending state until the PVC is created"};
}

const views::PodGroupView* JobSyncer::find_podgroup(const Job& job,
                                                    views::PodGroupViewPtr& hold) const {
  hold = views::as_podgroup_view(
      caches_.podgroups.get(kube::cache::object_key(job.namespace_, podgroup_name(job))));
  if (!hold) {
    hold = views::as_podgroup_view(
        caches_.podgroups.get(kube::cache::object_key(job.namespace_, job.name)));
  }
  if (hold && !pending_.podgroups_created.empty()) {
    pending_.podgroups_created.forget(job.key(), hold->uid);  // the informer shows our create
  }
  // A PodGroup we deleted (a kill) that the informer still shows is gone: the scheduler must
  // admit its successor before pods are created or counted again.
  if (hold && pending_.deleted.contains(hold->uid)) {
    VC_LOG_DEBUG("PodGroup deleted by us is still cached; treated as absent", kv("job", job.key()),
                 kv("podgroup", hold->name));
    hold.reset();
  }
  return hold.get();
}

api::Status JobSyncer::ensure_podgroup(const Job& job) {
  PriorityOf priority_of = [this](const std::string& name) -> std::optional<std::int32_t> {
    if (!caches_.priorities || name.empty()) return std::nullopt;
    auto pc =
        std::dynamic_pointer_cast<const kube::cache::JsonObject>(caches_.priorities->get(name));
    if (!pc) return std::nullopt;
    const json& v = pc->json.contains("value") ? pc->json["value"] : json();
    if (!v.is_number_integer()) return std::nullopt;
    return v.get<std::int32_t>();
  };
  views::PodGroupViewPtr hold;
  const views::PodGroupView* pg = find_podgroup(job, hold);
  if (!pg) {
    if (!terminating_.may_create(job.namespace_)) return api::ok_status();
    auto created =
        writer_.create(resources::podgroups, job.namespace_, build_podgroup(job, priority_of));
    if (created.ok()) {
      terminating_.created(job.namespace_);
      record_podgroup_created(job, *created);
      return api::ok_status();
    }
    // Being deleted with its namespace: nothing to report or retry (see create_pods).
    if (created.error().has_cause(kube::kNamespaceTerminatingCause)) {
      terminating_.refused(job.namespace_);
      return api::ok_status();
    }
    if (created.is(ErrorKind::AlreadyExists)) return api::ok_status();
    return api::Unexpected{created.error().describe()};
  }
  if (!podgroup_may_need_update(job, *pg, priority_of)) return api::ok_status();
  auto fresh = writer_.get(resources::podgroups, pg->namespace_, pg->name);
  if (!fresh.ok()) return api::Unexpected{fresh.error().describe()};
  auto updated = update_podgroup(job, *fresh, priority_of);
  if (!updated) return api::ok_status();
  auto put = writer_.update(resources::podgroups, pg->namespace_, *updated);
  if (!put.ok()) return api::Unexpected{put.error().describe()};
  return api::ok_status();
}

void JobSyncer::report_podgroup_pending(const Job& job, const views::PodGroupView& pg) {
  const views::PodGroupConditionView* latest = nullptr;
  std::optional<api::TimePoint> latest_time;
  for (const auto& cond : pg.conditions) {
    if (cond.status != "True") continue;
    const std::optional<api::TimePoint>& t = cond.last_transition_time;
    if (!latest || (t && (!latest_time || *t > *latest_time))) {
      latest = &cond;
      latest_time = t;
    }
  }
  if (!latest || latest->type == "Scheduled") return;
  event(job, true, "PodGroupPending",
        "PodGroup " + job.namespace_ + ":" + job.name + " " + lower(std::string(latest->type)) +
            ", reason: " + latest->message);
}

void JobSyncer::record_podgroup_created(const Job& job, const json& reply) {
  const json& meta = reply.contains("metadata") ? reply["metadata"] : json();
  if (!meta.is_object()) return;
  auto pg = std::make_shared<kube::cache::Object>();
  pg->namespace_ = job.namespace_;
  pg->name = meta.value("name", "");
  pg->uid = meta.value("uid", "");
  if (pg->name.empty()) return;
  pending_.podgroups_created.record(job.key(), std::move(pg));
}

}  // namespace vc::controllers::job
