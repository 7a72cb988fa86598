#include "webhook/check/run.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "common/kube/client.h"
#include "common/kube/config.h"
#include "webhook/check/admit_object.h"
#include "webhook/check/inputs.h"
#include "webhook/check/live_cluster_view.h"
#include "webhook/check/manifest_reader.h"
#include "webhook/check/report.h"
#include "webhook/check/routing.h"
#include "webhook/check/yaml_emit.h"

namespace vc::webhook::check {
namespace {

api::Expected<std::shared_ptr<const PodAdmissionConfig>> load_admission_conf(
    const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return api::Unexpected{"cannot read " + path + ": " + std::strerror(errno)};
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto config = PodAdmissionConfig::parse(text);
  if (!config) return api::Unexpected{path + ": " + config.error()};
  return std::make_shared<const PodAdmissionConfig>(std::move(*config));
}

// The queues and namespaces a run sees: from the cluster when options.online(), else none.
api::Expected<std::unique_ptr<LiveClusterView>> connect(const CheckOptions& options) {
  try {
    kube::ClientOptions client_options;
    client_options.user_agent = "vc-webhook-manager-check/" VC_VERSION;
    auto client = std::make_shared<kube::Client>(
        kube::Config::load(options.kubeconfig, options.master), client_options);
    return LiveClusterView::connect(std::move(client));
  } catch (const kube::ConfigError& e) {
    return api::Unexpected{e.what()};
  }
}

std::string request_uid(int sequence) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012d", sequence);
  return buf;
}

class Run {
 public:
  Run(const CheckOptions& options, const ClusterView& view, LiveClusterView* live,
      std::ostream& out, std::ostream& err)
      : options_(options), view_(view), live_(live), out_(out), err_(err) {}

  void source(const Source& source, std::istream& in) {
    auto text = read_source(source, in);
    if (!text) {
      err_ << error_line(source.label, 0, 0, text.error()) << '\n';
      ++tally_.unreadable;
      return;
    }
    for (ManifestEntry& entry : read_manifests(*text)) object(source.label, entry);
  }

  const Tally& tally() const { return tally_; }

 private:
  void object(const std::string& label, ManifestEntry& entry) {
    const std::string where = label + ":" + entry.doc;
    if (!entry.error.empty()) {
      err_ << error_line(where, entry.line, entry.column, entry.error) << '\n';
      ++tally_.unreadable;
      return;
    }
    const json& object = entry.object;
    auto route =
        route_for(object["apiVersion"].get<std::string>(), object["kind"].get<std::string>(),
                  options_.admission.pod_admission_config != nullptr);
    const std::string ns = !route ? metadata_string(object, "namespace")
                           : route->resource.namespaced
                               ? target_namespace(object, options_.default_namespace)
                               : std::string();
    const std::string ref = object_ref(object, ns);
    for (const std::string& w : entry.warnings) {
      err_ << result_line(where, ref, "warning", w) << '\n';
    }
    if (!route) {
      err_ << result_line(where, ref, "not admitted by the Volcano webhook, skipped") << '\n';
      ++tally_.not_admitted;
      if (live_ && object["apiVersion"] == "v1" && object["kind"] == "Namespace") {
        live_->add_planned_namespace(object);
      }
      print(object);
      return;
    }
    Outcome outcome = admit_object(object, *route, view_, options_.admission,
                                   options_.default_namespace, request_uid(++sequence_));
    for (const std::string& s : outcome.skipped) {
      err_ << result_line(where, ref, "skipped", s) << '\n';
    }
    tally_.lookups_skipped += static_cast<int>(outcome.skipped.size());
    for (const std::string& w : outcome.warnings) {
      err_ << result_line(where, ref, "warning", w) << '\n';
    }
    if (!outcome.allowed) {
      err_ << result_line(where, ref, "denied", outcome.message) << '\n';
      ++tally_.denied;
      return;
    }
    err_ << result_line(where, ref, "allowed") << '\n';
    ++tally_.allowed;
    if (live_ && route->resource.kind == "Queue") live_->add_planned_queue(outcome.object);
    print(outcome.object);
  }

  void print(const json& object) {
    switch (options_.output) {
      case OutputFormat::None:
        return;
      case OutputFormat::Yaml:
        if (printed_++ > 0) out_ << "---\n";
        out_ << to_yaml(object);
        return;
      case OutputFormat::Json:
        out_ << object.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
        return;
    }
  }

  const CheckOptions& options_;
  const ClusterView& view_;
  LiveClusterView* live_;
  std::ostream& out_;
  std::ostream& err_;
  Tally tally_;
  int sequence_ = 0;
  int printed_ = 0;
};

}  // namespace

int run_check(const CheckOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  CheckOptions effective = options;
  if (!options.admission_conf.empty()) {
    auto config = load_admission_conf(options.admission_conf);
    if (!config) {
      err << "error: --admission-conf: " << config.error() << '\n';
      return kExitUsage;
    }
    effective.admission.pod_admission_config = std::move(*config);
  }

  StaticClusterView offline;
  offline.set_online(false);
  std::unique_ptr<LiveClusterView> live;
  if (options.online()) {
    auto connected = connect(options);
    if (!connected) {
      err << "error: " << connected.error() << '\n';
      return kExitUsage;
    }
    live = std::move(*connected);
  }

  Run run(effective, live ? static_cast<const ClusterView&>(*live) : offline, live.get(), out, err);
  for (const Source& source : expand_sources(options.filenames)) run.source(source, in);
  out.flush();
  err << summary_line(run.tally(), !live) << '\n';
  return exit_code(run.tally());
}

}  // namespace vc::webhook::check
