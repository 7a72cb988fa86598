#include "controllers/queue/executor.h"

#include <utility>
#include <variant>

#include "common/kube/resource.h"
#include "common/log/log.h"
#include "controllers/queue/state_machine.h"

namespace vc::controllers::queue {

using kube::events::EventType;
using nlohmann::json;

namespace {

const kube::Resource& kQueues = kube::resources::queues;

kube::ApiError with_prefix(kube::ApiError e, const std::string& prefix) {
  e.message = prefix + error_text(e);
  return e;
}

kube::ApiError plan_failure(const std::string& message) {
  kube::ApiError e;
  e.kind = kube::ErrorKind::Other;
  e.message = message;
  return e;
}

std::string resource_version_of(const json& object) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto rv = meta->find("resourceVersion");
  return rv != meta->end() && rv->is_string() ? rv->get<std::string>() : std::string();
}

std::string state_of(const json& queue) {
  auto status = queue.find("status");
  if (status == queue.end() || !status->is_object()) return {};
  auto state = status->find("state");
  return state != status->end() && state->is_string() ? state->get<std::string>() : std::string();
}

}  // namespace

json state_apply_body(const std::string& queue, const std::string& resource_version,
                      const std::string& state) {
  json metadata = {{"name", queue}};
  if (!resource_version.empty()) metadata["resourceVersion"] = resource_version;
  return {{"apiVersion", kQueues.api_version()},
          {"kind", std::string(kQueues.kind)},
          {"metadata", std::move(metadata)},
          {"status", {{"state", state}}}};
}

json default_parent_patch(const std::string& resource_version) {
  json patch = {{"spec", {{"parent", std::string(kRootQueue)}}}};
  if (!resource_version.empty()) patch["metadata"] = {{"resourceVersion", resource_version}};
  return patch;
}

json closed_by_parent_patch(const std::string& value) {
  return {{"metadata", {{"annotations", {{std::string(kClosedByParentAnnotation), value}}}}}};
}

std::string error_text(const kube::ApiError& e) {
  return e.message.empty() ? e.describe() : e.message;
}

Executor::Executor(kube::Client& client, kube::events::EventRecorder& recorder,
                   QueueMetrics& metrics, EnqueueFn enqueue)
    : client_(client), recorder_(recorder), metrics_(metrics), enqueue_(std::move(enqueue)) {}

kube::Status Executor::execute(const Plan& plan, Written* written) {
  const auto note_write = [written](const std::string& queue, const json& reply) {
    if (written != nullptr) (*written)[queue] = resource_version_of(reply);
  };
  const std::string& name = plan.queue.name;
  // The queue's resourceVersion as of our last write: a patch in this plan moves it on, and a
  // later guarded write must not conflict with our own change.
  std::string rv = plan.queue.resource_version;
  const auto ref = plan.queue.reference();

  for (const Step& s : plan.steps) {
    if (std::holds_alternative<step::DefaultParent>(s)) {
      auto r =
          client_.patch(kQueues, "", name, kube::PatchType::Merge, default_parent_patch(rv).dump());
      if (!r) return r.error();
      rv = resource_version_of(*r);
      note_write(name, *r);
      VC_LOG_INFO("defaulted queue parent", kv("queue", name), kv("parent", kRootQueue));
    } else if (const auto* p = std::get_if<step::PublishCounts>(&s)) {
      metrics_.set(name, p->counts);
    } else if (const auto* p = std::get_if<step::ApplyState>(&s)) {
      kube::PatchOptions options{std::string(kFieldManager), /*force=*/true, "status"};
      auto r = client_.patch(kQueues, "", name, kube::PatchType::Apply,
                             state_apply_body(name, rv, p->to).dump(), options);
      if (!r) {
        // A Conflict is our own guard (the plan was made from an older copy): the retry plans
        // again from a fresh one, and a Warning event would only alarm users.
        if (!p->failure_reason.empty() && !r.is(kube::ErrorKind::Conflict)) {
          recorder_.event(ref, EventType::Warning, p->failure_reason,
                          p->failure_prefix + error_text(r.error()));
        }
        return r.error();
      }
      rv = resource_version_of(*r);
      note_write(name, *r);
      VC_LOG_INFO("queue state changed", kv("queue", name), kv("from", p->from), kv("to", p->to));
      if (!p->success_reason.empty()) {
        recorder_.event(ref, EventType::Normal, p->success_reason, p->success_message);
      }
    } else if (const auto* p = std::get_if<step::Annotate>(&s)) {
      auto r = client_.patch(kQueues, "", p->queue, kube::PatchType::Merge,
                             closed_by_parent_patch(p->value).dump());
      if (!r) return with_prefix(r.error(), p->failure_prefix);
      if (p->queue == name) rv = resource_version_of(*r);
      note_write(p->queue, *r);
      VC_LOG_DEBUG("annotated queue", kv("queue", p->queue), kv("closed_by_parent", p->value));
    } else if (const auto* p = std::get_if<step::RequireParentOpen>(&s)) {
      auto r = client_.get(kQueues, "", p->parent);
      if (r.is(kube::ErrorKind::NotFound))
        return plan_failure(parent_missing_message(name, p->parent));
      if (!r) return r.error();
      if (is_closed_or_closing(state_of(*r))) {
        return plan_failure(parent_closed_message(name, p->parent));
      }
    } else if (const auto* p = std::get_if<step::Enqueue>(&s)) {
      enqueue_(p->request);
    } else if (const auto* p = std::get_if<step::Fail>(&s)) {
      return plan_failure(p->message);
    } else if (const auto* p = std::get_if<step::Note>(&s)) {
      VC_LOG_INFO(p->message, kv("queue", name));
    }
  }
  return kube::ok_status();
}

kube::Status Executor::execute_command(std::string_view ns, std::string_view name,
                                       const Request& request) {
  auto r = client_.remove(kube::resources::commands, ns, name);
  if (r.is(kube::ErrorKind::NotFound)) {
    VC_LOG_DEBUG("command already gone, not acting on it", kv("namespace", ns), kv("name", name));
    return kube::ok_status();
  }
  if (!r) return r.error();
  VC_LOG_INFO("queue command received", kv("queue", request.queue), kv("action", request.action),
              kv("command", std::string(ns) + "/" + std::string(name)));
  enqueue_(request);
  return kube::ok_status();
}

}  // namespace vc::controllers::queue
