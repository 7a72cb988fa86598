#include "controllers/jobflow/prober.h"

#include <exception>
#include <utility>

#include "common/log/log.h"
#include "controllers/jobflow/metrics.h"
#include "controllers/jobflow/probe_net.h"

namespace vc::controllers::jobflow {

using log::kv;

Prober::Prober(ListPods list_pods, Notify notify, ProberOptions options)
    : list_pods_(std::move(list_pods)), notify_(std::move(notify)), options_(std::move(options)) {
  if (!options_.probe_ip) {
    options_.probe_ip = [timeout = options_.timeout](const ProbeCheck& c, const std::string& ip) {
      return c.kind == ProbeCheck::Kind::kHttpGet
                 ? http_probe(ip, c.port, c.path, c.header, timeout)
                 : tcp_probe(ip, c.port, timeout);
    };
  }
}

Prober::~Prober() {
  stop();
}

Prober::TimePoint Prober::now() const {
  return options_.now ? options_.now() : std::chrono::steady_clock::now();
}

void Prober::start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { loop(); });
}

void Prober::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    order_.clear();
    queued_.clear();
  }
  cv_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

bool Prober::stopping() {
  std::lock_guard lock(mu_);
  return stopping_;
}

ProbeResults Prober::fresh_results() {
  std::lock_guard lock(mu_);
  const TimePoint t = now();
  ProbeResults out;
  for (auto it = results_.begin(); it != results_.end();) {
    if (t - it->second.at >= options_.fresh) {
      it = results_.erase(it);
    } else {
      out.emplace(it->first, it->second.passed);
      ++it;
    }
  }
  return out;
}

void Prober::request(const std::vector<ProbeCheck>& checks, const std::string& flow_key) {
  bool added = false;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    const TimePoint t = now();
    for (const ProbeCheck& c : checks) {
      std::string key = c.key();
      if (const auto r = results_.find(key);
          r != results_.end() && t - r->second.at < options_.fresh) {
        continue;
      }
      if (key == running_key_) {  // being checked: its end wakes this flow too
        running_flows_.insert(flow_key);
        continue;
      }
      auto [it, fresh] = queued_.try_emplace(key, Queued{c, {}});
      it->second.flows.insert(flow_key);
      if (fresh) {
        order_.push_back(std::move(key));
        added = true;
      }
    }
  }
  if (added) cv_.notify_one();
}

std::string Prober::run(const ProbeCheck& check) {
  try {
    auto list = list_pods_(check.namespace_, probe_pod_selector(check));
    if (!list.ok()) return "cannot list the task's pods: " + list.error().describe();
    const ProbeEndpoints endpoints = probe_endpoints(*list);
    if (!endpoints.error.empty()) return endpoints.error;
    for (const std::string& ip : endpoints.ips) {
      if (std::string error = options_.probe_ip(check, ip); !error.empty()) return error;
    }
    return "";
  } catch (const std::exception& e) {
    return std::string("probe failed: ") + e.what();
  }
}

void Prober::loop() {
  for (;;) {
    Queued next;
    std::string key;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !order_.empty(); });
      if (stopping_) return;
      key = std::move(order_.front());
      order_.pop_front();
      auto it = queued_.find(key);
      if (it == queued_.end()) continue;
      next = std::move(it->second);
      queued_.erase(it);
      running_key_ = key;
      running_flows_.clear();
    }
    const std::string error = run(next.check);
    count_probe_check(kind_name(next.check.kind), error.empty());
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
      results_[key] = {.passed = error.empty(), .at = now()};
      next.flows.merge(running_flows_);
      running_key_.clear();
      // Logged when the outcome changes, not on every retry of a port that stays closed.
      if (last_error_.size() > 4096) last_error_.clear();  // checks of long-gone flows
      const auto [prev, first] = last_error_.try_emplace(key, error);
      if (first || prev->second != error) {
        prev->second = error;
        if (error.empty()) {
          VC_LOG_INFO("jobflow probe passed", kv("check", next.check.describe()));
        } else {
          VC_LOG_INFO("jobflow probe failed", kv("check", next.check.describe()),
                      kv("error", error));
        }
      }
    }
    for (const std::string& flow : next.flows) notify_(flow);
  }
}

}  // namespace vc::controllers::jobflow
