#pragma once
// The health server of --enable-healthz (spec webhook.md §4.4), on --healthz-address (default
// ":11251"): /healthz answers "ok" (with ?verbose "[+]ping ok\nhealthz check passed\n", as
// Volcano's), /healthz/ping "ok", /livez likewise, /readyz once the Queue cache has synced and
// the admission server listens, and /metrics. run() adds the admission self-probe's checks
// (admission_probe.h): /readyz then also needs a recent TLS dial of the admission port to have
// succeeded, and /healthz fails once none has for --admission-stall-timeout. Plain HTTP: Volcano
// serves it over TLS with the webhook certificate (compat.md).
//
// Thread-safety: see vc::server::Server.

#include <memory>
#include <string>

#include "common/server/server.h"

namespace vc::webhook::app {

// Builds (does not start) the server. Throws std::invalid_argument for a malformed address.
std::unique_ptr<vc::server::Server> make_health_server(const std::string& address);

}  // namespace vc::webhook::app
