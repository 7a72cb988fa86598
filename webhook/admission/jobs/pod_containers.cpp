// Container checks of the pod-template validation (Kubernetes validateContainers,
// validateInitContainers and validateContainerCommon, the ported subset).

#include <set>
#include <string>

#include "common/api/label_validation.h"
#include "webhook/admission/jobs/job_view.h"
#include "webhook/admission/jobs/k8s_names.h"
#include "webhook/admission/jobs/pod_validation_internal.h"

namespace vc::webhook::jobs::detail {
namespace {

void validate_ports(const json& container, bool host_network, const FieldPath& path,
                    FieldErrorList& errs) {
  const json& ports = child_at(container, "ports");
  if (!ports.is_array()) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const json& port = ports[i];
    const FieldPath p = path.index(i);
    const std::string name = str_at(port, "name");
    if (!name.empty()) {
      auto problems = port_name_errors(name);
      if (!problems.empty()) {
        for (const auto& m : problems) errs.add(invalid(p.child("name"), BadValue::str(name), m));
      } else if (names.count(name)) {
        errs.add(duplicate(p.child("name"), BadValue::str(name)));
      } else {
        names.insert(name);
      }
    }
    const auto container_port = int_at(port, "containerPort");
    if (container_port == 0) {
      errs.add(required(p.child("containerPort"), ""));
    } else {
      for (const auto& m : port_number_errors(container_port)) {
        errs.add(invalid(p.child("containerPort"), BadValue::number(container_port), m));
      }
    }
    const auto host = host_port(port, host_network);
    if (host != 0) {
      for (const auto& m : port_number_errors(host)) {
        errs.add(invalid(p.child("hostPort"), BadValue::number(host), m));
      }
    }
    const std::string protocol = port_protocol(port);
    if (protocol.empty()) {
      errs.add(required(p.child("protocol"), ""));
    } else if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
      errs.add(not_supported(p.child("protocol"), BadValue::json_value(protocol),
                             {"SCTP", "TCP", "UDP"}));
    }
  }
}

void validate_env(const json& container, const FieldPath& path, FieldErrorList& errs) {
  const json& env = child_at(container, "env");
  if (!env.is_array()) return;
  for (std::size_t i = 0; i < env.size(); ++i) {
    const std::string name = str_at(env[i], "name");
    const FieldPath p = path.index(i).child("name");
    if (name.empty()) {
      errs.add(required(p, ""));
    } else {
      for (const auto& m : env_var_name_errors(name)) errs.add(invalid(p, BadValue::str(name), m));
    }
  }
}

void validate_mounts(const json& container, const VolumeNames& volumes, const FieldPath& path,
                     FieldErrorList& errs) {
  const json& mounts = child_at(container, "volumeMounts");
  if (!mounts.is_array()) return;
  std::set<std::string> mount_points;
  for (std::size_t i = 0; i < mounts.size(); ++i) {
    const FieldPath p = path.index(i);
    const std::string name = str_at(mounts[i], "name");
    const std::string mount_path = str_at(mounts[i], "mountPath");
    if (name.empty()) errs.add(required(p.child("name"), ""));
    if (!volumes.count(name)) {
      errs.add({FieldErrorType::NotFound, p.child("name").str(), BadValue::str(name), {}});
    }
    if (mount_path.empty()) errs.add(required(p.child("mountPath"), ""));
    if (mount_points.count(mount_path)) {
      errs.add(invalid(p.child("mountPath"), BadValue::str(mount_path), "must be unique"));
    }
    mount_points.insert(mount_path);
  }
}

void validate_common(const json& c, const VolumeNames& volumes, bool host_network,
                     const FieldPath& path, FieldErrorList& errs) {
  const std::string name = str_at(c, "name");
  if (name.empty()) {
    errs.add(required(path.child("name"), ""));
  } else {
    for (const auto& m : api::is_dns1123_label(name)) {
      errs.add(invalid(path.child("name"), BadValue::str(name), m));
    }
  }
  if (str_at(c, "image").empty()) errs.add(required(path.child("image"), ""));
  const std::string tmp = termination_message_policy(c);
  if (tmp.empty()) {
    errs.add(required(path.child("terminationMessagePolicy"), ""));
  } else if (tmp != "File" && tmp != "FallbackToLogsOnError") {
    errs.add(not_supported(path.child("terminationMessagePolicy"), BadValue::json_value(tmp),
                           {"File", "FallbackToLogsOnError"}));
  }
  validate_ports(c, host_network, path.child("ports"), errs);
  validate_env(c, path.child("env"), errs);
  validate_mounts(c, volumes, path.child("volumeMounts"), errs);
  const std::string pull = image_pull_policy(c);
  if (pull.empty()) {
    errs.add(required(path.child("imagePullPolicy"), ""));
  } else if (pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
    errs.add(not_supported(path.child("imagePullPolicy"), BadValue::json_value(pull),
                           {"Always", "IfNotPresent", "Never"}));
  }
  validate_resource_requirements(child_at(c, "resources"), false, path.child("resources"), errs);
}

// AccumulateUniqueHostPorts over `containers`, reporting "<protocol>/<hostIP>/<port>" clashes.
void check_host_ports(const json& containers, std::size_t only, bool host_network,
                      const FieldPath& path, FieldErrorList& errs) {
  std::set<std::string> seen;
  for (std::size_t ci = 0; ci < containers.size(); ++ci) {
    if (only != std::string::npos && ci != only) continue;
    const json& ports = child_at(containers[ci], "ports");
    if (!ports.is_array()) continue;
    // For a single init container Kubernetes indexes its list of one: always [0].
    const std::size_t shown = only == std::string::npos ? ci : 0;
    for (std::size_t pi = 0; pi < ports.size(); ++pi) {
      const auto port = host_port(ports[pi], host_network);
      if (port == 0) continue;
      const std::string key =
          port_protocol(ports[pi]) + "/" + str_at(ports[pi], "hostIP") + "/" + std::to_string(port);
      if (!seen.insert(key).second) {
        errs.add(duplicate(path.index(shown).child("ports").index(pi).child("hostPort"),
                           BadValue::str(key)));
      }
    }
  }
}

}  // namespace

void validate_containers(const json& spec, const VolumeNames& volumes, const FieldPath& path,
                         FieldErrorList& errs) {
  const json& containers = child_at(spec, "containers");
  if (!containers.is_array() || containers.empty()) {
    errs.add(required(path, ""));
    return;
  }
  const bool host_network = bool_at(spec, "hostNetwork");
  std::set<std::string> names;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const json& c = containers[i];
    const FieldPath p = path.index(i);
    validate_common(c, volumes, host_network, p, errs);
    const std::string name = str_at(c, "name");
    if (!names.insert(name).second) errs.add(duplicate(p.child("name"), BadValue::str(name)));
    if (!child_at(c, "restartPolicy").is_null()) {
      errs.add(forbidden(p.child("restartPolicy"), "may not be set for non-init containers"));
    }
  }
  check_host_ports(containers, std::string::npos, host_network, path, errs);
}

void validate_init_containers(const json& spec, const VolumeNames& volumes, const FieldPath& path,
                              FieldErrorList& errs) {
  const json& inits = child_at(spec, "initContainers");
  if (!inits.is_array()) return;
  const bool host_network = bool_at(spec, "hostNetwork");
  std::set<std::string> names;
  const json& containers = child_at(spec, "containers");
  if (containers.is_array()) {
    for (const auto& c : containers) names.insert(str_at(c, "name"));
  }
  for (std::size_t i = 0; i < inits.size(); ++i) {
    const json& c = inits[i];
    const FieldPath p = path.index(i);
    validate_common(c, volumes, host_network, p, errs);
    bool restart_always = false;
    const json& restart = child_at(c, "restartPolicy");
    if (restart.is_string()) {
      restart_always = restart.get<std::string>() == "Always";
      if (!restart_always) {
        errs.add(
            not_supported(p.child("restartPolicy"), BadValue::json_value(restart), {"Always"}));
      }
    }
    const std::string name = str_at(c, "name");
    if (names.count(name)) {
      errs.add(duplicate(p.child("name"), BadValue::str(name)));
    } else if (!name.empty()) {
      names.insert(name);
    }
    check_host_ports(inits, i, host_network, path, errs);
    if (!restart_always) {
      for (const char* key : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
        if (!child_at(c, key).is_null()) {
          errs.add(forbidden(p.child(key),
                             "may not be set for init containers without restartPolicy=Always"));
        }
      }
    }
  }
}

}  // namespace vc::webhook::jobs::detail
