#pragma once
// The lines `check` writes to stderr, one result line per object:
//   FILE:DOC: Kind namespace/name: allowed
//   FILE:DOC: Kind namespace/name: denied: <the endpoint's message, exactly>
//   FILE:DOC: Kind namespace/name: warning: <text>
//   FILE:DOC: Kind namespace/name: skipped: <a lookup an offline check could not make>
//   FILE:DOC: Kind namespace/name: not admitted by the Volcano webhook, skipped
//   FILE:DOC: error: line L, column C: <why the document could not be read>
// then one summary line, and the exit code: 2 when anything could not be read (or for usage
// errors), else 1 when any object was denied, else 0.
//
// Threads: pure functions and a plain value type.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::webhook::check {

struct Tally {
  int allowed = 0;
  int denied = 0;
  int not_admitted = 0;
  int unreadable = 0;  // documents, files or directories that could not be read
  int lookups_skipped = 0;

  int objects() const { return allowed + denied + not_admitted; }
};

inline constexpr int kExitOk = 0;
inline constexpr int kExitDenied = 1;
inline constexpr int kExitUsage = 2;  // usage, configuration and parse errors

int exit_code(const Tally& tally);

// "Job team-a/train", "Queue research"; a name from generateName shows as "train-*".
// ns is empty for cluster-scoped objects.
std::string object_ref(const nlohmann::json& object, std::string_view ns);

// "<where>: <ref>: <label>: <text>", or "<where>: <ref>: <label>" when text is empty.
std::string result_line(std::string_view where, std::string_view ref, std::string_view label,
                        std::string_view text = {});

// "<where>: error: line L, column C: <message>" (the position parts only when known).
std::string error_line(std::string_view where, int line, int column, std::string_view message);

// "summary: 3 objects: 1 allowed, 1 denied, 1 not admitted; 0 unreadable; 2 lookups skipped"
std::string summary_line(const Tally& tally, bool offline);

}  // namespace vc::webhook::check
