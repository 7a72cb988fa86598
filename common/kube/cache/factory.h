#pragma once
// SharedInformerFactory: one informer per (resource, namespace, selectors, transform) per
// process, however many controllers ask for it, so each collection is listed and watched once
// and cached once.
//
//   SharedInformerFactory factory(client);
//   auto pods = factory.informer(resources::pods, {.transform = compact_pod_transform()});
//   pods->add_indexer(...); pods->add_event_handler(...);   // each controller, before start
//   factory.start();
//   factory.wait_for_sync(stop, deadline);
//
// Threads: every method may be called from any thread. Informers asked for after start() are
// started by the next start() call.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <tuple>
#include <vector>

#include "common/kube/cache/informer.h"

namespace vc::kube::cache {

// What makes two informers the same one. The transform is compared by name.
struct InformerSpec {
  std::string namespace_;
  std::string label_selector;
  std::string field_selector;
  Transform transform;
};

struct SharedInformerFactoryOptions {
  std::chrono::milliseconds resync_period{0};
  int64_t page_size = 500;
  BackoffOptions backoff;
  // Given to every informer (InformerOptions::on_decode_rejection); null = log and count only.
  DecodeRejectionSink on_decode_rejection;
};

class SharedInformerFactory {
 public:
  explicit SharedInformerFactory(Client& client, SharedInformerFactoryOptions options = {});
  ~SharedInformerFactory();  // stop()
  SharedInformerFactory(const SharedInformerFactory&) = delete;
  SharedInformerFactory& operator=(const SharedInformerFactory&) = delete;

  std::shared_ptr<Informer> informer(const Resource& resource, const InformerSpec& spec = {});
  // Starts every informer not started yet.
  void start();
  // Stops every informer; they cannot be started again.
  void stop();
  // Waits until every informer created so far has synced (see wait_for_cache_sync).
  bool wait_for_sync(std::stop_token stop, std::chrono::steady_clock::time_point deadline);
  size_t size() const;

 private:
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string,
                         std::string, std::string>;

  Client& client_;
  const SharedInformerFactoryOptions options_;
  mutable std::mutex mu_;
  std::map<Key, std::shared_ptr<Informer>> informers_;
};

}  // namespace vc::kube::cache
