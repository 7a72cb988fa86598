#pragma once
// FeatureGates: the --feature-gates flag of Volcano's binaries (Kubernetes' featuregate
// semantics). The flag takes "A=true,B=false"; repeated flags merge; "AllAlpha" and "AllBeta"
// switch every gate of that stage that is not set by name. A gate the binary does not know is an
// error, "unrecognized feature gate: X". Volcano registers its own gates and every Kubernetes
// v1.35 gate on one set; we accept the Kubernetes names too (kubernetes_gate_names()) so that
// existing command lines keep working, and track the ones a binary reads (e.g.
// PodLevelResources) by registering them with known().
//
//   FeatureGates gates({{"SchedulingGatesQueueAdmission", false, Stage::Alpha}});
//   gates.set("SchedulingGatesQueueAdmission=true");   // ok
//   gates.enabled("SchedulingGatesQueueAdmission");     // true
//   gates.set("Nope=true");                             // error "unrecognized feature gate: Nope"
//
// Thread-safety: configure at start-up on one thread; const methods may then be called from any
// thread.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"
#include "common/flags/value.h"

namespace vc::flags {

enum class Stage { Alpha, Beta, GA, Deprecated };

struct FeatureSpec {
  std::string name;
  bool default_enabled = false;
  Stage stage = Stage::Alpha;
};

class FeatureGates {
 public:
  // known: the gates this binary reads, with their defaults. Kubernetes gate names not listed are
  // accepted and ignored.
  explicit FeatureGates(std::vector<FeatureSpec> known);

  // Parses one --feature-gates value and merges it. The error is Kubernetes' text:
  // "missing bool value for X", "invalid value of X=y, err: strconv.ParseBool: ...",
  // "unrecognized feature gate: X". Nothing is applied when any pair is wrong.
  api::Status set(std::string_view value);
  // Gates set by name, sorted: "A=true,B=false" (Kubernetes' String()).
  std::string str() const;

  // Explicit setting, else AllAlpha/AllBeta for a gate of that stage, else its default. A name
  // that was never registered with known() is a programming error (std::logic_error).
  bool enabled(std::string_view name) const;
  bool explicitly_set(std::string_view name) const;
  // Changes a known gate's default, e.g. to follow the cluster's Kubernetes version.
  void set_default(std::string_view name, bool enabled, Stage stage);

  // A Value for FlagSet::var, writing to this object (which must outlive it).
  std::unique_ptr<Value> flag_value();

 private:
  std::map<std::string, FeatureSpec, std::less<>> known_;
  std::map<std::string, bool, std::less<>> set_;  // explicit settings, known and Kubernetes ones
};

// Volcano's own gates and defaults (pkg/features/volcano_features.go@v1.15.1), all Alpha.
std::vector<FeatureSpec> volcano_feature_gates();

// The feature gate names of Kubernetes v1.35 (kube-apiserver, client-go and component-base
// gates as registered by k8s.io/kubernetes/pkg/features), sorted.
const std::vector<std::string_view>& kubernetes_gate_names();
bool is_kubernetes_gate(std::string_view name);

}  // namespace vc::flags
