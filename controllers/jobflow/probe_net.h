#pragma once
// The network half of a JobFlow probe (probes.h): one TCP connect or one HTTP GET against a pod
// IP, each bounded by a timeout, as a kubelet's tcpSocket and httpGet probes judge them (a TCP
// probe passes when the connection opens; an HTTP probe when the status is 200-399). Plain POSIX
// sockets: a probe is a few bytes each way and must not pull Beast into this module.
//
// Threads: each call blocks its caller (the prober's thread) for at most `timeout`.

#include <chrono>
#include <cstdint>
#include <string>

#include "common/volcano/job_flow.h"

namespace vc::controllers::jobflow {

// "" when a TCP connection to ip:port opened within timeout, else why not.
std::string tcp_probe(const std::string& ip, std::int64_t port, std::chrono::milliseconds timeout);

// "" when GET http://ip:port<path> (with the header, when it has a name) answered a status from
// 200 to 399 within timeout, else why not (e.g. "HTTP status 503").
std::string http_probe(const std::string& ip, std::int64_t port, const std::string& path,
                       const volcano::HttpHeader& header, std::chrono::milliseconds timeout);

}  // namespace vc::controllers::jobflow
