#include "controllers/explain/command.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>

#include "common/flags/flag_set.h"
#include "common/kube/client.h"
#include "common/kube/config.h"
#include "controllers/explain/admission.h"
#include "controllers/explain/diagnose.h"
#include "controllers/explain/read_snapshot.h"
#include "controllers/explain/render.h"
#include "webhook/check/inputs.h"
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
  // kubectl's flags, long and short (a one-letter name is its own shorthand).
  flags::FlagSet fs("vc-cpp explain");
  for (const char* name : {"namespace", "n"}) fs.string_var(name, &out.namespace_, "namespace");
  for (const char* name : {"output", "o"}) fs.string_var(name, &out.output, "text or json");
  for (const char* name : {"filename", "f"}) fs.string_var(name, &out.file, "a manifest");
  fs.string_var("kubeconfig", &out.kubeconfig, "kubeconfig file");
  fs.string_var("context", &out.context, "kubeconfig context");
  fs.bool_var("podgroup", &out.podgroup, "the target is a PodGroup");
  auto parsed = fs.parse(args);
  if (!parsed) return parsed.error();
  if (parsed->help) {
    out.help = true;
    return "";
  }
  if (parsed->args.size() > 1) {
    return "one job at a time: got " + parsed->args[0] + " and " + parsed->args[1];
  }
  if (!parsed->args.empty()) out.target = parsed->args[0];
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
  if (cl.help) {
    std::cout << kUsage;
    return 0;
  }
  try {
    kube::Config config = kube::Config::load(cl.kubeconfig, "", cl.context);
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
      webhook::check::Source source;
      source.is_stdin = cl.file == "-";
      source.label = source.is_stdin ? "stdin" : cl.file;
      if (!source.is_stdin) source.path = cl.file;
      auto text = webhook::check::read_source(source, std::cin);
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
