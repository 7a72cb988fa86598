#include "webhook/admission/jobs/pod_template.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "common/api/label_validation.h"
#include "common/api/quantity.h"
#include "webhook/admission/jobs/k8s_names.h"
#include "webhook/admission/jobs/pod_validation_internal.h"

namespace vc::webhook::jobs {

using nlohmann::json;

namespace {

constexpr std::int64_t kAnnotationSizeLimit = 256 * 1024;

void default_containers(json& spec, const char* key, bool host_network) {
  if (!spec.contains(key) || !spec[key].is_array()) return;
  for (auto& c : spec[key]) {
    if (!c.is_object()) c = json::object();
    if (str_at(c, "terminationMessagePath").empty()) {
      c["terminationMessagePath"] = "/dev/termination-log";
    }
    if (str_at(c, "terminationMessagePolicy").empty()) c["terminationMessagePolicy"] = "File";
    if (str_at(c, "imagePullPolicy").empty()) {
      c["imagePullPolicy"] = detail::default_pull_policy(str_at(c, "image"));
    }
    if (!c.contains("ports") || !c["ports"].is_array()) continue;
    for (auto& p : c["ports"]) {
      if (!p.is_object()) p = json::object();
      if (str_at(p, "protocol").empty()) p["protocol"] = "TCP";
      if (host_network && int_at(p, "hostPort") == 0) p["hostPort"] = int_at(p, "containerPort");
    }
  }
}

void validate_name(const std::vector<std::string>& problems, const FieldPath& path,
                   const std::string& value, FieldErrorList& errs) {
  for (const auto& m : problems) errs.add(invalid(path, BadValue::str(value), m));
}

void validate_annotations(const json& annotations, const FieldPath& path, FieldErrorList& errs) {
  if (!annotations.is_object()) return;
  std::int64_t size = 0;
  for (const auto& [k, v] : annotations.items()) {
    std::string lower = k;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const auto& m : api::is_qualified_name(lower))
      errs.add(invalid(path, BadValue::str(k), m));
    size += static_cast<std::int64_t>(k.size()) +
            static_cast<std::int64_t>(v.is_string() ? v.get_ref<const std::string&>().size() : 0);
  }
  if (size > kAnnotationSizeLimit) {
    errs.add({FieldErrorType::TooLong,
              path.str(),
              {},
              "may not be more than " + std::to_string(kAnnotationSizeLimit) + " bytes"});
  }
}

void validate_volumes(const json& spec, const FieldPath& path, detail::VolumeNames& names,
                      FieldErrorList& errs) {
  const json& volumes = child_at(spec, "volumes");
  if (!volumes.is_array()) return;
  for (std::size_t i = 0; i < volumes.size(); ++i) {
    const std::string name = str_at(volumes[i], "name");
    const FieldPath name_path = path.index(i).child("name");
    FieldErrorList el;
    if (name.empty()) {
      el.add(required(name_path, ""));
    } else {
      validate_name(api::is_dns1123_label(name), name_path, name, el);
    }
    if (names.count(name)) el.add(duplicate(name_path, BadValue::str(name)));
    if (el.empty()) {
      names.insert(name);
    } else {
      errs.append(el);
    }
  }
}

void validate_tolerations(const json& spec, const FieldPath& path, FieldErrorList& errs) {
  const json& tolerations = child_at(spec, "tolerations");
  if (!tolerations.is_array()) return;
  for (std::size_t i = 0; i < tolerations.size(); ++i) {
    const json& t = tolerations[i];
    const FieldPath p = path.index(i);
    const std::string key = str_at(t, "key");
    const std::string op = str_at(t, "operator");
    const std::string value = str_at(t, "value");
    const std::string effect = str_at(t, "effect");
    if (!key.empty()) {
      for (const auto& m : api::is_qualified_name(key)) {
        errs.add(invalid(p.child("key"), BadValue::str(key), m));
      }
    }
    if (key.empty() && op != "Exists") {
      errs.add(invalid(p.child("operator"), BadValue::json_value(op),
                       "operator must be Exists when `key` is empty, which means \"match all "
                       "values and all keys\""));
    }
    if (child_at(t, "tolerationSeconds").is_number() && effect != "NoExecute") {
      errs.add(invalid(p.child("effect"), BadValue::json_value(effect),
                       "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op.empty() || op == "Equal") {
      auto problems = api::is_valid_label_value(value);
      if (!problems.empty()) {
        std::string joined;
        for (const auto& m : problems) joined += (joined.empty() ? "" : ";") + m;
        errs.add(invalid(p.child("operator"), BadValue::str(value), joined));
      }
    } else if (op == "Exists") {
      if (!value.empty()) {
        errs.add(invalid(p.child("operator"), BadValue::str(value),
                         "value must be empty when `operator` is 'Exists'"));
      }
    } else {
      errs.add(not_supported(p.child("operator"), BadValue::json_value(op), {"Equal", "Exists"}));
    }
    if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" &&
        effect != "NoExecute") {
      errs.add(not_supported(p.child("effect"), BadValue::json_value(effect),
                             {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
    }
  }
}

void validate_host_network_ports(const json& spec, const FieldPath& path, FieldErrorList& errs) {
  if (!bool_at(spec, "hostNetwork")) return;
  const json& containers = child_at(spec, "containers");
  if (!containers.is_array()) return;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const json& ports = child_at(containers[i], "ports");
    if (!ports.is_array()) continue;
    for (std::size_t j = 0; j < ports.size(); ++j) {
      const auto host = int_at(ports[j], "hostPort");
      if (host != 0 && host != int_at(ports[j], "containerPort")) {
        errs.add(invalid(
            path.child("containers").index(i).child("ports").index(j).child("hostPort"),
            BadValue::number(host), "must match `containerPort` when `hostNetwork` is true"));
      }
    }
  }
}

// unset: the value v1 defaulting gives the field when it is unset, or null for none.
void validate_enum(const json& spec, const char* key, const FieldPath& path,
                   const std::vector<std::string>& valid, FieldErrorList& errs,
                   const char* unset = nullptr) {
  std::string v = str_at(spec, key);
  if (v.empty() && unset) v = unset;
  if (v.empty()) {
    errs.add(required(path.child(key), ""));
  } else if (std::find(valid.begin(), valid.end(), v) == valid.end()) {
    errs.add(not_supported(path.child(key), BadValue::json_value(v), valid));
  }
}

void validate_dns_config(const json& spec, const FieldPath& path, FieldErrorList& errs) {
  if (str_at(spec, "dnsPolicy") != "None") return;
  const json& config = child_at(spec, "dnsConfig");
  if (!config.is_object()) {
    errs.add(
        required(path.child("dnsConfig"), "must provide `dnsConfig` when `dnsPolicy` is None"));
  } else if (!child_at(config, "nameservers").is_array() ||
             child_at(config, "nameservers").empty()) {
    errs.add(required(path.child("dnsConfig").child("nameservers"),
                      "must provide at least one DNS nameserver when `dnsPolicy` is None"));
  }
}

void validate_scheduling_gates(const json& spec, const FieldPath& path, FieldErrorList& errs) {
  const json& gates = child_at(spec, "schedulingGates");
  if (!gates.is_array()) return;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const std::string name = str_at(gates[i], "name");
    validate_name(api::is_qualified_name(name), path.index(i), name, errs);
    if (seen.count(name)) errs.add(duplicate(path.index(i), BadValue::str(name)));
    seen.insert(name);
  }
}

// The single-valued PodSpec fields checked after the containers (ValidatePodSpec's tail).
void validate_spec_fields(const json& spec, const FieldPath& path, FieldErrorList& errs) {
  auto subdomain_field = [&](const char* key) {
    const std::string v = str_at(spec, key);
    if (!v.empty()) validate_name(api::is_dns1123_subdomain(v), path.child(key), v, errs);
  };
  subdomain_field("serviceAccountName");
  subdomain_field("nodeName");
  const json& deadline = child_at(spec, "activeDeadlineSeconds");
  if (deadline.is_number_integer()) {
    const auto v = deadline.get<std::int64_t>();
    if (v < 1 || v > 2147483647) {
      errs.add(invalid(path.child("activeDeadlineSeconds"), BadValue::number(v),
                       inclusive_range_error(1, 2147483647)));
    }
  }
  for (const char* key : {"hostname", "subdomain"}) {
    const std::string v = str_at(spec, key);
    if (!v.empty()) validate_name(api::is_dns1123_label(v), path.child(key), v, errs);
  }
  validate_tolerations(spec, path.child("tolerations"), errs);
  subdomain_field("priorityClassName");
  if (child_at(spec, "runtimeClassName").is_string()) {
    const std::string v = str_at(spec, "runtimeClassName");
    validate_name(api::is_dns1123_subdomain(v), path.child("runtimeClassName"), v, errs);
  }
  if (child_at(spec, "preemptionPolicy").is_string()) {
    validate_enum(spec, "preemptionPolicy", path, {"PreemptLowerPriority", "Never"}, errs);
  }
  const json& os = child_at(spec, "os");
  if (os.is_object()) {
    const std::string name = str_at(os, "name");
    if (name.empty()) {
      errs.add(required(path.child("os").child("name"), "cannot be empty"));
    } else if (name != "linux" && name != "windows") {
      errs.add(not_supported(path.child("os"), BadValue::json_value(name), {"linux", "windows"}));
    }
  }
}

void validate_pod_spec(const json& spec, const FieldPath& path, bool pod_level_resources,
                       FieldErrorList& errs) {
  // terminationGracePeriodSeconds is never missing here: defaulting sets 30 when it is not a
  // number, so Kubernetes' "Required value" for it cannot occur.
  detail::VolumeNames volumes;
  validate_volumes(spec, path.child("volumes"), volumes, errs);
  detail::validate_containers(spec, volumes, path.child("containers"), errs);
  detail::validate_init_containers(spec, volumes, path.child("initContainers"), errs);
  const json& pod_resources = child_at(spec, "resources");
  if (pod_level_resources && pod_resources.is_object()) {
    const FieldPath rp = path.child("resources");
    if (!child_at(pod_resources, "claims").is_null()) {
      errs.add(forbidden(rp.child("claims"), "claims cannot be set for Resources at pod-level"));
    }
    detail::validate_resource_requirements(pod_resources, true, rp, errs);
    detail::validate_pod_resource_consistency(spec, rp, errs);
  }
  validate_host_network_ports(spec, path, errs);
  validate_enum(spec, "restartPolicy", path, {"Always", "OnFailure", "Never"}, errs, "Always");
  validate_enum(spec, "dnsPolicy", path,
                {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}, errs,
                "ClusterFirst");
  detail::validate_labels(child_at(spec, "nodeSelector"), path.child("nodeSelector"), errs);
  validate_dns_config(spec, path, errs);
  validate_scheduling_gates(spec, path.child("schedulingGates"), errs);
  validate_spec_fields(spec, path, errs);
}

// validateTaskTopoPolicy: every container must request a whole, non-zero number of CPUs.
std::string topology_policy_problem(const TaskSpec& task, std::size_t index) {
  const json& spec = child_at(task.template_json(), "spec");
  std::size_t id = 0;
  for (const char* key : {"containers", "initContainers"}) {
    const json& list = child_at(spec, key);
    if (!list.is_array()) continue;
    for (const auto& c : list) {
      const json& resources = child_at(c, "resources");
      const json* requests = &child_at(resources, "requests");
      if (!requests->is_object() || requests->empty()) requests = &child_at(resources, "limits");
      api::Quantity cpu;
      if (requests->is_object() && requests->contains("cpu")) {
        auto q = api::quantity_from_json((*requests)["cpu"]);
        if (q) cpu = *q;
      }
      const std::int64_t whole = cpu.value();
      if (whole * 1000 != cpu.milli_value() || whole == 0) {
        return "the cpu request isn't  an integer in spec.task[" + std::to_string(index) +
               "] container[" + std::to_string(id) + "].";
      }
      ++id;
    }
  }
  return {};
}

}  // namespace

namespace detail {

std::string termination_message_policy(const json& container) {
  std::string v = str_at(container, "terminationMessagePolicy");
  return v.empty() ? "File" : v;
}

std::string image_pull_policy(const json& container) {
  std::string v = str_at(container, "imagePullPolicy");
  return v.empty() ? default_pull_policy(str_at(container, "image")) : v;
}

std::string default_pull_policy(const std::string& image) {
  const auto slash = image.rfind('/');
  const std::string last = slash == std::string::npos ? image : image.substr(slash + 1);
  if (last.find('@') != std::string::npos) return "IfNotPresent";
  const auto colon = last.rfind(':');
  if (colon == std::string::npos || last.substr(colon + 1) == "latest") return "Always";
  return "IfNotPresent";
}

std::string port_protocol(const json& port) {
  std::string v = str_at(port, "protocol");
  return v.empty() ? "TCP" : v;
}

std::int64_t host_port(const json& port, bool host_network) {
  const std::int64_t v = int_at(port, "hostPort");
  return v == 0 && host_network ? int_at(port, "containerPort") : v;
}

void validate_labels(const json& labels, const FieldPath& path, FieldErrorList& errs) {
  if (!labels.is_object()) return;
  for (const auto& [k, v] : labels.items()) {
    for (const auto& m : api::is_qualified_name(k)) errs.add(invalid(path, BadValue::str(k), m));
    const std::string value = v.is_string() ? v.get<std::string>() : std::string();
    for (const auto& m : api::is_valid_label_value(value)) {
      errs.add(invalid(path, BadValue::str(value), m));
    }
  }
}

}  // namespace detail

json default_pod_template(const json& template_) {
  json t = template_.is_object() ? template_ : json::object();
  if (!t.contains("spec") || !t["spec"].is_object()) t["spec"] = json::object();
  json& spec = t["spec"];
  if (str_at(spec, "dnsPolicy").empty()) spec["dnsPolicy"] = "ClusterFirst";
  if (str_at(spec, "restartPolicy").empty()) spec["restartPolicy"] = "Always";
  if (!child_at(spec, "terminationGracePeriodSeconds").is_number()) {
    spec["terminationGracePeriodSeconds"] = 30;
  }
  const bool host_network = bool_at(spec, "hostNetwork");
  default_containers(spec, "containers", host_network);
  default_containers(spec, "initContainers", host_network);
  return t;
}

FieldErrorList validate_pod_template(const json& template_, const std::string& name,
                                     const std::string& ns, bool pod_level_resources) {
  FieldErrorList errs;
  const FieldPath meta("metadata");
  if (name.empty()) {
    errs.add(required(meta.child("name"), "name or generateName is required"));
  } else {
    validate_name(api::is_dns1123_subdomain(name), meta.child("name"), name, errs);
  }
  if (ns.empty()) {
    errs.add(required(meta.child("namespace"), ""));
  } else {
    validate_name(api::is_dns1123_label(ns), meta.child("namespace"), ns, errs);
  }
  const FieldPath tpath("template");
  const json& tmeta = child_at(template_, "metadata");
  detail::validate_labels(child_at(tmeta, "labels"), tpath.child("labels"), errs);
  validate_annotations(child_at(tmeta, "annotations"), tpath.child("annotations"), errs);
  validate_pod_spec(child_at(template_, "spec"), tpath.child("spec"), pod_level_resources, errs);
  const json& ephemeral = child_at(child_at(template_, "spec"), "ephemeralContainers");
  if (ephemeral.is_array() && !ephemeral.empty()) {
    errs.add(forbidden(tpath.child("spec").child("ephemeralContainers"),
                       "ephemeral containers not allowed in pod template"));
  }
  return errs;
}

std::string validate_task_template(const TaskSpec& task, std::size_t index, const std::string& ns,
                                   const AdmissionOptions& options) {
  const FieldErrorList errs =
      validate_pod_template(task.template_json(), task.name, ns, options.pod_level_resources);
  if (!errs.empty()) {
    std::string msg = "spec.task[" + std::to_string(index) + "].";
    for (const auto& e : errs.errors()) msg += e.message() + ". ";
    return msg;
  }
  if (!task.topology_policy.empty() && task.topology_policy != "none") {
    return topology_policy_problem(task, index);
  }
  return {};
}

}  // namespace vc::webhook::jobs
