#include "controllers/explain/admission.h"

#include "webhook/admission/options.h"
#include "webhook/check/admit_object.h"
#include "webhook/check/manifest_reader.h"
#include "webhook/check/routing.h"

namespace vc::controllers::explain {
namespace {

bool is_volcano_job(const nlohmann::json& o) {
  return o.is_object() && o.value("apiVersion", "") == "batch.volcano.sh/v1alpha1" &&
         o.value("kind", "") == "Job";
}

std::string job_name(const nlohmann::json& o) {
  return webhook::check::metadata_string(o, "name");
}

// The links after Admission, not reached.
void add_not_reached(Explanation& x) {
  for (const std::string& name : link_names()) {
    x.chain.push_back(Link{name, LinkState::NotReached, "", "", {}, ""});
  }
}

}  // namespace

api::Expected<nlohmann::json> job_in_manifest(std::string_view text, const std::string& name) {
  std::vector<nlohmann::json> jobs;
  for (webhook::check::ManifestEntry& e : webhook::check::read_manifests(text)) {
    if (!e.error.empty()) {
      return api::Unexpected{"document " + e.doc + " (line " + std::to_string(e.line) +
                             "): " + e.error};
    }
    if (is_volcano_job(e.object)) jobs.push_back(std::move(e.object));
  }
  if (!name.empty()) {
    for (nlohmann::json& j : jobs) {
      if (job_name(j) == name) return std::move(j);
    }
    return api::Unexpected{"no Volcano Job named " + name + " in the manifest"};
  }
  if (jobs.empty())
    return api::Unexpected{"no Volcano Job (batch.volcano.sh/v1alpha1) in the manifest"};
  if (jobs.size() > 1) {
    return api::Unexpected{"the manifest has " + std::to_string(jobs.size()) +
                           " Volcano Jobs: name the one to explain"};
  }
  return std::move(jobs.front());
}

Admission admit_job(const nlohmann::json& job, const webhook::ClusterView& view,
                    const std::string& default_namespace) {
  Admission a;
  a.namespace_ = webhook::check::target_namespace(job, default_namespace);
  a.name = job_name(job);
  const auto route = webhook::check::route_for("batch.volcano.sh/v1alpha1", "Job", false);
  const webhook::AdmissionOptions options;
  webhook::check::Outcome o = webhook::check::admit_object(
      job, *route, view, options, default_namespace, "00000000-0000-4000-8000-000000000001");
  a.allowed = o.allowed;
  a.message = std::move(o.message);
  a.denied_by = std::move(o.denied_by);
  a.warnings = std::move(o.warnings);
  a.object = std::move(o.object);
  return a;
}

Link admission_link(const Admission& a) {
  Link l{"Admission",
         a.allowed ? LinkState::Through : LinkState::Broken,
         a.allowed ? "the webhook admits it" : "denied by " + a.denied_by,
         "",
         {},
         ""};
  for (const std::string& w : a.warnings) l.evidence.push_back("webhook warning: " + w);
  if (!a.allowed) {
    l.why = "the Volcano webhook denies the Job: " + a.message;
    l.evidence.insert(l.evidence.begin(), "admission webhook " + a.denied_by + ": " + a.message);
    l.action =
        "fix what the message names and apply again (vc-webhook-manager check -f FILE "
        "checks a manifest without a cluster)";
  }
  return l;
}

// The chain of a manifest's Job that stops at, or ends after, its Admission link.
Explanation admission_only(const Admission& a, Verdict verdict, std::string headline) {
  Explanation x;
  x.kind = "Job";
  x.namespace_ = a.namespace_;
  x.name = a.name;
  x.chain.push_back(admission_link(a));
  if (!a.allowed) x.stop = 0;
  x.verdict = verdict;
  x.headline = std::move(headline);
  add_not_reached(x);
  return x;
}

Explanation denied_explanation(const Admission& a) {
  return admission_only(a, Verdict::ConfigurationError, admission_link(a).why);
}

Explanation not_created_explanation(const Admission& a) {
  return admission_only(a, Verdict::Progressing,
                        "the webhook admits it; it is not in the cluster yet");
}

Explanation with_admission(Explanation x, const Admission& a) {
  x.chain.insert(x.chain.begin(), admission_link(a));
  if (x.stop >= 0) ++x.stop;
  return x;
}

}  // namespace vc::controllers::explain
