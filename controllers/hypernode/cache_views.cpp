#include "controllers/hypernode/cache_views.h"

#include "common/json/member_filter.h"

namespace vc::controllers::hypernode {

kube::cache::Transform hyper_node_view_transform() {
  return {"hypernode-view", [](nlohmann::json&& object) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<volcano::HyperNode>();
            volcano::decode_hyper_node(object, *out);
            return out;
          }};
}

std::shared_ptr<const volcano::HyperNode> as_hyper_node(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const volcano::HyperNode>(object);
}

kube::cache::Transform node_meta_transform() {
  // Every member read_metadata reads; the test checks a node built from these equals one built
  // from the whole object.
  static const auto reads = std::make_shared<const fastjson::MemberFilter>(
      fastjson::MemberFilter::only({"metadata.namespace", "metadata.name", "metadata.uid",
                                    "metadata.resourceVersion", "metadata.labels"}));
  return {"node-meta",
          [](nlohmann::json&& object) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<kube::cache::Object>();
            kube::cache::read_metadata(object, *out);
            return out;
          },
          reads};
}

}  // namespace vc::controllers::hypernode
