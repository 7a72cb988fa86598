#pragma once
// `vc-cpp explain`: the command line around read_snapshot (read_snapshot.h), diagnose
// (diagnose.h) and render (render.h). Also installed as the kubectl plugin kubectl-vcjob, so that
// `kubectl vcjob explain NS/NAME` works.
//
//   vc-cpp explain [NAMESPACE/]NAME [-n NAMESPACE] [--podgroup] [-o text|json]
//                  [--kubeconfig PATH] [--context NAME]
//   vc-cpp explain -f FILE [NAME] ...   the manifest's Job: first whether the webhook admits it
//                                       (admission.h), then, if it exists, the live chain
//
// Exit status: 0 progressing or finished, 3 waiting for capacity, 4 stuck on a configuration
// error, 5 failed (diagnose.h exit_code); 1 when the command could not read what it needs (the
// message says why), 2 on a usage error.

#include <string>
#include <vector>

namespace vc::controllers::explain {

struct CommandLine {
  std::string target;      // [NAMESPACE/]NAME; optional with -f
  std::string file;        // -f: a manifest ("-" = standard input)
  std::string namespace_;  // -n; wins over the target's
  bool podgroup = false;   // the target names a PodGroup, not a Job
  std::string output = "text";
  std::string kubeconfig;
  std::string context;
  bool help = false;  // -h or --help
};

// Parses the arguments after "explain". Returns "" or the usage error.
std::string parse_command_line(const std::vector<std::string>& args, CommandLine& out);

// The whole command: argv as main() got it.
int explain_main(int argc, char** argv);

}  // namespace vc::controllers::explain
