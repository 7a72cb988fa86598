// webhook_main: from argv to run() (see run.h).

#include "common/process/main.h"
#include "webhook/app/run.h"

namespace vc::webhook::app {

int webhook_main(int argc, char** argv) {
  return process::run_main(
      "vc-webhook-manager", argc, argv, parse_command_line,
      [](const WebhookOptions& o, std::stop_token stop) { return run(o, stop); });
}

}  // namespace vc::webhook::app
