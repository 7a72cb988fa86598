#pragma once
// LabelSelector: Kubernetes label selectors, from the string syntax
// ("app=web,tier!=cache,env in (prod,staging),!canary") or from a metav1.LabelSelector JSON
// object ({"matchLabels": {...}, "matchExpressions": [...]}), with Kubernetes' matching rules.
//
// Requirements are kept sorted by key, so to_string() is canonical: "a=b,c in (x,y),!d".
// An empty selector matches everything; the selector made from a JSON null (as
// LabelSelectorAsSelector does for a nil pointer) matches nothing.
//
// Threads: an immutable value once built; const methods may be called from any thread.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"

namespace vc::api {

using Labels = std::map<std::string, std::string>;

enum class SelectorOperator {
  Exists,        // key
  DoesNotExist,  // !key
  Equals,        // key=value
  DoubleEquals,  // key==value
  NotEquals,     // key!=value
  In,            // key in (a,b)
  NotIn,         // key notin (a,b)
  GreaterThan,   // key>5 (integer values)
  LessThan,      // key<5
};

struct Requirement {
  std::string key;
  SelectorOperator op = SelectorOperator::Exists;
  std::vector<std::string> values;

  bool matches(const Labels& labels) const;
  // "key in (a,b)" with the values sorted, as Kubernetes prints it.
  std::string to_string() const;
};

// labels.NewRequirement: checks the key, the number of values for the operator and each value.
// `path` prefixes the field paths in the messages (e.g. "spec.selector.matchExpressions[0]").
Expected<Requirement> make_requirement(std::string key, SelectorOperator op,
                                       std::vector<std::string> values, std::string_view path = "");

class LabelSelector {
 public:
  // Matches everything.
  LabelSelector() = default;
  static LabelSelector everything() { return LabelSelector(); }
  static LabelSelector nothing();
  // key=value for every entry (labels.SelectorFromSet); not validated.
  static LabelSelector from_labels(const Labels& labels);

  // labels.Parse. Errors say what was found and what was expected, e.g.
  // "unable to parse requirement: found ')', expected: identifier".
  static Expected<LabelSelector> parse(std::string_view text);

  // metav1.LabelSelector JSON, validated as the API server validates it (every problem is
  // reported, with its field path below `path`, e.g. "matchExpressions[0].values: Required
  // value: must be specified when `operator` is 'In' or 'NotIn'"). null gives nothing();
  // an object with no labels and no expressions gives everything().
  static Expected<LabelSelector> from_json(const nlohmann::json& j, std::string_view path = "");

  bool matches(const Labels& labels) const;
  // A metadata.labels JSON object; entries that are not strings are ignored.
  bool matches(const nlohmann::json& labels) const;

  // True when the selector matches everything.
  bool empty() const { return !nothing_ && requirements_.empty(); }
  bool matches_nothing() const { return nothing_; }
  const std::vector<Requirement>& requirements() const { return requirements_; }

  // Canonical string form: requirements joined with ",", sorted by key; "" for everything
  // and for nothing (as Kubernetes prints both).
  std::string to_string() const;

 private:
  explicit LabelSelector(std::vector<Requirement> requirements);

  std::vector<Requirement> requirements_;
  bool nothing_ = false;
};

}  // namespace vc::api
