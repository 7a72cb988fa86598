#include "controllers/job/verdict/verdict_plan.h"

#include <algorithm>
#include <unordered_set>

namespace vc::controllers::job::verdict {

void Memory::observe(Verdict v) {
  streak = verdict == v ? streak + 1 : 1;
  verdict = v;
  if (!is_stop(v)) announced.reset();
}

bool is_stop(Verdict v) {
  return v == Verdict::WaitingForCapacity || v == Verdict::ConfigurationError;
}

std::optional<Verdict> verdict_from_phase(std::string_view phase) {
  if (phase.empty() || phase == "Pending") return std::nullopt;
  if (phase == "Completed") return Verdict::Finished;
  if (phase == "Failed" || phase == "Aborted" || phase == "Terminated") return Verdict::Failed;
  return Verdict::Progressing;
}

std::vector<const JobFacts*> pick_diagnoses(const std::vector<JobFacts>& jobs,
                                            const Memories& memory, api::TimePoint now,
                                            const PassOptions& options) {
  struct Candidate {
    const JobFacts* job;
    std::optional<api::TimePoint> diagnosed;
  };
  std::vector<Candidate> candidates;
  for (const JobFacts& j : jobs) {
    if (verdict_from_phase(j.phase)) continue;
    if (!j.created || now - *j.created < options.grace) continue;
    const auto m = memory.find(j.uid);
    candidates.push_back({&j, m == memory.end() ? std::nullopt : m->second.diagnosed});
  }
  // Never diagnosed (nullopt) before any diagnosed; among those, the oldest job or the oldest
  // diagnosis first; the key breaks ties so a pass is deterministic.
  const auto before = [](const Candidate& a, const Candidate& b) {
    if (a.diagnosed.has_value() != b.diagnosed.has_value()) return !a.diagnosed.has_value();
    const api::TimePoint ta = a.diagnosed ? *a.diagnosed : *a.job->created;
    const api::TimePoint tb = b.diagnosed ? *b.diagnosed : *b.job->created;
    if (ta != tb) return ta < tb;
    return std::tie(a.job->namespace_, a.job->name) < std::tie(b.job->namespace_, b.job->name);
  };
  const std::size_t n = std::min(options.max_diagnoses, candidates.size());
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<long>(n), candidates.end(),
                    before);
  std::vector<const JobFacts*> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(candidates[i].job);
  return out;
}

bool should_announce(Memory& memory, Verdict verdict, api::TimePoint now,
                     const PassOptions& options) {
  if (!is_stop(verdict) || memory.verdict != verdict || memory.streak < 2) return false;
  if (memory.announced == verdict) return false;
  if (memory.announced_at && now - *memory.announced_at < options.announce_interval) return false;
  memory.announced = verdict;
  memory.announced_at = now;
  return true;
}

std::map<std::pair<std::string, Verdict>, long> count_by_queue(const std::vector<JobFacts>& jobs,
                                                               const Memories& memory) {
  std::map<std::pair<std::string, Verdict>, long> counts;
  for (const JobFacts& j : jobs) {
    Verdict v = Verdict::Progressing;
    if (const auto from_phase = verdict_from_phase(j.phase)) {
      v = *from_phase;
    } else if (const auto m = memory.find(j.uid); m != memory.end() && m->second.verdict) {
      v = *m->second.verdict;
    }
    ++counts[{j.queue, v}];
  }
  return counts;
}

void settle(Memories& memory, const std::vector<JobFacts>& jobs) {
  std::unordered_set<std::string> present;
  for (const JobFacts& j : jobs) {
    present.insert(j.uid);
    const auto v = verdict_from_phase(j.phase);
    if (!v) continue;
    // Only jobs already remembered: a finished job needs no memory of its own.
    if (const auto m = memory.find(j.uid); m != memory.end()) m->second.observe(*v);
  }
  std::erase_if(memory, [&](const auto& entry) { return !present.contains(entry.first); });
}

}  // namespace vc::controllers::job::verdict
