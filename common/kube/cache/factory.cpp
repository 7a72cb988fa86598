#include "common/kube/cache/factory.h"

namespace vc::kube::cache {

SharedInformerFactory::SharedInformerFactory(Client& client, SharedInformerFactoryOptions options)
    : client_(client), options_(std::move(options)) {}

SharedInformerFactory::~SharedInformerFactory() {
  stop();
}

std::shared_ptr<Informer> SharedInformerFactory::informer(const Resource& resource,
                                                          const InformerSpec& spec) {
  Key key{std::string(resource.group),  std::string(resource.version),
          std::string(resource.plural), spec.namespace_,
          spec.label_selector,          spec.field_selector,
          spec.transform.name};
  std::lock_guard lock(mu_);
  auto& slot = informers_[key];
  if (!slot) {
    InformerOptions o;
    o.namespace_ = spec.namespace_;
    o.label_selector = spec.label_selector;
    o.field_selector = spec.field_selector;
    o.transform = spec.transform;
    o.resync_period = options_.resync_period;
    o.page_size = options_.page_size;
    o.backoff = options_.backoff;
    o.on_decode_rejection = options_.on_decode_rejection;
    slot = std::make_shared<Informer>(client_, resource, std::move(o));
  }
  return slot;
}

void SharedInformerFactory::start() {
  std::lock_guard lock(mu_);
  for (auto& [key, informer] : informers_) informer->start();
}

void SharedInformerFactory::stop() {
  std::vector<std::shared_ptr<Informer>> all;
  {
    std::lock_guard lock(mu_);
    for (auto& [key, informer] : informers_) all.push_back(informer);
  }
  // Each stop() cancels its watch at once, so stopping one after another is prompt.
  for (auto& informer : all) informer->stop();
}

bool SharedInformerFactory::wait_for_sync(std::stop_token stop,
                                          std::chrono::steady_clock::time_point deadline) {
  std::vector<std::shared_ptr<Informer>> all;
  {
    std::lock_guard lock(mu_);
    for (auto& [key, informer] : informers_) all.push_back(informer);
  }
  std::vector<const Informer*> raw;
  for (const auto& informer : all) raw.push_back(informer.get());
  return wait_for_cache_sync(raw, stop, deadline);
}

size_t SharedInformerFactory::size() const {
  std::lock_guard lock(mu_);
  return informers_.size();
}

}  // namespace vc::kube::cache
