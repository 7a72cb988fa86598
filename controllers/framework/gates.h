#pragma once
// The --controllers gate list (spec controller-manager.md §1.9, §1.5): which controllers a process
// runs, decided exactly as Volcano decides it, quirks included (entries are compared verbatim,
// so " -job-controller" with its leading space matches nothing; an empty list enables
// everything, sharding-controller too).
//
//   controller_enabled("job-controller", {"*", "-job-controller"});   // false
//   controller_enabled("job-controller", {});                         // true
//   validate_controller_gates({"+x", "-x"});
//     // {"controllers option -x cannot have both '-' and '+' prefixes"}
//
// Thread-safety: pure functions.

#include <string>
#include <string_view>
#include <vector>

namespace vc::controllers {

// Volcano's default: every controller but the sharding controller.
std::vector<std::string> default_controller_gates();

// Scans gates in order; the first entry that names the controller decides ("name" or "+name"
// enables, "-name" disables). "*" only records that a star was seen. Without a decisive entry the
// controller runs iff a star was seen; an empty list enables every controller.
bool controller_enabled(std::string_view name, const std::vector<std::string>& gates);

// One error per entry whose bare name (after stripping one leading '+' or '-') was already seen
// earlier in the list; "*" is skipped. The entry is quoted with its prefix, as Volcano does.
// Unknown names are accepted.
std::vector<std::string> validate_controller_gates(const std::vector<std::string>& gates);

}  // namespace vc::controllers
