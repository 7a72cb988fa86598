#include "webhook/admission/pods/pod_schema.h"

#include <string>

#include "common/go/json_types/object_meta.h"

namespace vc::webhook::pods {
namespace {

using go::GoField;
using go::GoKind;
using go::GoType;

// A field with `json:"name,omitempty"`; `pointer` for *T fields.
GoField opt(std::string name, const GoType* type, bool pointer = false) {
  return {std::move(name), type, pointer, true};
}

// The three tables, built once; types_ owns their types.
class Tables {
 public:
  Tables() { build(); }

  const GoType* pod = nullptr;
  const GoType* affinity = nullptr;
  const GoType* toleration = nullptr;

 private:
  void build();
  const GoType* build_affinity();

  go::GoTypes types_;
  const GoType* str_ = types_.scalar(GoKind::String, "string");
  const GoType* strings_ = types_.slice(str_);
  const GoType* i32_ = types_.scalar(GoKind::Int32, "int32");
};

const GoType* Tables::build_affinity() {
  auto& t = types_;
  const GoType* requirement_operator = t.scalar(GoKind::String, "v1.LabelSelectorOperator");
  const GoType* label_selector = t.structure(
      "v1.LabelSelector",
      {opt("matchLabels", t.map(str_)),
       opt("matchExpressions",
           t.slice(t.structure(
               "v1.LabelSelectorRequirement",
               {{"key", str_}, {"operator", requirement_operator}, opt("values", strings_)})))});
  const GoType* node_requirements =
      t.slice(t.structure("v1.NodeSelectorRequirement",
                          {{"key", str_},
                           {"operator", t.scalar(GoKind::String, "v1.NodeSelectorOperator")},
                           opt("values", strings_)}));
  const GoType* node_selector_term = t.structure(
      "v1.NodeSelectorTerm",
      {opt("matchExpressions", node_requirements), opt("matchFields", node_requirements)});
  const GoType* pod_affinity_term =
      t.structure("v1.PodAffinityTerm", {opt("labelSelector", label_selector, true),
                                         opt("namespaces", strings_),
                                         {"topologyKey", str_},
                                         opt("namespaceSelector", label_selector, true),
                                         opt("matchLabelKeys", strings_),
                                         opt("mismatchLabelKeys", strings_)});
  const GoType* weighted = t.structure("v1.WeightedPodAffinityTerm",
                                       {{"weight", i32_}, {"podAffinityTerm", pod_affinity_term}});
  auto pod_affinity = [&](const char* name) {
    return t.structure(
        name, {opt("requiredDuringSchedulingIgnoredDuringExecution", t.slice(pod_affinity_term)),
               opt("preferredDuringSchedulingIgnoredDuringExecution", t.slice(weighted))});
  };
  const GoType* node_selector =
      t.structure("v1.NodeSelector", {{"nodeSelectorTerms", t.slice(node_selector_term)}});
  const GoType* preferred = t.structure("v1.PreferredSchedulingTerm",
                                        {{"weight", i32_}, {"preference", node_selector_term}});
  const GoType* node_affinity =
      t.structure("v1.NodeAffinity",
                  {opt("requiredDuringSchedulingIgnoredDuringExecution", node_selector, true),
                   opt("preferredDuringSchedulingIgnoredDuringExecution", t.slice(preferred))});
  return t.structure("v1.Affinity",
                     {opt("nodeAffinity", node_affinity, true),
                      opt("podAffinity", pod_affinity("v1.PodAffinity"), true),
                      opt("podAntiAffinity", pod_affinity("v1.PodAntiAffinity"), true)});
}

void Tables::build() {
  auto& t = types_;
  affinity = build_affinity();
  toleration = t.structure(
      "v1.Toleration",
      {opt("key", str_), opt("operator", t.scalar(GoKind::String, "v1.TolerationOperator")),
       opt("value", str_), opt("effect", t.scalar(GoKind::String, "v1.TaintEffect")),
       opt("tolerationSeconds", t.scalar(GoKind::Int64, "int64"), true)});
  const GoType* any = t.scalar(GoKind::Any, "interface {}");
  const GoType* gate = t.structure("v1.PodSchedulingGate", {{"name", str_}});
  const GoType* spec =
      t.structure("v1.PodSpec", {{"schedulerName", str_},
                                 {"nodeSelector", t.map(str_)},
                                 {"affinity", affinity},
                                 {"tolerations", t.slice(toleration)},
                                 {"schedulingGates", t.slice(gate)},
                                 {"nodeName", str_},
                                 {"serviceAccountName", str_},
                                 {"priorityClassName", str_},
                                 {"priority", i32_},
                                 {"restartPolicy", t.scalar(GoKind::String, "v1.RestartPolicy")},
                                 {"containers", any}});
  pod = t.structure("v1.Pod", {{"kind", str_},
                               {"apiVersion", str_},
                               {"metadata", go::object_meta(t, false)},
                               {"spec", spec},
                               {"status", any}});
}

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

const GoType& pod_type() {
  return *tables().pod;
}

const GoType& affinity_type() {
  return *tables().affinity;
}

const GoType& toleration_type() {
  return *tables().toleration;
}

}  // namespace vc::webhook::pods
