#pragma once
// The UFM source's I/O (spec controller-manager.md §5.5.4): its credentials from a Secret and
// one GET of the ports list. The HTTPS exchange goes through common/kube's Transport (one
// connection, no proxy, the system roots unless insecureSkipVerify), so no Beast code is
// compiled here.
//
// Threads: credentials_from_secret and basic_authorization are pure; fetch_ufm_ports blocks the
// calling thread for at most kUfmTimeout and may be called from any thread.

#include <chrono>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "controllers/hypernode/discovery_config.h"
#include "controllers/hypernode/ufm_topology.h"

namespace vc::controllers::hypernode {

// The whole exchange (connect, TLS, request, response) must end within this.
inline constexpr std::chrono::seconds kUfmTimeout{30};

struct UfmCredentials {
  std::string username{};
  std::string password{};
  friend bool operator==(const UfmCredentials&, const UfmCredentials&) = default;
};

// data.username and data.password of a Secret as the API server sends it (base64). Errors
// as Volcano words them (`username not found in secret <ns>/<name>`), or naming the field when
// a value is not base64 text.
api::Expected<UfmCredentials> credentials_from_secret(const nlohmann::json& secret,
                                                      const SecretRef& ref);

// "Basic <base64(username:password)>" (RFC 7617), as Go's Request.SetBasicAuth.
std::string basic_authorization(const UfmCredentials& credentials);

// GET <endpoint>/ufmRest/resources/ports and its decoded body. Errors: `failed to send request:
// <transport error>`, `unexpected status code: <code> <reason>`, `failed to decode response:
// ...`; a stop request ends the call promptly with an error.
api::Expected<std::vector<UfmPort>> fetch_ufm_ports(const UfmSettings& settings,
                                                    const UfmCredentials& credentials,
                                                    std::stop_token stop);

}  // namespace vc::controllers::hypernode
