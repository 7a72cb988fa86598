#include "controllers/explain/command.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

#include "common/kube/client.h"
#include "common/kube/config.h"
#include "controllers/explain/admission.h"
#include "controllers/explain/diagnose.h"
#include "controllers/explain/read_snapshot.h"
#include "controllers/explain/render.h"
#include "webhook/check/live_cluster_view.h"

namespace vc::controllers::explain {
namespace {

constexpr const char* kUsage =
    "usage: vc-cpp explain [NAMESPACE/]NAME [-n NAMESPACE] [--podgroup] [-o text|json]\n"
    "                      [--kubeconfig PATH] [--context NAME]\n"
    "       vc-cpp explain -f FILE [NAME] [...]   (a manifest's Job: would the webhook admit it?)\n"
    "Shows where a Volcano Job (or, with --podgroup, a PodGroup) stopped on its way to running:\n"
    "Job -> PodGroup -> Queue -> Enqueue -> Pods -> Binding -> Running, and why.\n"
    "Exit status: 0 progressing or finished, 3 waiting for capacity, 4 configuration error,\n"
    "5 failed, 1 the command could not read the cluster, 2 usage error.\n";

// Takes the value of a flag given as "--flag value" or "--flag=value".
bool flag_value(const std::vector<std::string>& args, std::size_t& i, std::string_view name,
                std::string& value, std::string& error) {
  const std::string& a = args[i];
  if (a == name) {
    if (i + 1 >= args.size()) {
      error = std::string(name) + " needs a value";
      return true;
    }
    value = args[++i];
    return true;
  }
  if (a.size() > name.size() && a.starts_with(name) && a[name.size()] == '=') {
    value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

// The kubeconfig file a --context applies to: --kubeconfig, else the first file of
// $KUBECONFIG, else ~/.kube/config (as kubectl picks it).
std::string kubeconfig_path(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("KUBECONFIG"); env != nullptr && *env != '\0') {
    const std::string list = env;
    return list.substr(0, list.find(':'));
  }
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : "") + "/.kube/config";
}

// The text of a manifest file, or of standard input for "-".
api::Expected<std::string> read_file(const std::string& path) {
  if (path == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return api::Unexpected{"cannot read " + path + ": " + std::strerror(errno)};
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Prints x as asked and returns its exit status.
int print(const Explanation& x, const CommandLine& cl, const std::vector<std::string>& gaps) {
  if (cl.output == "json") {
    nlohmann::json out = render_json(x);
    if (!gaps.empty()) out["gaps"] = gaps;
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << render_text(x);
    for (const std::string& g : gaps) std::cout << "note: " << g << "\n";
  }
  return exit_code(x.verdict);
}

}  // namespace

std::string parse_command_line(const std::vector<std::string>& args, CommandLine& out) {
  std::string error;
  for (std::size_t i = 0; i < args.size() && error.empty(); ++i) {
    const std::string& a = args[i];
    if (flag_value(args, i, "-n", out.namespace_, error) ||
        flag_value(args, i, "--namespace", out.namespace_, error) ||
        flag_value(args, i, "-o", out.output, error) ||
        flag_value(args, i, "--output", out.output, error) ||
        flag_value(args, i, "--kubeconfig", out.kubeconfig, error) ||
        flag_value(args, i, "--context", out.context, error) ||
        flag_value(args, i, "-f", out.file, error) ||
        flag_value(args, i, "--filename", out.file, error)) {
      continue;
    }
    if (a == "--podgroup") {
      out.podgroup = true;
    } else if (a.starts_with("-")) {
      error = "unknown flag " + a;
    } else if (out.target.empty()) {
      out.target = a;
    } else {
      error = "one job at a time: got " + out.target + " and " + a;
    }
  }
  if (!error.empty()) return error;
  if (out.target.empty() && out.file.empty()) return "missing the job: [NAMESPACE/]NAME or -f FILE";
  if (!out.file.empty() && out.podgroup) return "-f explains a Job, not a PodGroup";
  if (out.output != "text" && out.output != "json") {
    return "-o must be text or json, got " + out.output;
  }
  if (const auto slash = out.target.find('/'); slash != std::string::npos) {
    const std::string ns = out.target.substr(0, slash);
    const std::string name = out.target.substr(slash + 1);
    if (ns.empty() || name.empty() || name.find('/') != std::string::npos) {
      return "the job must be NAME or NAMESPACE/NAME, got " + out.target;
    }
    if (!out.namespace_.empty() && out.namespace_ != ns) {
      return "namespace " + ns + " in " + out.target + " differs from -n " + out.namespace_;
    }
    out.namespace_ = ns;
    out.target = name;
  }
  return "";
}

int explain_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help" || args[0] == "help")) {
    std::cout << kUsage;
    return 0;
  }
  if (args.empty() || args[0] != "explain") {
    std::cerr << kUsage;
    return 2;
  }
  args.erase(args.begin());
  CommandLine cl;
  if (const std::string error = parse_command_line(args, cl); !error.empty()) {
    std::cerr << "error: " << error << "\n" << kUsage;
    return 2;
  }
  try {
    kube::Config config = cl.context.empty() ? kube::Config::load(cl.kubeconfig, "")
                                             : kube::Config::from_kubeconfig_file(
                                                   kubeconfig_path(cl.kubeconfig), cl.context);
    if (cl.namespace_.empty())
      cl.namespace_ = config.namespace_.empty() ? "default" : config.namespace_;
    kube::ClientOptions options;
    options.qps = 0;  // a one-shot reader: no client-side rate limit
    // An unreachable cluster fails the command within seconds, not minutes of retries.
    options.request_timeout = std::chrono::seconds(10);
    options.max_retries = 1;
    options.user_agent = "vc-cpp-explain/" VC_VERSION;
    auto client = std::make_shared<kube::Client>(std::move(config), options);
    std::vector<std::string> gaps;
    std::optional<Admission> admission;
    if (!cl.file.empty()) {
      auto text = read_file(cl.file);
      if (!text) {
        std::cerr << "error: " << text.error() << "\n";
        return 1;
      }
      auto job = job_in_manifest(*text, cl.target);
      if (!job) {
        std::cerr << "error: " << cl.file << ": " << job.error() << "\n";
        return 1;
      }
      auto view = webhook::check::LiveClusterView::connect(client);
      if (!view) {
        std::cerr << "error: reading the cluster's queues: " << view.error() << "\n";
        return 1;
      }
      admission = admit_job(*job, **view, cl.namespace_);
      cl.namespace_ = admission->namespace_;
      cl.target = admission->name;
      if (!admission->allowed) return print(denied_explanation(*admission), cl, gaps);
      // A Job named by generateName has no name before it is created: nothing to look up.
      if (admission->name.empty()) return print(not_created_explanation(*admission), cl, gaps);
    }
    const Target target{cl.podgroup ? TargetKind::PodGroup : TargetKind::Job, cl.namespace_,
                        cl.target};
    auto snapshot = read_snapshot(*client, target, gaps);
    if (!snapshot && admission && snapshot.error().kind == kube::ErrorKind::NotFound) {
      return print(not_created_explanation(*admission), cl, gaps);
    }
    if (!snapshot) {
      std::cerr << "error: " << (cl.podgroup ? "podgroup " : "job ") << cl.namespace_ << "/"
                << cl.target << ": " << snapshot.error().describe() << "\n";
      return 1;
    }
    Explanation x = diagnose(*snapshot);
    if (admission) x = with_admission(std::move(x), *admission);
    return print(x, cl, gaps);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace vc::controllers::explain
