#pragma once
// The explanation as text for people and as JSON for tools (`-o json`).
//
// Text: a headline with the verdict, then one line per link with a mark
//   ok   through        ..   moving        WAIT waiting for room
//   STOP broken         --   not reached
// and, under the first stop, why, the evidence and what to do.
//
// Threads: pure functions.

#include <string>

#include <nlohmann/json.hpp>

#include "controllers/explain/diagnose.h"

namespace vc::controllers::explain {

std::string render_text(const Explanation& x);
nlohmann::json render_json(const Explanation& x);

}  // namespace vc::controllers::explain
