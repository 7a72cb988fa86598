// Request, Response, ResponseStream and StreamQueue of the fake API server.

#include "common/testing/fake_apiserver.h"

#include <stdexcept>

#include "common/kube/proto/envelope.h"

namespace vc::testing {

std::string Request::header(const std::string& lower_case_name) const {
  auto it = headers.find(lower_case_name);
  return it == headers.end() ? std::string() : it->second;
}

std::string Request::param(const std::string& name) const {
  auto it = query.find(name);
  return it == query.end() ? std::string() : it->second;
}

bool Request::has_param(const std::string& name) const {
  return query.count(name) != 0;
}

nlohmann::json Request::json() const {
  // A protobuf body (a client with --kube-api-content-type=protobuf) as the API server reads it.
  if (kube::proto::is_enveloped(body)) {
    auto object = kube::proto::decode_object(kube::proto::k8s_schema(), body);
    if (!object) throw std::invalid_argument("fake apiserver: " + object.error());
    return std::move(*object);
  }
  return nlohmann::json::parse(body);
}

Response Response::json(int status, const nlohmann::json& body) {
  Response r;
  r.status = status;
  r.body = body.dump();
  return r;
}

Response Response::error(int status, const std::string& reason, const std::string& message) {
  return json(status, {{"kind", "Status"},
                       {"apiVersion", "v1"},
                       {"metadata", nlohmann::json::object()},
                       {"status", "Failure"},
                       {"message", message},
                       {"reason", reason},
                       {"code", status}});
}

Response Response::text(int status, std::string body) {
  Response r;
  r.status = status;
  r.content_type = "text/plain; charset=utf-8";
  r.body = std::move(body);
  return r;
}

Response& Response::with_header(std::string name, std::string value) & {
  headers.emplace_back(std::move(name), std::move(value));
  return *this;
}

Response&& Response::with_header(std::string name, std::string value) && {
  headers.emplace_back(std::move(name), std::move(value));
  return std::move(*this);
}

ResponseStream::ResponseStream(int status, std::string content_type)
    : status_(status), content_type_(std::move(content_type)) {}

ResponseStream::~ResponseStream() = default;

void ResponseStream::push(Op op) {
  std::lock_guard lock(mu_);
  ops_.push_back(std::move(op));
  // Called under the lock so that attach(nullptr) guarantees no later call into a dead session.
  if (notify_) notify_();
}

void ResponseStream::write_chunk(std::string bytes) {
  push({Op::Kind::Chunk, std::move(bytes)});
}

void ResponseStream::write_event(std::string_view type, const nlohmann::json& object) {
  nlohmann::json event = {{"type", type}, {"object", object}};
  push({Op::Kind::Chunk, event.dump() + "\n"});
}

void ResponseStream::close() {
  push({Op::Kind::Close, {}});
}

void ResponseStream::reset_connection() {
  push({Op::Kind::Reset, {}});
}

bool ResponseStream::wait_client_gone(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return client_gone_; });
}

bool ResponseStream::wait_started(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return started_; });
}

void ResponseStream::attach(std::function<void()> notify) {
  std::lock_guard lock(mu_);
  notify_ = std::move(notify);
  if (notify_ && !ops_.empty()) notify_();
}

std::deque<ResponseStream::Op> ResponseStream::take_ops() {
  std::lock_guard lock(mu_);
  return std::exchange(ops_, {});
}

void ResponseStream::mark_started() {
  std::lock_guard lock(mu_);
  started_ = true;
  cv_.notify_all();
}

void ResponseStream::mark_client_gone() {
  std::lock_guard lock(mu_);
  client_gone_ = true;
  cv_.notify_all();
}

Reply StreamQueue::open(int status) {
  auto stream = std::make_shared<ResponseStream>(status);
  std::lock_guard lock(mu_);
  ready_.push_back(stream);
  ++opened_;
  cv_.notify_all();
  return stream;
}

std::shared_ptr<ResponseStream> StreamQueue::next(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  if (!cv_.wait_for(lock, timeout, [&] { return !ready_.empty(); })) return nullptr;
  auto stream = std::move(ready_.front());
  ready_.pop_front();
  return stream;
}

std::size_t StreamQueue::opened() const {
  std::lock_guard lock(mu_);
  return opened_;
}

}  // namespace vc::testing
