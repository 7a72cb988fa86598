#pragma once
// FakeApiServer: an in-process HTTP or HTTPS server on 127.0.0.1 (port 0) that plays the
// kube-apiserver in unit tests of the client and of everything built on it (reflector, informer,
// leader election, event recorder). Tests register handlers by method and path; each handler sees
// the parsed request and returns a full response, a scripted fault, or a stream the test feeds
// over time (a watch).
//
// Plain request/response:
//
//   vc::testing::FakeApiServer server;
//   server.handle("GET", "/api/v1/namespaces/default/pods/p1", [](const Request&) {
//     return Response::json(200, {{"kind", "Pod"}, {"metadata", {{"name", "p1"}}}});
//   });
//   vc::kube::Client client(server.config());
//
// A watch stream: hand out one ResponseStream per watch request through a StreamQueue and push
// events into it from the test thread:
//
//   vc::testing::StreamQueue watches;
//   server.handle("GET", "/api/v1/pods", [&](const Request& r) -> Reply {
//     if (r.param("watch") == "1") return watches.open();   // streamed, chunked response
//     return Response::json(200, pod_list);                 // the list
//   });
//   ... start the reflector/watch on another thread ...
//   auto stream = watches.next(std::chrono::seconds(5));    // null if no watch arrived in time
//   ASSERT_TRUE(stream);
//   stream->write_event("ADDED", pod);                       // {"type":"ADDED","object":...}\n
//   stream->write_chunk("{\"type\":\"MOD");                  // raw bytes, any split you like
//   stream->write_chunk("IFIED\",\"object\":{}}\n");
//   stream->close();            // clean end of the stream (the client re-watches)
//   // or stream->reset_connection();  // abrupt TCP reset mid-body
//   // or stream->wait_client_gone(1s) to check that a cancelled watch closed its connection
//
// Faults: Response::delay (answer late), Response::stall (never answer; the client's deadline
// must fire), Response::reset_after_body_bytes (reset the connection mid-body),
// Response::error(410, "Expired", ...) and .with_header("Retry-After", "1") for 410/409/429.
//
// HTTPS: FakeApiServer({.tls = true}) generates a fresh CA and a server certificate for
// IP:127.0.0.1 and DNS:localhost; config() trusts that CA. With require_client_cert the server
// demands a certificate signed by the same CA and config() presents pki().client; each Request
// records the presented certificate's common name.
//
// Threads: the server runs an accept thread and one thread per connection. Handlers run on the
// connection's thread (several may run at once for different connections): they must be
// thread-safe and should not block (use Response::delay or a ResponseStream instead). Every public
// method may be called from any thread.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/config.h"
#include "common/testing/pki.h"

namespace vc::testing {

// One parsed HTTP request as the server received it.
struct Request {
  std::string method;                          // "GET"
  std::string target;                          // as sent: "/api/v1/pods?watch=1"
  std::string path;                            // percent-decoded path without the query
  std::map<std::string, std::string> query;    // percent-decoded; the last value of a key wins
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string client_cert_cn;  // HTTPS: common name of the client certificate, if one was sent
  int connection_id = 0;       // 1 for the first accepted TCP connection, 2 for the next, ...

  std::string header(const std::string& lower_case_name) const;  // "" when absent
  std::string param(const std::string& name) const;              // "" when absent
  bool has_param(const std::string& name) const;
  // The body parsed, JSON or protobuf (as JSON); throws nlohmann::json::exception or
  // std::invalid_argument if invalid.
  nlohmann::json json() const;
};

// A complete response, optionally with a scripted fault.
struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers
  std::string body;

  // Wait this long before sending anything.
  std::chrono::milliseconds delay{0};
  // Never answer: hold the connection until the client closes it or the server stops.
  bool stall = false;
  // Send the headers (with the full Content-Length) and this many body bytes, then reset the TCP
  // connection.
  std::optional<std::size_t> reset_after_body_bytes;
  // Send "Connection: close" and close the connection after the response.
  bool close_connection = false;

  static Response json(int status, const nlohmann::json& body);
  // A metav1.Status failure body: error(409, "Conflict", "the object has been modified").
  static Response error(int status, const std::string& reason, const std::string& message);
  static Response text(int status, std::string body);
  Response& with_header(std::string name, std::string value) &;
  Response&& with_header(std::string name, std::string value) &&;
};

// The server side of a streamed (chunked) response such as a watch. Writes made before the
// connection picks the stream up are buffered and sent in order.
// Thread-safe: the test writes from its own thread while the connection's thread sends.
class ResponseStream {
 public:
  explicit ResponseStream(int status = 200, std::string content_type = "application/json");
  ~ResponseStream();

  void write_chunk(std::string bytes);  // one HTTP chunk with exactly these bytes
  // One watch event as one chunk: {"type":<type>,"object":<object>}\n
  void write_event(std::string_view type, const nlohmann::json& object);
  void close();             // the terminating zero-length chunk: a clean end of the stream
  void reset_connection();  // abrupt TCP reset (RST) without ending the body

  // Waits until the client has closed its end of the connection (or it was reset/closed by the
  // server); false on timeout.
  bool wait_client_gone(std::chrono::milliseconds timeout);
  // Waits until the response headers were sent; false on timeout.
  bool wait_started(std::chrono::milliseconds timeout);

  int status() const { return status_; }
  const std::string& content_type() const { return content_type_; }

  // Used by the server's connection. An op is a chunk, or an end marker (close or reset).
  struct Op {
    enum class Kind { Chunk, Close, Reset } kind = Kind::Chunk;
    std::string bytes;
  };
  void attach(std::function<void()> notify);  // notify is called after each push
  std::deque<Op> take_ops();
  void mark_started();
  void mark_client_gone();

 private:
  void push(Op op);

  const int status_;
  const std::string content_type_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Op> ops_;
  std::function<void()> notify_;
  bool started_ = false;
  bool client_gone_ = false;
};

// A handler's answer: a complete Response or a ResponseStream.
struct Reply {
  Reply(Response r) : response(std::move(r)) {}                       // NOLINT: implicit by design
  Reply(std::shared_ptr<ResponseStream> s) : stream(std::move(s)) {}  // NOLINT
  Response response;
  std::shared_ptr<ResponseStream> stream;  // when set, response is ignored
};

using Handler = std::function<Reply(const Request&)>;

// Hands out one ResponseStream per request (typically each watch) and lets the test take them in
// the order they were opened. Thread-safe.
class StreamQueue {
 public:
  // Call from a handler: makes a stream, queues it for next(), and returns it as the reply.
  Reply open(int status = 200);
  // The next stream opened, waiting up to timeout; null on timeout.
  std::shared_ptr<ResponseStream> next(std::chrono::milliseconds timeout);
  std::size_t opened() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<ResponseStream>> ready_;
  std::size_t opened_ = 0;
};

struct FakeApiServerOptions {
  bool tls = false;
  bool require_client_cert = false;       // implies tls
  std::string client_cn = "test-client";  // common name of pki().client
};

class FakeApiServer {
 public:
  explicit FakeApiServer(FakeApiServerOptions options = {});
  ~FakeApiServer();  // closes every connection and joins all threads
  FakeApiServer(const FakeApiServer&) = delete;
  FakeApiServer& operator=(const FakeApiServer&) = delete;

  // Exact path match; method "*" matches any method. A later registration for the same method
  // and path replaces the earlier one. Exact matches win over prefixes; the longest prefix wins.
  // Unmatched requests get 404 with a metav1.Status body.
  void handle(std::string method, std::string path, Handler handler);
  void handle_prefix(std::string method, std::string prefix, Handler handler);

  std::uint16_t port() const;
  std::string url() const;  // "http://127.0.0.1:<port>" or "https://..."
  const Pki& pki() const;   // TLS only: the generated CA, server and client certificates
  const std::string& ca_pem() const { return pki().ca.cert_pem; }  // TLS only
  // A client configuration pointing at this server: its CA, the client certificate when required,
  // and a bearer token when one is given.
  vc::kube::Config config(const std::string& bearer_token = {}) const;

  // The request log, in arrival order (requests are logged before their handler runs).
  std::vector<Request> requests() const;
  bool wait_for_requests(std::size_t n, std::chrono::milliseconds timeout) const;
  void clear_requests();
  // "GET /api/v1/pods?watch=1\n..." for assertion messages.
  std::string describe_requests() const;
  int connections_accepted() const;
  // Closes every open connection (as a restarting API server would) without stopping the server;
  // returns once they are closed.
  void drop_connections();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vc::testing
