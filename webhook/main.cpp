// vc-webhook-manager: Volcano's admission webhook (webhook/app), or, as
// `vc-webhook-manager check -f FILE...`, the same rules over local manifests (webhook/check).

#include <string_view>

#include "webhook/app/run.h"
#include "webhook/check/check.h"

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "check") {
    return vc::webhook::check::check_main(argc - 1, argv + 1);
  }
  return vc::webhook::app::webhook_main(argc, argv);
}
