#include "controllers/explain/render.h"

#include <cstdio>

namespace vc::controllers::explain {
namespace {

std::string_view mark(LinkState state) {
  switch (state) {
    case LinkState::Through:
      return "ok  ";
    case LinkState::Moving:
      return "..  ";
    case LinkState::Waiting:
      return "WAIT";
    case LinkState::Broken:
      return "STOP";
    case LinkState::NotReached:
      return "--  ";
  }
  return "?   ";
}

std::string verdict_words(Verdict v) {
  switch (v) {
    case Verdict::Progressing:
      return "progressing";
    case Verdict::Finished:
      return "finished";
    case Verdict::WaitingForCapacity:
      return "waiting for capacity";
    case Verdict::ConfigurationError:
      return "stuck on its configuration";
    case Verdict::Failed:
      return "failed";
  }
  return "unknown";
}

}  // namespace

std::string render_text(const Explanation& x) {
  std::string out = x.kind + " " + x.namespace_ + "/" + x.name + ": " + verdict_words(x.verdict) +
                    " - " + x.headline + "\n";
  for (std::size_t i = 0; i < x.chain.size(); ++i) {
    const Link& l = x.chain[i];
    char name[16];
    std::snprintf(name, sizeof name, "%-9s", l.name.c_str());
    out += "  " + std::string(mark(l.state)) + " " + name + " " +
           (l.state == LinkState::NotReached ? std::string("not reached") : l.summary) + "\n";
    if (static_cast<int>(i) != x.stop) continue;
    out += "         why: " + l.why + "\n";
    if (!l.evidence.empty()) {
      out += "         evidence:\n";
      for (const std::string& e : l.evidence) out += "           - " + e + "\n";
    }
    if (!l.action.empty()) out += "         what to do: " + l.action + "\n";
  }
  return out;
}

nlohmann::json render_json(const Explanation& x) {
  nlohmann::json chain = nlohmann::json::array();
  for (const Link& l : x.chain) {
    nlohmann::json link{
        {"name", l.name}, {"state", std::string(to_string(l.state))}, {"summary", l.summary}};
    if (!l.why.empty()) link["why"] = l.why;
    if (!l.evidence.empty()) link["evidence"] = l.evidence;
    if (!l.action.empty()) link["action"] = l.action;
    chain.push_back(std::move(link));
  }
  nlohmann::json out{{"kind", x.kind},         {"namespace", x.namespace_},
                     {"name", x.name},         {"verdict", std::string(to_string(x.verdict))},
                     {"headline", x.headline}, {"chain", std::move(chain)}};
  if (x.stop >= 0) out["stop"] = x.chain[static_cast<std::size_t>(x.stop)].name;
  return out;
}

}  // namespace vc::controllers::explain
