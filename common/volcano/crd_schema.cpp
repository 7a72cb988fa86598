#include "common/volcano/crd_schema.h"

#include <yaml-cpp/yaml.h>

namespace vc::volcano {

namespace {

std::string scalar(const YAML::Node& node, const char* key) {
  const YAML::Node v = node[key];
  return v && v.IsScalar() ? v.as<std::string>() : std::string();
}

void walk(const YAML::Node& schema, const std::string& path, std::vector<SchemaField>& out) {
  if (!schema || !schema.IsMap()) return;
  const YAML::Node preserve = schema["x-kubernetes-preserve-unknown-fields"];
  const bool open = preserve && preserve.IsScalar() && preserve.as<std::string>() == "true";
  if (!path.empty()) out.push_back({path, scalar(schema, "type"), open});
  if (const YAML::Node props = schema["properties"]; props && props.IsMap()) {
    for (const auto& p : props) {
      const std::string name = p.first.as<std::string>();
      walk(p.second, path.empty() ? name : path + "." + name, out);
    }
  }
  if (const YAML::Node items = schema["items"]; items && items.IsMap()) {
    walk(items, path + "[]", out);
  }
  if (const YAML::Node values = schema["additionalProperties"]; values && values.IsMap()) {
    walk(values, path + "{}", out);
  }
}

}  // namespace

api::Expected<CrdSchema> read_crd_schema(const std::string& text) {
  YAML::Node crd;
  try {
    crd = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return api::Unexpected{std::string("not YAML: ") + e.what()};
  }
  if (!crd.IsMap() || scalar(crd, "kind") != "CustomResourceDefinition") {
    return api::Unexpected{std::string("kind: not a CustomResourceDefinition")};
  }
  const YAML::Node spec = crd["spec"];
  if (!spec || !spec.IsMap()) return api::Unexpected{std::string("spec: missing")};
  CrdSchema out;
  out.group = scalar(spec, "group");
  out.kind = spec["names"] ? scalar(spec["names"], "kind") : std::string();
  const YAML::Node versions = spec["versions"];
  if (!versions || !versions.IsSequence()) {
    return api::Unexpected{std::string("spec.versions: missing")};
  }
  for (const auto& v : versions) {
    if (scalar(v, "storage") != "true") continue;
    out.version = scalar(v, "name");
    const YAML::Node schema = v["schema"] ? v["schema"]["openAPIV3Schema"] : YAML::Node();
    if (!schema || !schema.IsMap()) {
      return api::Unexpected{"spec.versions[" + out.version + "].schema.openAPIV3Schema: missing"};
    }
    walk(schema, "", out.fields);
    return out;
  }
  return api::Unexpected{std::string("spec.versions: no storage version")};
}

}  // namespace vc::volcano
