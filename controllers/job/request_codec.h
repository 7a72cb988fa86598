#pragma once
// Requests travel through the string-keyed RateLimitingQueue as one string holding every field,
// so two requests share a queue key exactly when they are equal field by field (the
// de-duplication Volcano gets from its comparable request struct, spec job-controller.md §1.3).
//
// Threads: pure functions.

#include <optional>
#include <string>

#include "controllers/job/model/request.h"

namespace vc::controllers::job {

std::string encode_request(const Request& req);
// nullopt for a string encode_request did not produce.
std::optional<Request> decode_request(const std::string& key);

}  // namespace vc::controllers::job
