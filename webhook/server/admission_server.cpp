// The listener side of the webhook server: binding, the accept loop with its connection limit,
// the certificate poll, the worker pool and graceful shutdown. Connections are in connection.cpp.
#include "webhook/server/admission_server.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "common/log/log.h"
#include "common/server/busy_poll.h"
#include "webhook/server/certificate_reloader.h"
#include "webhook/server/connection.h"
#include "webhook/server/metrics.h"
#include "webhook/server/router.h"

namespace vc::webhook::server {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

// After the grace period: how long stop() waits for workers to return from their handlers.
constexpr auto kWorkerExitWait = std::chrono::seconds(1);

// State shared by the listener, every connection and the AdmissionServer handle. Workers hold a
// shared_ptr to it, so it outlives a worker left inside an admit function by stop().
struct ServerCore : ConnectionHost {
  ServerCore(AdmissionServerOptions o, Router r)
      : options(std::move(o)),
        router(std::move(r)),
        certificates(options.cert_file, options.key_file),
        thread_count(options.threads > 0 ? options.threads : default_worker_threads()) {}

  const AdmissionServerOptions& server_options() const override { return options; }
  const Router& admission_router() const override { return router; }
  bool is_stopping() const override { return stopping; }
  void forget(Connection* c) override {
    std::lock_guard lock(mu);
    connections.erase(c);
    cv.notify_all();
  }

  const AdmissionServerOptions options;
  const Router router;
  CertificateReloader certificates;
  const int thread_count;

  std::mutex mu;               // guards the members up to ioc
  std::condition_variable cv;  // connections, listener_closed or running_workers changed
  std::unordered_map<Connection*, std::weak_ptr<Connection>> connections;
  enum class State { Created, Running, Stopped } state = State::Created;
  bool listener_closed = false;
  int running_workers = 0;
  std::atomic<bool> stopping{false};
  std::atomic<std::uint16_t> port{0};

  // Declared after the members above: destroying the io_context destroys pending handlers, and
  // with them connections, which call forget().
  net::io_context ioc{thread_count};
  net::strand<net::io_context::executor_type> accept_strand{net::make_strand(ioc)};
  tcp::acceptor acceptor{accept_strand};
  net::steady_timer accept_retry{accept_strand};
  net::steady_timer cert_timer{net::make_strand(ioc)};
  // Keeps the workers running while stop() still has handlers to post: a connection kept alive by
  // stop() alone has no pending operation, and without this the workers would return.
  std::optional<net::executor_work_guard<net::io_context::executor_type>> keep_running;
  std::vector<std::thread> threads;
};

void do_accept(ServerCore& core);

void on_accept(ServerCore& core, error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || core.stopping) return;  // stop() closed the acceptor
  if (ec) {
    // Typically EMFILE: back off instead of spinning on the failing accept.
    VC_LOG_WARN("webhook accept failed", kv("err", ec.message()));
    core.accept_retry.expires_after(std::chrono::milliseconds(100));
    core.accept_retry.async_wait([&core](error_code wait_ec) {
      if (!wait_ec && !core.stopping) do_accept(core);
    });
    return;
  }
  std::shared_ptr<Connection> connection;
  {
    std::lock_guard lock(core.mu);
    if (core.connections.size() >= core.options.max_connections) {
      count_rejected_connection();
      VC_LOG_DEBUG("webhook connection limit reached, closing a new connection",
                   kv("limit", core.options.max_connections));
    } else {
      error_code ignored;  // Nagle only delays small responses; failing to disable it is harmless
      socket.set_option(tcp::no_delay(true), ignored);
      try {
        connection = make_connection(std::move(socket), core, core.certificates.current());
        core.connections.emplace(connection.get(), connection);
      } catch (const std::exception& e) {
        // SSL_new failing (out of memory) costs this connection, not the accept loop.
        VC_LOG_ERROR("webhook connection setup failed", kv("err", e.what()));
        connection.reset();
      }
    }
  }
  if (connection) connection->run();
  do_accept(core);
}

void do_accept(ServerCore& core) {
  auto accepted = [&core](error_code ec, tcp::socket s) { on_accept(core, ec, std::move(s)); };
  // A connection's handlers must not run concurrently. With one worker that is already so (the
  // handlers stop() posts run on it too), and a strand would only add a lock and a queue to every
  // operation: 2-3 % of the server's CPU per review.
  const net::any_io_executor executor = core.thread_count == 1
                                            ? net::any_io_executor(core.ioc.get_executor())
                                            : net::any_io_executor(net::make_strand(core.ioc));
  core.acceptor.async_accept(executor, std::move(accepted));
}

void schedule_certificate_poll(ServerCore& core) {
  core.cert_timer.expires_after(core.options.cert_poll_interval);
  core.cert_timer.async_wait([&core](error_code ec) {
    if (ec || core.stopping) return;
    core.certificates.poll();
    schedule_certificate_poll(core);
  });
}

// Opens, binds and listens; on failure returns the error and leaves the acceptor closed.
error_code listen_on(tcp::acceptor& acceptor, const tcp::endpoint& endpoint, bool dual_stack) {
  error_code ec;
  error_code ignored;
  acceptor.open(endpoint.protocol(), ec);
  if (ec) return ec;
  acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec && dual_stack) acceptor.set_option(net::ip::v6_only(false), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) acceptor.close(ignored);
  return ec;
}

error_code bind_listener(ServerCore& core) {
  const auto port = static_cast<std::uint16_t>(core.options.port);
  const std::string& host = core.options.listen_address;
  if (host.empty()) {
    // All interfaces: IPv6 dual-stack where the host has IPv6, else IPv4.
    error_code ec = listen_on(core.acceptor, {net::ip::address_v6::any(), port}, true);
    if (ec) ec = listen_on(core.acceptor, {net::ip::address_v4::any(), port}, false);
    return ec;
  }
  error_code ec;
  tcp::resolver resolver(core.ioc);
  const auto results = resolver.resolve(host, std::to_string(port), tcp::resolver::passive, ec);
  if (ec) return ec;
  ec = net::error::host_not_found;
  for (const auto& entry : results) {
    ec = listen_on(core.acceptor, entry.endpoint(), false);
    if (!ec) break;
  }
  return ec;
}

void run_worker(const std::shared_ptr<ServerCore>& core) {
  for (;;) {
    try {
      // Busy polling only with one worker: several spinning workers would take turns at the
      // io_context's lock instead of sleeping until the reactor hands them work.
      vc::server::run_busy_polling(core->ioc, core->thread_count == 1
                                                  ? core->options.busy_poll
                                                  : std::chrono::microseconds::zero());
      break;
    } catch (const std::exception& e) {
      // Handlers do not throw by design (the router catches admit failures); an exception here
      // is a bug, but one connection's bug must not end the worker.
      VC_LOG_ERROR("webhook worker caught an exception", kv("err", e.what()));
    }
  }
  std::lock_guard lock(core->mu);
  --core->running_workers;
  core->cv.notify_all();
}

void validate(const AdmissionServerOptions& o) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("admission server: " + what);
  };
  if (o.port < 0 || o.port > 65535) fail("port must be in 0..65535, got " + std::to_string(o.port));
  if (o.cert_file.empty() || o.key_file.empty()) fail("a certificate and a key file are required");
  if (o.threads < 0) fail("threads must be >= 0");
  if (o.body_limit == 0 || o.header_limit == 0 || o.max_connections == 0) {
    fail("body_limit, header_limit and max_connections must be positive");
  }
  using std::chrono::milliseconds;
  for (auto t : {o.header_timeout, o.body_timeout, o.write_timeout, o.idle_timeout}) {
    if (t <= milliseconds::zero()) fail("timeouts must be positive");
  }
  if (o.graceful_shutdown < milliseconds::zero() || o.cert_poll_interval < milliseconds::zero() ||
      o.stop_idle_drain < milliseconds::zero()) {
    fail("graceful_shutdown, stop_idle_drain and cert_poll_interval must not be negative");
  }
  if (!busy_poll_in_range(o.busy_poll)) {
    fail("busy_poll must be between " + busy_poll_range());
  }
}

}  // namespace

struct AdmissionServer::Core : ServerCore {
  using ServerCore::ServerCore;
};

std::string busy_poll_range() {
  return "0 and " +
         std::to_string(
             std::chrono::duration_cast<std::chrono::milliseconds>(kMaxBusyPoll).count()) +
         "ms";
}

int default_worker_threads() {
  // One thread per CPU the process may run on (its affinity mask, as Go sizes GOMAXPROCS), not
  // per CPU of the machine: a second thread on the same core only preempts the first in the
  // middle of a review, which made p99 latency at concurrency 8 four times the median.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

AdmissionServer::AdmissionServer(AdmissionServerOptions options, std::vector<Endpoint> endpoints,
                                 std::shared_ptr<const ClusterView> view,
                                 std::shared_ptr<const AdmissionOptions> admission_options) {
  validate(options);
  Router router(std::move(endpoints), std::move(view), std::move(admission_options));
  core_ = std::make_shared<Core>(std::move(options), std::move(router));
}

AdmissionServer::~AdmissionServer() {
  stop();
}

void AdmissionServer::start() {
  ServerCore& core = *core_;
  std::lock_guard lock(core.mu);
  if (core.state != ServerCore::State::Created) {
    throw std::logic_error("AdmissionServer::start called twice");
  }
  core.certificates.load();
  if (const error_code ec = bind_listener(core)) {
    throw std::runtime_error("cannot listen on \"" + core.options.listen_address + ":" +
                             std::to_string(core.options.port) + "\": " + ec.message());
  }
  core.port = core.acceptor.local_endpoint().port();
  core.state = ServerCore::State::Running;
  core.keep_running.emplace(core.ioc.get_executor());
  do_accept(core);
  if (core.options.cert_poll_interval.count() > 0) schedule_certificate_poll(core);
  const std::shared_ptr<ServerCore> shared = core_;
  for (int i = 0; i < core.thread_count; ++i) {
    ++core.running_workers;
    core.threads.emplace_back([shared] { run_worker(shared); });
  }
  VC_LOG_INFO("webhook server listening", kv("address", core.options.listen_address),
              kv("port", core.port.load()), kv("workers", core.thread_count));
}

bool AdmissionServer::stop() {
  ServerCore& core = *core_;
  std::vector<std::shared_ptr<Connection>> live;
  {
    std::lock_guard lock(core.mu);
    const bool running = core.state == ServerCore::State::Running;
    core.state = ServerCore::State::Stopped;
    if (!running) return true;
    core.stopping = true;
    for (auto& [ptr, weak] : core.connections) {
      if (auto s = weak.lock()) live.push_back(std::move(s));
    }
  }
  VC_LOG_INFO("webhook server stopping", kv("connections", live.size()),
              kv("grace_ms", core.options.graceful_shutdown.count()));
  net::post(core.accept_strand, [&core] {
    error_code ignored;  // closing a listening socket only fails if it is already closed
    core.acceptor.close(ignored);
    core.accept_retry.cancel();
    std::lock_guard lock(core.mu);
    core.listener_closed = true;
    core.cv.notify_all();
  });
  net::post(core.cert_timer.get_executor(), [&core] { core.cert_timer.cancel(); });
  for (auto& s : live) s->shutdown();
  live.clear();  // our references must not keep connections alive while we wait for them to end

  bool clean = true;
  {
    std::unique_lock lock(core.mu);
    clean = core.cv.wait_for(lock, core.options.graceful_shutdown,
                             [&] { return core.listener_closed && core.connections.empty(); });
    if (!clean) {
      VC_LOG_WARN("webhook server stop: closing connections still busy after the grace period",
                  kv("connections", core.connections.size()));
      for (auto& [ptr, weak] : core.connections) {
        if (auto s = weak.lock()) live.push_back(std::move(s));
      }
    }
  }
  for (auto& s : live) s->force_close();
  live.clear();
  core.keep_running.reset();
  core.ioc.stop();
  // Workers return as soon as their current handler does. One still inside an admit function is
  // left to finish on its own (it holds the core alive), so that stop() keeps its deadline.
  bool workers_done = false;
  {
    std::unique_lock lock(core.mu);
    workers_done =
        core.cv.wait_for(lock, kWorkerExitWait, [&] { return core.running_workers == 0; });
  }
  for (auto& t : core.threads) {
    if (workers_done) {
      t.join();
    } else {
      t.detach();
    }
  }
  core.threads.clear();
  if (!workers_done) {
    VC_LOG_ERROR("webhook server stop: a worker is still inside an admit function; leaving it");
  }
  VC_LOG_INFO("webhook server stopped", kv("port", core.port.load()), kv("clean", clean));
  return clean && workers_done;
}

std::uint16_t AdmissionServer::port() const {
  return core_->port;
}

bool AdmissionServer::reload_certificate() {
  return core_->certificates.poll();
}

std::uint64_t AdmissionServer::certificate_generation() const {
  return core_->certificates.generation();
}

}  // namespace vc::webhook::server
