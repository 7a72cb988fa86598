// The listener side of the HTTP server: binding, the accept loop with its connection limits
// (total and per peer, making room by closing idle connections), the TLS provider's poll, the I/O
// threads and graceful shutdown. Connections are in http_connection.cpp.
#include "common/server/http_server.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "common/log/log.h"
#include "common/server/address.h"
#include "common/server/busy_poll.h"
#include "common/server/http_connection.h"

namespace vc::server {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

// After the grace period: how long stop() waits for workers to return from their handlers.
constexpr auto kWorkerExitWait = std::chrono::seconds(1);

// State shared by the listener, every connection and the HttpServer handle. Workers hold a
// shared_ptr to it, so it outlives a worker left inside the service by stop().
struct ServerState : ConnectionHost {
  ServerState(HttpServerOptions o, std::shared_ptr<const HttpService> s)
      : opts(std::move(o)), svc(std::move(s)), address(join_host_port(opts.host, opts.port)) {}

  const HttpServerOptions& options() const override { return opts; }
  const HttpService& service() const override { return *svc; }
  bool is_stopping() const override { return stopping; }
  ByteBudget& budget() override { return request_bytes; }
  void forget(Connection* c) override {
    std::lock_guard lock(mu);
    const auto it = connections.find(c);
    if (it != connections.end()) {
      if (it->second.evicted) {
        --evicted;
      } else {
        count_out_of(it->second.peer);
      }
      connections.erase(it);
    }
    cv.notify_all();
  }

  // A connection of peer no longer counts against its cap. Called with mu held.
  void count_out_of(const std::string& peer) {
    const auto it = per_peer.find(peer);
    if (it != per_peer.end() && --it->second == 0) per_peer.erase(it);
  }

  const HttpServerOptions opts;
  const std::shared_ptr<const HttpService> svc;
  const std::string address;  // for messages: "host:port"

  ByteBudget request_bytes{opts.inflight_budget, opts.large_request};

  std::mutex mu;               // guards the members up to ioc
  std::condition_variable cv;  // connections, listener_closed or running_workers changed
  struct Entry {
    std::weak_ptr<Connection> connection;
    std::string peer;      // the client's address, for max_connections_per_peer
    bool evicted = false;  // closed to make room: no longer counted in its limits
  };
  // Invariants: `evicted` counts the entries marked evicted; per_peer[p] counts the entries of
  // peer p not evicted, and has no zero counts.
  std::unordered_map<Connection*, Entry> connections;
  std::unordered_map<std::string, std::size_t> per_peer;
  std::size_t evicted = 0;
  enum class State { Created, Running, Stopped } state = State::Created;
  bool listener_closed = false;
  int running_workers = 0;
  std::atomic<bool> stopping{false};
  std::atomic<std::uint16_t> port{0};

  // Declared after the members above: destroying the io_context destroys pending handlers, and
  // with them connections, which call forget().
  net::io_context ioc{opts.threads};
  net::strand<net::io_context::executor_type> accept_strand{net::make_strand(ioc)};
  tcp::acceptor acceptor{accept_strand};
  net::steady_timer accept_retry{accept_strand};
  net::steady_timer tls_timer{net::make_strand(ioc)};
  // Keeps the workers running while stop() still has handlers to post: a connection kept alive by
  // stop() alone has no pending operation, and without this the workers would return.
  std::optional<net::executor_work_guard<net::io_context::executor_type>> keep_running;
  std::vector<std::thread> threads;
};

void do_accept(ServerState& core);

// The client's address as text, IPv4 clients of a dual-stack listener without their "::ffff:"
// prefix; "" when the socket no longer knows it.
std::string peer_address(const tcp::socket& socket) {
  error_code ec;
  const tcp::endpoint peer = socket.remote_endpoint(ec);
  if (ec) return {};
  net::ip::address address = peer.address();
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    address = net::ip::make_address_v4(net::ip::v4_mapped, address.to_v6());
  }
  return address.to_string();
}

// Closes the connection (of `peer` when not null) that has been idle longest, to make room for a
// new one; false when none is idle. Called with core.mu held; `keep` takes the reference to the
// connection, for the caller to drop after unlocking (dropping the last one under mu would run
// the connection's destructor, which locks mu).
bool evict_oldest_idle(ServerState& core, const std::string* peer,
                       std::shared_ptr<Connection>& keep) {
  ServerState::Entry* oldest = nullptr;
  Connection* oldest_connection = nullptr;
  std::int64_t oldest_since = 0;
  for (auto& [connection, entry] : core.connections) {
    if (entry.evicted || (peer != nullptr && entry.peer != *peer)) continue;
    // The object is alive: its destructor erases it from the table under mu, which we hold.
    const std::int64_t since = connection->idle_since();
    if (since <= 0 || (oldest != nullptr && since >= oldest_since)) continue;
    oldest = &entry;
    oldest_connection = connection;
    oldest_since = since;
  }
  if (oldest == nullptr) return false;
  keep = oldest->connection.lock();  // null: already ending, it has no slot to give
  if (!keep || !oldest_connection->evict()) return false;
  oldest->evicted = true;
  ++core.evicted;
  core.count_out_of(oldest->peer);
  return true;
}

void on_accept(ServerState& core, error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || core.stopping) return;  // stop() closed the acceptor
  if (ec) {
    // Typically EMFILE: back off instead of spinning on the failing accept.
    VC_LOG_WARN(core.opts.name + " accept failed", kv("err", ec.message()));
    core.accept_retry.expires_after(std::chrono::milliseconds(100));
    core.accept_retry.async_wait([&core](error_code wait_ec) {
      if (!wait_ec && !core.stopping) do_accept(core);
    });
    return;
  }
  std::shared_ptr<Connection> connection;
  // Dropped after mu is released (evict_oldest_idle).
  std::shared_ptr<Connection> evicted_for_peer;
  std::shared_ptr<Connection> evicted_for_table;
  {
    std::string peer = peer_address(socket);
    std::lock_guard lock(core.mu);
    const std::size_t per_peer_cap = core.opts.max_connections_per_peer;
    const auto from_peer = core.per_peer.find(peer);
    const bool peer_full =
        per_peer_cap > 0 && from_peer != core.per_peer.end() && from_peer->second >= per_peer_cap;
    if (peer_full && !evict_oldest_idle(core, &peer, evicted_for_peer)) {
      core.svc->peer_connection_rejected(peer, per_peer_cap);
    } else if (core.connections.size() - core.evicted >= core.opts.max_connections &&
               !evict_oldest_idle(core, nullptr, evicted_for_table)) {
      core.svc->connection_rejected(core.opts.max_connections);
    } else {
      error_code ignored;  // Nagle only delays small responses; failing to disable it is harmless
      socket.set_option(tcp::no_delay(true), ignored);
      try {
        connection = make_connection(std::move(socket), core,
                                     core.opts.tls ? core.opts.tls->current() : nullptr);
        core.connections.emplace(connection.get(), ServerState::Entry{connection, peer});
        ++core.per_peer[peer];
      } catch (const std::exception& e) {
        // SSL_new failing (out of memory) costs this connection, not the accept loop.
        VC_LOG_ERROR(core.opts.name + " connection setup failed", kv("err", e.what()));
        connection.reset();
      }
    }
  }
  if (connection) connection->run();
  do_accept(core);
}

void do_accept(ServerState& core) {
  auto accepted = [&core](error_code ec, tcp::socket s) { on_accept(core, ec, std::move(s)); };
  // A connection's handlers must not run concurrently. With one thread that is already so (the
  // handlers stop() posts run on it too), and a strand would only add a lock and a queue to every
  // operation: 2-3 % of the admission server's CPU per review.
  const net::any_io_executor executor = core.opts.threads == 1
                                            ? net::any_io_executor(core.ioc.get_executor())
                                            : net::any_io_executor(net::make_strand(core.ioc));
  core.acceptor.async_accept(executor, std::move(accepted));
}

void schedule_tls_poll(ServerState& core) {
  core.tls_timer.expires_after(core.opts.tls_poll_interval);
  core.tls_timer.async_wait([&core](error_code ec) {
    if (ec || core.stopping) return;
    core.opts.tls->poll();
    schedule_tls_poll(core);
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

error_code bind_listener(ServerState& core) {
  const std::string& host = core.opts.host;
  const std::uint16_t port = core.opts.port;
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

void run_worker(const std::shared_ptr<ServerState>& core) {
  for (;;) {
    try {
      // Busy polling only with one worker: several spinning workers would take turns at the
      // io_context's lock instead of sleeping until the reactor hands them work.
      run_busy_polling(core->ioc, core->opts.threads == 1 ? core->opts.busy_poll
                                                          : std::chrono::microseconds::zero());
      break;
    } catch (const std::exception& e) {
      // Handlers do not throw by design (services answer their own failures); an exception here
      // is a bug, but one connection's bug must not end the worker.
      VC_LOG_ERROR(core->opts.name + " worker caught an exception", kv("err", e.what()));
    }
  }
  std::lock_guard lock(core->mu);
  --core->running_workers;
  core->cv.notify_all();
}

}  // namespace

struct HttpServer::Core : ServerState {
  using ServerState::ServerState;
};

HttpServer::HttpServer(HttpServerOptions options, std::shared_ptr<const HttpService> service) {
  if (options.threads < 1) throw std::invalid_argument("server threads must be >= 1");
  if (!service) throw std::invalid_argument("http server: service is null");
  core_ = std::make_shared<Core>(std::move(options), std::move(service));
}

HttpServer::~HttpServer() {
  stop();
}

void HttpServer::start() {
  ServerState& core = *core_;
  std::lock_guard lock(core.mu);
  if (core.state != ServerState::State::Created) {
    throw std::logic_error(core.opts.name + " server: start called twice or after stop");
  }
  if (core.opts.tls) core.opts.tls->load();
  if (const error_code ec = bind_listener(core)) {
    throw std::runtime_error("cannot listen on \"" + core.address + "\": " + ec.message());
  }
  core.port = core.acceptor.local_endpoint().port();
  core.state = ServerState::State::Running;
  core.keep_running.emplace(core.ioc.get_executor());
  do_accept(core);
  if (core.opts.tls && core.opts.tls_poll_interval.count() > 0) schedule_tls_poll(core);
  const std::shared_ptr<ServerState> shared = core_;
  for (int i = 0; i < core.opts.threads; ++i) {
    ++core.running_workers;
    core.threads.emplace_back([shared] { run_worker(shared); });
  }
  VC_LOG_INFO(core.opts.name + " server listening", kv("address", core.address),
              kv("port", core.port.load()), kv("workers", core.opts.threads));
}

bool HttpServer::stop() {
  ServerState& core = *core_;
  std::vector<std::shared_ptr<Connection>> live;
  {
    std::lock_guard lock(core.mu);
    const bool running = core.state == ServerState::State::Running;
    core.state = ServerState::State::Stopped;
    if (!running) return true;
    core.stopping = true;
    for (auto& [ptr, entry] : core.connections) {
      if (auto s = entry.connection.lock()) live.push_back(std::move(s));
    }
  }
  VC_LOG_INFO(core.opts.name + " server stopping", kv("connections", live.size()),
              kv("grace_ms", core.opts.graceful_shutdown.count()));
  net::post(core.accept_strand, [&core] {
    error_code ignored;  // closing a listening socket only fails if it is already closed
    core.acceptor.close(ignored);
    core.accept_retry.cancel();
    std::lock_guard lock(core.mu);
    core.listener_closed = true;
    core.cv.notify_all();
  });
  net::post(core.tls_timer.get_executor(), [&core] { core.tls_timer.cancel(); });
  for (auto& s : live) s->shutdown();
  live.clear();  // our references must not keep connections alive while we wait for them to end

  bool clean = true;
  {
    std::unique_lock lock(core.mu);
    clean = core.cv.wait_for(lock, core.opts.graceful_shutdown,
                             [&] { return core.listener_closed && core.connections.empty(); });
    if (!clean) {
      VC_LOG_WARN(
          core.opts.name + " server stop: closing connections still busy after the grace period",
          kv("connections", core.connections.size()));
      for (auto& [ptr, entry] : core.connections) {
        if (auto s = entry.connection.lock()) live.push_back(std::move(s));
      }
    }
  }
  for (auto& s : live) s->force_close();
  live.clear();
  core.keep_running.reset();
  core.ioc.stop();
  // Workers return as soon as their current handler does. One still inside the service is left
  // to finish on its own (it holds the core alive), so that stop() keeps its deadline.
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
    VC_LOG_ERROR(core.opts.name + " server stop: a worker is still inside a handler; leaving it");
  }
  VC_LOG_INFO(core.opts.name + " server stopped", kv("address", core.address), kv("clean", clean));
  return clean && workers_done;
}

std::uint16_t HttpServer::port() const {
  return core_->port;
}

std::size_t HttpServer::inflight_bytes() const {
  return core_->request_bytes.in_use();
}

}  // namespace vc::server
