#include "webhook/server/router.h"

#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>

#include "common/json/release.h"
#include "common/log/log.h"
#include "webhook/server/refusals.h"
#include "webhook/server/review_codec.h"

namespace vc::webhook::server {
namespace {

HttpResponse text(int status, std::string message) {
  return {status, std::string(kTextContentType), std::move(message) + "\n"};
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::string_view target_path(std::string_view target) {
  return target.substr(0, target.find('?'));
}

bool is_json_content_type(std::string_view content_type) {
  return iequals(trim(content_type.substr(0, content_type.find(';'))), kJsonContentType);
}

Router::Router(std::vector<Endpoint> endpoints, std::shared_ptr<const ClusterView> view,
               std::shared_ptr<const AdmissionOptions> options, ReviewLimits limits)
    : view_(std::move(view)), options_(std::move(options)), limits_(limits) {
  if (!view_) throw std::invalid_argument("admission router: cluster view is null");
  if (!options_) throw std::invalid_argument("admission router: admission options are null");
  for (auto& endpoint : endpoints) {
    if (endpoint.path.empty() || endpoint.path.front() != '/') {
      throw std::invalid_argument("admission path must start with '/': \"" + endpoint.path + "\"");
    }
    if (!endpoint.admit) {
      throw std::invalid_argument("admission service for " + endpoint.path +
                                  " has no admit function");
    }
    std::string path = endpoint.path;
    PathMetrics metrics(path);
    const bool added =
        routes_.try_emplace(path, Route{std::move(endpoint), std::move(metrics)}).second;
    if (!added) throw std::invalid_argument("duplicated admission service for " + path);
  }
}

const Router::Route* Router::find(std::string_view target) const {
  const auto it = routes_.find(target_path(target));
  return it == routes_.end() ? nullptr : &it->second;
}

HttpResponse Router::serve(const HttpRequest& request) const {
  const Route* route = find(request.target);
  if (route == nullptr) {
    VC_LOG_DEBUG("admission request for an unknown path", kv("path", target_path(request.target)),
                 kv("method", request.method));
    return text(404, "404 page not found");
  }
  return review(*route, request);
}

std::size_t Router::working_set(const HttpRequest& request) const {
  // Only reviews are decoded: a request for an unknown path is answered without.
  if (find(request.target) == nullptr) return 0;
  return decode_working_set(request.body.size(), limits_);
}

HttpResponse Router::body_too_large(std::string_view target) const {
  const Route* route = find(target);
  if (route == nullptr) return text(404, "404 page not found");
  VC_LOG_WARN("admission request refused: body too large", kv("path", route->endpoint.path));
  route->metrics.observe(Outcome::Error, 0);
  return text(413, "request body too large");
}

HttpResponse Router::review(const Route& route, const HttpRequest& request) const {
  const auto start = std::chrono::steady_clock::now();
  const std::string& path = route.endpoint.path;
  const auto finish = [&](Outcome outcome, HttpResponse response) {
    route.metrics.observe(outcome, seconds_since(start));
    return response;
  };

  if (!is_json_content_type(request.content_type)) {
    VC_LOG_WARN("admission request refused: unsupported content type", kv("path", path),
                kv("content_type", request.content_type));
    return finish(Outcome::Error,
                  text(415, "unsupported Content-Type \"" + std::string(request.content_type) +
                                "\", want application/json"));
  }
  auto decoded = decode_review(request.body, limits_);
  if (!decoded) {
    const std::string_view err = decoded.error();
    if (err.starts_with(kTooManyValuesError) || err.starts_with(kTooDeepError)) {
      // A size limit: counted, and logged at most now and then (refusals.h).
      refused(
          err.starts_with(kTooDeepError) ? RefusalReason::TooDeep : RefusalReason::TooManyValues,
          std::string(path) + ": " + decoded.error());
    } else {
      VC_LOG_WARN("admission request refused: bad AdmissionReview", kv("path", path),
                  kv("err", decoded.error()));
    }
    return finish(Outcome::Error, text(400, "bad AdmissionReview: " + decoded.error()));
  }
  // What outlives the answer: the documents, freed with release() (cheaper than their
  // destructors), and the log line, both after the answer is sent (router.h).
  struct Finished final : AfterResponse {
    Finished(AdmissionRequest decoded, const std::string& path)
        : req(std::move(decoded)), path(path) {}
    ~Finished() override {
      // A destructor, run by the transport after the answer: a failing log line (no memory)
      // must not end the process.
      try {
        if (log_reviewed) {
          VC_LOG_DEBUG("admission reviewed", kv("path", path), kv("uid", req.uid),
                       kv("operation", req.operation), kv("namespace", req.namespace_),
                       kv("name", req.name), kv("allowed", response.allowed),
                       kv("message", response.message));
        }
      } catch (...) {
      }
      for (auto* doc : {&req.object, &req.old_object, &response.patch}) {
        fastjson::release(*doc);
      }
    }
    AdmissionRequest req;
    AdmissionResponse response;
    const std::string& path;
    bool log_reviewed = false;
  };
  auto done = std::make_unique<Finished>(std::move(*decoded), path);
  AdmissionRequest& req = done->req;
  AdmissionResponse& response = done->response;
  std::string body;
  std::optional<std::string> failure;
  // Admit functions are pure code over untrusted objects: a bug in one (an exception) must cost
  // one request, not the process.
  try {
    // req is this call's own: an endpoint that can take members out of it instead of copying
    // them does.
    response = route.endpoint.admit_consuming
                   ? route.endpoint.admit_consuming(req, *view_, *options_)
                   : route.endpoint.admit(req, *view_, *options_);
    body = encode_review(req.uid, response);
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown exception";
  }
  if (failure) {
    VC_LOG_ERROR("admit function failed", kv("path", path), kv("uid", req.uid),
                 kv("operation", req.operation), kv("namespace", req.namespace_),
                 kv("name", req.name), kv("err", *failure));
    return finish(Outcome::Error, text(500, "admission " + path + " failed: " + *failure));
  }
  done->log_reviewed = true;
  HttpResponse answer{200, std::string(kJsonContentType), std::move(body), std::move(done)};
  return finish(response.allowed ? Outcome::Allowed : Outcome::Denied, std::move(answer));
}

}  // namespace vc::webhook::server
