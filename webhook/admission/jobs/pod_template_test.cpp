#include "webhook/admission/jobs/pod_template.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "webhook/admission/jobs/pod_validation_internal.h"

namespace vc::webhook::jobs {
namespace {

using nlohmann::json;

const std::string kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

json pod(json containers) {
  return {{"spec", {{"containers", std::move(containers)}}}};
}
json ctr(json extra = json::object()) {
  json c = {{"name", "c"}, {"image", "busybox"}};
  c.update(extra);
  return c;
}

// The task-level message for a template (task "worker", namespace "ns1").
std::string problems(const json& template_, bool pod_level = true, const std::string& topology = "",
                     const std::string& name = "worker") {
  TaskSpec task;
  task.name = name;
  task.pod_template = volcano::PodTemplate::borrow(template_);
  task.topology_policy = topology;
  AdmissionOptions options;
  options.pod_level_resources = pod_level;
  return validate_task_template(task, 0, "ns1", options);
}

TEST(PodTemplate, ValidTemplatePasses) {
  EXPECT_EQ(problems(pod(json::array({ctr()}))), "");
}

TEST(PodTemplate, MetadataNameAndNamespace) {
  EXPECT_EQ(problems(pod(json::array({ctr()})), true, "", "Worker"),
            "spec.task[0].metadata.name: Invalid value: \"Worker\": " + kSubdomainMsg + ". ");
  TaskSpec task;
  task.name = "worker";
  const json template_ = pod(json::array({ctr()}));
  task.pod_template = volcano::PodTemplate::borrow(template_);
  EXPECT_EQ(validate_task_template(task, 2, "", {}),
            "spec.task[2].metadata.namespace: Required value. ");
}

TEST(PodTemplate, TemplateLabelsAndAnnotations) {
  json t = pod(json::array({ctr()}));
  t["metadata"] = {{"labels", {{"ok", "bad value!"}}}};
  EXPECT_EQ(problems(t),
            "spec.task[0].template.labels: Invalid value: \"bad value!\": a valid label must be an "
            "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
            "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
            "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'). ");
  t["metadata"] = {{"annotations", {{"big", std::string(300 * 1024, 'x')}}}};
  EXPECT_EQ(problems(t),
            "spec.task[0].template.annotations: Too long: may not be more than 262144 bytes. ");
  t["metadata"] = {{"annotations", {{"Example.com/Key", "v"}}}};  // case does not matter
  EXPECT_EQ(problems(t), "");
}

TEST(PodTemplate, ContainersRequiredNamedAndImaged) {
  EXPECT_EQ(problems(pod(json::array())),
            "spec.task[0].template.spec.containers: Required value. ");
  EXPECT_EQ(problems(pod(json::array({{{"name", "C_1"}}}))),
            "spec.task[0].template.spec.containers[0].name: Invalid value: \"C_1\": " + kLabelMsg +
                ". template.spec.containers[0].image: Required value. ");
  EXPECT_EQ(problems(pod(json::array({{{"image", "x"}}}))),
            "spec.task[0].template.spec.containers[0].name: Required value. ");
}

TEST(PodTemplate, PortRulesAndHostPortConflicts) {
  json ports = json::array({{{"name", "http"}, {"containerPort", 0}},
                            {{"name", "http"}, {"containerPort", 70000}, {"protocol", "HTTP"}},
                            {{"name", "Bad--"}, {"containerPort", 80}, {"hostPort", 8080}},
                            {{"containerPort", 81}, {"hostPort", 8080}}});
  EXPECT_EQ(
      problems(pod(json::array({ctr({{"ports", ports}})}))),
      "spec.task[0].template.spec.containers[0].ports[0].containerPort: Required value. "
      "template.spec.containers[0].ports[1].name: Duplicate value: \"http\". "
      "template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be "
      "between 1 and 65535, inclusive. "
      "template.spec.containers[0].ports[1].protocol: Unsupported value: \"HTTP\": supported "
      "values: \"SCTP\", \"TCP\", \"UDP\". "
      "template.spec.containers[0].ports[2].name: Invalid value: \"Bad--\": must contain only "
      "alpha-numeric characters (a-z, 0-9), and hyphens (-). "
      "template.spec.containers[0].ports[2].name: Invalid value: \"Bad--\": must not contain "
      "consecutive hyphens. "
      "template.spec.containers[0].ports[2].name: Invalid value: \"Bad--\": must not begin or "
      "end with a hyphen. "
      "template.spec.containers[0].ports[3].hostPort: Duplicate value: \"TCP//8080\". ");
}

TEST(PodTemplate, HostNetworkPortsMustMatch) {
  json t = pod(
      json::array({ctr({{"ports", json::array({{{"containerPort", 80}},
                                               {{"containerPort", 81}, {"hostPort", 82}}})}})}));
  t["spec"]["hostNetwork"] = true;
  EXPECT_EQ(problems(t),
            "spec.task[0].template.spec.containers[0].ports[1].hostPort: Invalid value: 82: must "
            "match `containerPort` when `hostNetwork` is true. ");
}

TEST(PodTemplate, EnvNamesAndVolumeMounts) {
  json c = ctr({{"env", json::array({{{"name", "1BAD"}}, {{"name", ""}}, {{"name", "..x"}}})},
                {"volumeMounts", json::array({{{"name", "data"}, {"mountPath", "/d"}},
                                              {{"name", "cache"}, {"mountPath", "/d"}}})}});
  json t = pod(json::array({c}));
  t["spec"]["volumes"] = json::array({{{"name", "cache"}}, {{"name", "cache"}}, {{"name", "Bad"}}});
  EXPECT_EQ(
      problems(t),
      "spec.task[0].template.spec.volumes[1].name: Duplicate value: \"cache\". "
      "template.spec.volumes[2].name: Invalid value: \"Bad\": " +
          kLabelMsg +
          ". "
          "template.spec.containers[0].env[0].name: Invalid value: \"1BAD\": a valid environment "
          "variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must "
          "not "
          "start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used "
          "for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*'). "
          "template.spec.containers[0].env[1].name: Required value. "
          "template.spec.containers[0].env[2].name: Invalid value: \"..x\": must not start with "
          "'..'. "
          "template.spec.containers[0].volumeMounts[0].name: Not found: \"data\". "
          "template.spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/d\": must be "
          "unique. ");
}

TEST(PodTemplate, ResourceRequirements) {
  auto with = [](json resources) { return pod(json::array({ctr({{"resources", resources}})})); };
  EXPECT_EQ(problems(with({{"requests", {{"cpu", "2"}}}, {"limits", {{"cpu", "1"}}}})),
            "spec.task[0].template.spec.containers[0].resources.requests: Invalid value: \"2\": "
            "must be less than or equal to cpu limit of 1. ");
  EXPECT_EQ(problems(with({{"requests", {{"cpu", "-1"}}}})),
            "spec.task[0].template.spec.containers[0].resources.requests[cpu]: Invalid value: "
            "\"-1\": must be greater than or equal to 0. ");
  EXPECT_EQ(problems(with({{"limits", {{"gpu", "1"}}}})),
            "spec.task[0].template.spec.containers[0].resources.limits[gpu]: Invalid value: "
            "\"gpu\": must be a standard resource type or fully qualified. "
            "template.spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a "
            "standard resource for containers. ");
  EXPECT_EQ(problems(with({{"requests", {{"nvidia.com/gpu", "500m"}}}})),
            "spec.task[0].template.spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid "
            "value: \"500m\": must be an integer. "
            "template.spec.containers[0].resources.limits: Required value: Limit must be set for "
            "non overcommitable resources. ");
  EXPECT_EQ(problems(with(
                {{"requests", {{"nvidia.com/gpu", "1"}}}, {"limits", {{"nvidia.com/gpu", "2"}}}})),
            "spec.task[0].template.spec.containers[0].resources.requests: Invalid value: \"1\": "
            "must be equal to nvidia.com/gpu limit of 2. ");
  EXPECT_EQ(problems(with({{"limits", {{"hugepages-2Mi", "3Mi"}}}})),
            "spec.task[0].template.spec.containers[0].resources.limits[hugepages-2Mi]: Invalid "
            "value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi. "
            "template.spec.containers[0].resources: Forbidden: HugePages require cpu or memory. ");
  EXPECT_EQ(problems(with({{"requests", {{"cpu", "500m"}, {"memory", "1Gi"}}},
                           {"limits", {{"cpu", "1"}, {"memory", "1Gi"}}}})),
            "");
}

TEST(PodTemplate, PodLevelResourcesFollowTheFeatureGate) {
  json t = pod(json::array({ctr({{"resources", {{"requests", {{"cpu", "3"}}}}}}),
                            ctr({{"name", "d"}, {"resources", {{"requests", {{"cpu", "1"}}}}}})}));
  t["spec"]["resources"] = {{"requests", {{"cpu", "2"}}}};
  EXPECT_EQ(problems(t),
            "spec.task[0].template.spec.resources.requests[cpu]: Invalid value: \"2\": must be "
            "greater than or equal to aggregate container requests of 4. ");
  EXPECT_EQ(problems(t, false), "");
  t["spec"]["resources"] = {{"limits", {{"storage", "1"}}}};
  t["spec"]["containers"] = json::array({ctr()});
  EXPECT_EQ(problems(t),
            "spec.task[0].template.spec.resources.limits[storage]: Unsupported value: "
            "\"storage\": supported values: \"cpu\", \"hugepages-\", \"memory\". ");
}

TEST(PodTemplate, PolicyEnumsAndForbiddenFields) {
  json t = pod(json::array({ctr()}));
  t["spec"]["restartPolicy"] = "Sometimes";
  t["spec"]["dnsPolicy"] = "Cluster";
  t["spec"]["ephemeralContainers"] = json::array({{{"name", "e"}}});
  EXPECT_EQ(problems(t),
            "spec.task[0].template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported "
            "values: \"Always\", \"OnFailure\", \"Never\". "
            "template.spec.dnsPolicy: Unsupported value: \"Cluster\": supported values: "
            "\"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\". "
            "template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod "
            "template. ");
}

TEST(PodTemplate, ContainerEnumsAndRestartPolicies) {
  json t = pod(json::array({ctr({{"imagePullPolicy", "Sometimes"},
                                 {"terminationMessagePolicy", "Nope"},
                                 {"restartPolicy", "Always"}})}));
  t["spec"]["initContainers"] = json::array(
      {ctr({{"name", "c"}, {"restartPolicy", "OnFailure"}, {"livenessProbe", json::object()}})});
  EXPECT_EQ(problems(t),
            "spec.task[0].template.spec.containers[0].terminationMessagePolicy: Unsupported value: "
            "\"Nope\": supported values: \"File\", \"FallbackToLogsOnError\". "
            "template.spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": "
            "supported values: \"Always\", \"IfNotPresent\", \"Never\". "
            "template.spec.containers[0].restartPolicy: Forbidden: may not be set for non-init "
            "containers. "
            "template.spec.initContainers[0].restartPolicy: Unsupported value: \"OnFailure\": "
            "supported values: \"Always\". "
            "template.spec.initContainers[0].name: Duplicate value: \"c\". "
            "template.spec.initContainers[0].livenessProbe: Forbidden: may not be set for init "
            "containers without restartPolicy=Always. ");
}

TEST(PodTemplate, SpecFieldRules) {
  json t = pod(json::array({ctr()}));
  t["spec"]["activeDeadlineSeconds"] = 0;
  t["spec"]["hostname"] = "Host";
  t["spec"]["tolerations"] =
      json::array({{{"operator", "Equal"}, {"value", "v"}},
                   {{"key", "k"}, {"operator", "Exists"}, {"value", "v"}},
                   {{"key", "k"}, {"tolerationSeconds", 5}, {"effect", "NoSchedule"}}});
  t["spec"]["dnsPolicy"] = "None";
  EXPECT_EQ(
      problems(t),
      "spec.task[0].template.spec.dnsConfig: Required value: must provide `dnsConfig` when "
      "`dnsPolicy` is None. "
      "template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and "
      "2147483647, inclusive. "
      "template.spec.hostname: Invalid value: \"Host\": " +
          kLabelMsg +
          ". "
          "template.spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be "
          "Exists when `key` is empty, which means \"match all values and all keys\". "
          "template.spec.tolerations[1].operator: Invalid value: \"v\": value must be empty when "
          "`operator` is 'Exists'. "
          "template.spec.tolerations[2].effect: Invalid value: \"NoSchedule\": effect must be "
          "'NoExecute' when `tolerationSeconds` is set. ");
}

TEST(PodTemplate, TopologyPolicyNeedsWholeCpus) {
  json half = pod(json::array({ctr({{"resources", {{"requests", {{"cpu", "500m"}}}}}})}));
  EXPECT_EQ(problems(half, true, "single-numa-node"),
            "the cpu request isn't  an integer in spec.task[0] container[0].");
  EXPECT_EQ(problems(half, true, "none"), "");
  json from_limits = pod(json::array({ctr({{"resources", {{"limits", {{"cpu", "2"}}}}}})}));
  from_limits["spec"]["initContainers"] = json::array({ctr({{"name", "i"}})});
  EXPECT_EQ(problems(from_limits, true, "best-effort"),
            "the cpu request isn't  an integer in spec.task[0] container[1].");
}

TEST(PodTemplate, PullPolicyDefaultFollowsTheImageTag) {
  EXPECT_EQ(detail::default_pull_policy("busybox"), "Always");
  EXPECT_EQ(detail::default_pull_policy("busybox:latest"), "Always");
  EXPECT_EQ(detail::default_pull_policy("busybox:1.36"), "IfNotPresent");
  EXPECT_EQ(detail::default_pull_policy("registry.local:5000/ray"), "Always");  // a port, no tag
  EXPECT_EQ(detail::default_pull_policy("registry.local:5000/ray:2.9"), "IfNotPresent");
  EXPECT_EQ(detail::default_pull_policy("ray@sha256:abc"), "IfNotPresent");
  EXPECT_EQ(detail::default_pull_policy(""), "Always");
  // Read through by validation: an unset policy is valid, a set one is checked as given.
  EXPECT_EQ(detail::image_pull_policy(ctr()), "Always");
  EXPECT_EQ(detail::image_pull_policy(ctr({{"imagePullPolicy", "Never"}})), "Never");
}

// validate_pod_template reads defaulted fields through their defaults instead of validating a
// defaulted copy: on templates that set, leave out, empty or mistype every field defaulting
// touches, it must say exactly what validating default_pod_template's copy says.
TEST(PodTemplate, ReadsDefaultsLikeValidatingADefaultedCopy) {
  std::mt19937 rng(20261201);
  auto pick = [&](std::initializer_list<json> options) {
    std::vector<json> v(options);
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
  };
  const json kUnset = "\x01unset";  // marker: leave the member out
  auto set = [&](json& obj, const char* key, const json& value) {
    if (value != kUnset) obj[key] = value;
  };
  auto port = [&] {
    if (std::uniform_int_distribution<int>(0, 9)(rng) == 0) return json("not a port");
    json p = json::object();
    set(p, "containerPort", pick({kUnset, 0, 80, 8080, 70000, "80"}));
    set(p, "hostPort", pick({kUnset, 0, 80, 8080, 9090, 70000, -1}));
    set(p, "protocol", pick({kUnset, "", "TCP", "UDP", "SCTP", "HTTP", 6}));
    set(p, "hostIP", pick({kUnset, "", "10.0.0.1"}));
    set(p, "name", pick({kUnset, "http", "metrics"}));
    return p;
  };
  auto container = [&](const char* name) {
    if (std::uniform_int_distribution<int>(0, 14)(rng) == 0) return json(7);
    json c = json::object();
    set(c, "name", pick({kUnset, name, "dup"}));
    set(c, "image",
        pick({kUnset, "", "busybox", "busybox:latest", "busybox:1.36", "registry.local:5000/ray",
              "ray@sha256:abc", "a/b:latest"}));
    set(c, "terminationMessagePolicy",
        pick({kUnset, "", "File", "FallbackToLogsOnError", "Nope", 1}));
    set(c, "terminationMessagePath", pick({kUnset, "", "/tmp/log"}));
    set(c, "imagePullPolicy", pick({kUnset, "", "Always", "IfNotPresent", "Never", "Sometimes"}));
    set(c, "restartPolicy", pick({kUnset, kUnset, "Always", "OnFailure"}));
    const int ports = std::uniform_int_distribution<int>(-1, 3)(rng);
    if (ports == -1) {
      c["ports"] = "none";
    } else if (ports > 0) {
      for (int i = 0; i < ports; ++i) c["ports"].push_back(port());
    }
    return c;
  };
  for (int round = 0; round < 3000; ++round) {
    json spec = json::object();
    set(spec, "dnsPolicy", pick({kUnset, "", "ClusterFirst", "Default", "None", "Cluster", 3}));
    set(spec, "restartPolicy", pick({kUnset, "", "Always", "Never", "Sometimes", false}));
    set(spec, "terminationGracePeriodSeconds", pick({kUnset, 30, 0, "30", 2.5}));
    set(spec, "hostNetwork", pick({kUnset, true, false, "true"}));
    const int containers = std::uniform_int_distribution<int>(0, 3)(rng);
    for (int i = 0; i < containers; ++i) spec["containers"].push_back(container("main"));
    const int inits = std::uniform_int_distribution<int>(0, 2)(rng);
    for (int i = 0; i < inits; ++i) spec["initContainers"].push_back(container("init"));
    json t = {{"spec", spec}};
    if (round % 100 == 0) t["spec"] = "not a spec";
    if (round % 250 == 0) t = json::array();

    auto messages = [](const FieldErrorList& errs) {
      std::vector<std::string> out;
      for (const auto& e : errs.errors()) out.push_back(e.message());
      return out;
    };
    const auto in_place = messages(validate_pod_template(t, "worker", "ns1", true));
    const auto on_copy =
        messages(validate_pod_template(default_pod_template(t), "worker", "ns1", true));
    ASSERT_EQ(in_place, on_copy) << "template: " << t.dump();
  }
}

}  // namespace
}  // namespace vc::webhook::jobs
