#pragma once
// Router: what the admission server answers, without any I/O (spec webhook.md §2.0). A request
// goes to the endpoint whose path equals the request path exactly (the query, which the API
// server uses for ?timeout=10s, is ignored); any HTTP method is served, as Go's ServeMux does
// for Volcano. Then, in order:
//   unknown path                        -> 404 "404 page not found"
//   Content-Type not application/json   -> 415 (Volcano answers 200 with an empty body)
//   body that is no v1 AdmissionReview  -> 400 with the reason (Volcano drops the connection);
//                                          over a size limit of ReviewLimits likewise, naming it
//   admit function throws               -> 500 with the exception's message
//   otherwise                           -> 200 with the encoded AdmissionReview
// Error bodies are plain text ending in "\n", as Go's http.Error writes them. Every request on a
// known path is counted and timed (metrics.h); each refusal is logged.
//
// Thread-safety: construct once; serve() and the other const methods may be called from any
// number of threads at once. Admit functions run on the calling thread.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/server/http_message.h"
#include "webhook/admission/endpoint.h"
#include "webhook/server/metrics.h"
#include "webhook/server/review_codec.h"

namespace vc::webhook::server {

// The transport's request and response (common/server/http_message.h).
using vc::server::AfterResponse;
using vc::server::HttpRequest;
using vc::server::HttpResponse;
using vc::server::kJsonContentType;
using vc::server::kTextContentType;

// True for "application/json", in any letter case, with or without parameters
// ("application/json; charset=utf-8"). Volcano compares the whole header with "==" (compat.md).
bool is_json_content_type(std::string_view content_type);

class Router {
 public:
  // Throws std::invalid_argument for an empty or duplicated path ("duplicated admission service
  // for /jobs/mutate", Volcano's start-up error), an endpoint without an admit function, or a null
  // view or options: all start-up configuration mistakes.
  Router(std::vector<Endpoint> endpoints, std::shared_ptr<const ClusterView> view,
         std::shared_ptr<const AdmissionOptions> options, ReviewLimits limits = {});

  // Never throws.
  HttpResponse serve(const HttpRequest& request) const;

  // The answer when the transport gave up on the body because it exceeded the limit: 413
  // "request body too large" on a known path (counted as an error there), 404 elsewhere.
  HttpResponse body_too_large(std::string_view target) const;

  bool has_path(std::string_view target) const { return find(target) != nullptr; }

  // The most memory serving this request may take beyond its body (decode_working_set).
  std::size_t working_set(const HttpRequest& request) const;

 private:
  struct Route {
    Endpoint endpoint;
    PathMetrics metrics;
  };

  const Route* find(std::string_view target) const;
  HttpResponse review(const Route& route, const HttpRequest& request) const;

  std::map<std::string, Route, std::less<>> routes_;
  std::shared_ptr<const ClusterView> view_;
  std::shared_ptr<const AdmissionOptions> options_;
  ReviewLimits limits_;
};

// The path of an origin-form target: everything before '?'.
std::string_view target_path(std::string_view target);

}  // namespace vc::webhook::server
