#include "webhook/admission/jobs/job_checks.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>

#include "common/api/label_validation.h"

namespace vc::webhook::jobs {

std::string go_string_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ' ';
    out += items[i];
  }
  return out + "]";
}

std::string validate_io(const std::vector<VolumeSpec>& volumes) {
  std::set<std::string> mount_paths;
  for (const auto& v : volumes) {
    if (v.mount_path.empty()) return " mountPath is required;";
    if (mount_paths.count(v.mount_path)) return " duplicated mountPath: " + v.mount_path + ";";
    if (!v.has_volume_claim() && v.volume_claim_name.empty()) {
      return " either VolumeClaim or VolumeClaimName must be specified;";
    }
    if (!v.volume_claim_name.empty()) {
      if (v.has_volume_claim()) {
        return "conflict: If you want to use an existing PVC, just specify VolumeClaimName.If you "
               "want to create a new PVC, you do not need to specify VolumeClaimName";
      }
      auto errs = api::is_dns1123_subdomain(v.volume_claim_name);
      if (!errs.empty()) {
        return "invalid VolumeClaimName " + v.volume_claim_name + " : " + go_string_list(errs);
      }
    }
    mount_paths.insert(v.mount_path);
  }
  return {};
}

bool tasks_form_dag(const std::vector<TaskSpec>& tasks) {
  std::map<std::string, int> in_degree;
  std::map<std::string, std::set<std::string>> edges;  // dependency -> dependants
  for (const auto& t : tasks) in_degree[t.name] = 0;
  for (const auto& t : tasks) {
    if (!t.depends_on) continue;
    for (const auto& dep : t.depends_on->name) {
      edges[dep].insert(t.name);
      ++in_degree[t.name];  // counted per entry, removed once per distinct edge
    }
  }
  std::deque<std::string> ready;
  for (const auto& [name, degree] : in_degree) {
    if (degree == 0) ready.push_back(name);
  }
  std::size_t sorted = 0;
  while (!ready.empty()) {
    const std::string node = ready.front();
    ready.pop_front();
    ++sorted;
    for (const auto& next : edges[node]) {
      if (--in_degree[next] == 0) ready.push_back(next);
    }
  }
  return sorted == tasks.size();
}

bool topology_conflicts(const NetworkTopology& t) {
  return t.highest_tier_allowed.has_value() && !t.highest_tier_name.empty();
}

std::string validate_partition_policy(const TaskSpec& task, const std::string& job_name) {
  if (!task.partition_policy) return {};
  const PartitionPolicy& p = *task.partition_policy;
  const std::string where = " in task: " + task.name + ", job: " + job_name;
  std::string msg;
  if (p.total_partitions <= 0) {
    msg = "'TotalPartitions' must be greater than 0" + where;
  } else if (p.partition_size <= 0) {
    msg = "'PartitionSize' must be greater than 0" + where;
  } else if (task.replicas !=
             static_cast<std::int32_t>(std::int64_t{p.total_partitions} * p.partition_size)) {
    msg = "'Replicas' are not equal to TotalPartitions*PartitionSize" + where;
  } else if (task.min_available && p.min_partitions > 0 &&
             static_cast<std::int32_t>(std::int64_t{p.min_partitions} * p.partition_size) !=
                 *task.min_available) {
    msg = "'MinAvailable' is not equal to MinPartitions*PartitionSize" + where;
  }
  if (p.network_topology && topology_conflicts(*p.network_topology)) msg += kTopologyConflict;
  return msg;
}

namespace {

// strconv.ParseInt(s, 0, 64) succeeds: sign, base prefix (0x, 0o, 0b, leading 0), digits with
// single underscores between them.
bool go_parse_int_ok(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  if (s.empty()) return false;
  int base = 10;
  bool prefixed = false;
  if (s.size() >= 2 && s[0] == '0') {
    const char p = static_cast<char>(s[1] | 0x20);
    if (p == 'x') base = 16, prefixed = true;
    if (p == 'o') base = 8, prefixed = true;
    if (p == 'b') base = 2, prefixed = true;
    if (!prefixed) base = 8;
  }
  if (prefixed) s.remove_prefix(2);
  if (s.empty()) return false;
  unsigned __int128 value = 0;
  bool underscore_allowed = prefixed;  // between a base prefix or a digit and a digit
  bool last_underscore = false;
  bool any_digit = false;
  for (char c : s) {
    if (c == '_') {
      if (!underscore_allowed) return false;
      underscore_allowed = false;
      last_underscore = true;
      continue;
    }
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0 || digit >= base) return false;
    value = value * static_cast<unsigned>(base) + static_cast<unsigned>(digit);
    if (value > (static_cast<unsigned __int128>(1) << 63)) return false;
    underscore_allowed = true;
    last_underscore = false;
    any_digit = true;
  }
  return any_digit && !last_underscore;
}

}  // namespace

std::string mpi_master_name(const std::vector<std::string>& args) {
  std::string master = "master";
  std::size_t i = 0;
  while (i < args.size()) {
    const std::string& s = args[i];
    if (s.size() < 2 || s[0] != '-') break;  // first non-flag argument
    std::size_t minuses = 1;
    if (s[1] == '-') {
      minuses = 2;
      if (s.size() == 2) break;  // "--" ends the flags
    }
    std::string name = s.substr(minuses);
    if (name.empty() || name[0] == '-' || name[0] == '=') break;  // bad flag syntax
    ++i;
    bool has_value = false;
    std::string value;
    if (auto eq = name.find('=', 1); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (name != "master" && name != "worker" && name != "port") break;  // unknown or -help
    if (!has_value) {
      if (i >= args.size()) break;  // flag needs an argument
      value = args[i++];
    }
    if (name == "port" && !go_parse_int_ok(value)) break;
    if (name == "master") master = value;
  }
  return master;
}

}  // namespace vc::webhook::jobs
