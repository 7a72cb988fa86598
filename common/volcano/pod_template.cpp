#include "common/volcano/pod_template.h"

#include <mutex>
#include <string>
#include <unordered_map>

namespace vc::volcano {

namespace {

// Content (compact JSON text) -> the live document. Entries whose document has been released
// are swept when the table has doubled since the last sweep, so the table stays proportional to
// the templates in use.
struct InternTable {
  std::mutex mu;
  std::unordered_map<std::string, std::weak_ptr<const nlohmann::json>> entries;
  std::size_t sweep_at = 64;

  void sweep_locked() {
    std::erase_if(entries, [](const auto& e) { return e.second.expired(); });
    sweep_at = std::max<std::size_t>(64, 2 * entries.size());
  }
};

InternTable& table() {
  static InternTable* t = new InternTable();  // never destroyed: decoders may run at exit
  return *t;
}

const std::shared_ptr<const nlohmann::json>& empty_document() {
  static const auto* doc = new std::shared_ptr<const nlohmann::json>(
      std::make_shared<nlohmann::json>(nlohmann::json::object()));
  return *doc;
}

}  // namespace

PodTemplate::PodTemplate() : doc_(empty_document()) {}

PodTemplate PodTemplate::from_json(const nlohmann::json& tmpl) {
  if (tmpl.is_object() && tmpl.empty()) return PodTemplate();
  std::string key = tmpl.dump();
  InternTable& t = table();
  std::lock_guard lock(t.mu);
  auto [it, inserted] = t.entries.try_emplace(std::move(key));
  if (!inserted) {
    if (auto live = it->second.lock()) return PodTemplate(std::move(live));
  }
  auto doc = std::make_shared<const nlohmann::json>(tmpl);
  it->second = doc;
  if (t.entries.size() >= t.sweep_at) t.sweep_locked();
  return PodTemplate(std::move(doc));
}

PodTemplate PodTemplate::borrow(const nlohmann::json& tmpl) {
  // The aliasing constructor with no owner: a pointer that shares nothing and frees nothing.
  return PodTemplate(std::shared_ptr<const nlohmann::json>(std::shared_ptr<void>(), &tmpl));
}

std::size_t interned_pod_templates() {
  InternTable& t = table();
  std::lock_guard lock(t.mu);
  t.sweep_locked();
  return t.entries.size();
}

}  // namespace vc::volcano
