#include "controllers/explain/pod_trouble.h"

#include <array>
#include <string_view>

#include "controllers/explain/json_read.h"

namespace vc::controllers::explain {
namespace {

struct KnownReason {
  std::string_view reason;
  std::string_view action;
};

constexpr std::array kTroubles{
    KnownReason{"ErrImagePull",
                "check the image name and tag, and that the node can reach the "
                "registry (and has its pull secret)"},
    KnownReason{"ImagePullBackOff",
                "check the image name and tag, and that the node can reach "
                "the registry (and has its pull secret)"},
    KnownReason{"InvalidImageName", "fix the image reference in the task's template"},
    KnownReason{"ErrImageNeverPull", "the image is not on the node and imagePullPolicy is Never"},
    KnownReason{"CreateContainerConfigError",
                "create the ConfigMap or Secret the container refers to, or fix the reference"},
    KnownReason{"CreateContainerError", "read the message: the runtime refused the container"},
    KnownReason{"RunContainerError", "read the message: the runtime could not start the container"},
    KnownReason{"CrashLoopBackOff", "read the container's logs (kubectl logs --previous)"},
};

}  // namespace

std::optional<ContainerTrouble> container_trouble(const nlohmann::json& pod) {
  for (std::string_view list : {"initContainerStatuses", "containerStatuses"}) {
    for (const nlohmann::json& cs : array_at(pod, {"status", list})) {
      const std::string reason = str(cs, {"state", "waiting", "reason"});
      if (reason.empty()) continue;
      for (const KnownReason& k : kTroubles) {
        if (reason != k.reason) continue;
        return ContainerTrouble{str(cs, {"name"}), reason, str(cs, {"state", "waiting", "message"}),
                                std::string(k.action)};
      }
    }
  }
  return std::nullopt;
}

std::string container_exit_summary(const nlohmann::json& pod) {
  for (const nlohmann::json& cs : array_at(pod, {"status", "containerStatuses"})) {
    const nlohmann::json& t = at(cs, {"state", "terminated"});
    if (!t.is_object()) continue;
    std::string out = ": container " + str(cs, {"name"}) + " exited " +
                      std::to_string(integer(t, {"exitCode"}, 0));
    if (const std::string r = str(t, {"reason"}); !r.empty()) out += " (" + r + ")";
    return out;
  }
  return "";
}

}  // namespace vc::controllers::explain
