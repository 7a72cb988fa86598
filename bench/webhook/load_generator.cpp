// The only translation unit of the load generator that includes Beast.
#include "bench/webhook/load_generator.h"

#include <sys/resource.h>

#include <array>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "bench/webhook/response_check.h"
#include "common/server/busy_poll.h"

namespace vc::bench {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// A connection that failed waits this long before it reconnects, so a server that is down is
// not hammered with connects that would only inflate the error count.
constexpr std::chrono::milliseconds kReconnectPause{100};
// Answers are small; anything this large is a broken server.
constexpr std::uint64_t kBodyLimit = 64 * 1024 * 1024;

struct Window {
  Clock::time_point start;
  Clock::time_point end;
};

// Everything one client thread owns: its io_context and its share of the statistics. Only that
// thread touches it until run_load() joins the thread.
struct Worker {
  Worker(const LoadOptions& o, ssl::context& t, tcp::endpoint e, Window w, std::uint32_t run)
      : ioc(1), options(o), tls(t), endpoint(e), window(w), run_id(run) {
    stats.per_target.resize(options.targets.size());
  }

  void record_success(std::size_t target, Clock::time_point sent, Clock::time_point done) {
    if (done < window.start) {
      ++stats.warmup_requests;
    } else if (done < window.end) {
      ++stats.requests;
      const auto latency = std::chrono::duration_cast<std::chrono::nanoseconds>(done - sent);
      stats.latency.record(latency);
      ++stats.per_target[target].requests;
      stats.per_target[target].latency.record(latency);
    }
    // Answers after the window closed are neither requests nor latencies of the window.
  }

  // target is npos for errors that belong to no request (connect, handshake).
  void record_error(std::size_t target, Clock::time_point at, std::string what) {
    if (at < window.start) {
      ++stats.warmup_errors;
    } else {
      ++stats.errors;
      if (target < stats.per_target.size()) ++stats.per_target[target].errors;
    }
    if (stats.error_samples.size() < options.max_error_samples) {
      stats.error_samples.push_back(std::move(what));
    }
  }

  asio::io_context ioc;
  const LoadOptions& options;
  ssl::context& tls;
  const tcp::endpoint endpoint;
  const Window window;
  const std::uint32_t run_id;
  LoadResult stats;
};

// One kept-alive TLS connection running the closed loop
//   connect -> on_connect -> on_handshake -> send -> on_write -> on_read -> send -> ...
// and, at the end of the window, finish -> (TLS close_notify) -> close.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Worker& worker, std::uint32_t id)
      : w_(worker), id_(id), next_target_(id % worker.options.targets.size()), pause_(worker.ioc) {
    const std::string host_header = w_.options.host + ":" + std::to_string(w_.options.port);
    // One prepared request per target: only the uid inside the body changes between sends.
    for (const LoadTarget& t : w_.options.targets) {
      http::request<http::string_body> req{http::verb::post, t.path, 11};
      req.set(http::field::host, host_header);
      req.set(http::field::user_agent, "vc-webhook-load");
      req.set(http::field::content_type, "application/json");
      req.set(http::field::accept, "application/json, */*");
      req.keep_alive(true);
      req.body() = t.review.body();
      req.prepare_payload();
      requests_.push_back(std::move(req));
    }
  }

  void connect() {
    if (Clock::now() >= w_.window.end) return;
    stream_.emplace(w_.ioc, w_.tls);
    const std::string& host = w_.options.host;
    boost::system::error_code addr_ec;
    asio::ip::make_address(host, addr_ec);
    // SNI carries names only, never an address literal.
    if (addr_ec && !SSL_set_tlsext_host_name(stream_->native_handle(), host.c_str())) {
      return fail(
          std::string_view("tls setup"),
          beast::error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()));
    }
    stream_->set_verify_mode(ssl::verify_peer);
    stream_->set_verify_callback(ssl::host_name_verification(host));
    beast::get_lowest_layer(*stream_).expires_after(w_.options.request_timeout);
    beast::get_lowest_layer(*stream_).async_connect(
        w_.endpoint, [self = shared_from_this()](beast::error_code ec) { self->on_connect(ec); });
  }

 private:
  void on_connect(beast::error_code ec) {
    if (ec) return fail("connect", ec);
    beast::get_lowest_layer(*stream_).socket().set_option(tcp::no_delay(true), ec);
    stream_->async_handshake(
        ssl::stream_base::client,
        [self = shared_from_this()](beast::error_code ec) { self->on_handshake(ec); });
  }

  void on_handshake(beast::error_code ec) {
    if (ec) return fail("TLS handshake", ec);
    ++w_.stats.connections_opened;
    send();
  }

  void send() {
    if (Clock::now() >= w_.window.end) return finish();
    current_ = next_target_;
    next_target_ = (next_target_ + 1) % requests_.size();
    format_uid(w_.run_id, id_, sequence_++, uid_);
    auto& req = requests_[current_];
    w_.options.targets[current_].review.write_uid(req.body(), uid_);
    beast::get_lowest_layer(*stream_).expires_after(w_.options.request_timeout);
    sent_at_ = Clock::now();
    http::async_write(
        *stream_, req,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    if (ec) return fail("write", ec);
    parser_.emplace();
    parser_->body_limit(kBodyLimit);
    http::async_read(
        *stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    const auto done = Clock::now();
    if (ec) return fail("read", ec);
    const auto& res = parser_->get();
    const LoadTarget& target = w_.options.targets[current_];
    if (auto problem = check_review_response(res.result_int(), res.body(),
                                             std::string_view(uid_.data(), uid_.size()),
                                             target.expect_allowed)) {
      w_.record_error(current_, done,
                      "POST " + target.path + " (" + target.name + "): " + *problem);
    } else {
      w_.record_success(current_, sent_at_, done);
    }
    if (!res.keep_alive()) {
      // The server asked to close; the next request goes on a new connection.
      close();
      return connect();
    }
    send();
  }

  // The window is over: say goodbye properly (close_notify) so the server does not log a
  // truncated stream, but do not wait long for its answer.
  void finish() {
    beast::get_lowest_layer(*stream_).expires_after(std::chrono::seconds(1));
    stream_->async_shutdown([self = shared_from_this()](beast::error_code) {
      // Whatever the peer did (close_notify back, plain close, nothing), we are done.
      self->close();
    });
  }

  void fail(std::string_view step, beast::error_code ec) {
    const auto now = Clock::now();
    const std::size_t target = (step == "write" || step == "read") ? current_ : SIZE_MAX;
    w_.record_error(
        target, now,
        "connection " + std::to_string(id_) + ": " + std::string(step) + ": " + ec.message());
    close();
    if (now >= w_.window.end) return;
    pause_.expires_after(kReconnectPause);
    pause_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
      // The timer is never cancelled; an error here would mean the io_context is going away.
      if (!wait_ec) self->connect();
    });
  }

  void close() {
    if (!stream_) return;
    beast::error_code ignored;  // closing a socket that already failed may fail again: harmless
    beast::get_lowest_layer(*stream_).socket().close(ignored);
    stream_.reset();
    buffer_.clear();
  }

  Worker& w_;
  const std::uint32_t id_;
  std::uint64_t sequence_ = 0;
  std::size_t next_target_;
  std::size_t current_ = 0;
  std::optional<beast::ssl_stream<beast::tcp_stream>> stream_;
  beast::flat_buffer buffer_;
  std::vector<http::request<http::string_body>> requests_;
  std::optional<http::response_parser<http::string_body>> parser_;
  std::array<char, kUidLength> uid_{};
  Clock::time_point sent_at_;
  asio::steady_timer pause_;
};

double process_cpu_seconds() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  auto secs = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
  };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

tcp::endpoint resolve(const std::string& host, std::uint16_t port) {
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (!ec) return tcp::endpoint(address, port);
  asio::io_context ioc;
  tcp::resolver resolver(ioc);
  const auto results = resolver.resolve(host, std::to_string(port), ec);
  if (ec || results.empty()) {
    throw std::runtime_error("cannot resolve " + host + ": " + ec.message());
  }
  return results.begin()->endpoint();
}

void validate(const LoadOptions& o) {
  if (o.targets.empty()) throw std::invalid_argument("no review bodies given");
  if (o.concurrency < 1) throw std::invalid_argument("concurrency must be at least 1");
  if (o.threads < 1) throw std::invalid_argument("threads must be at least 1");
  if (o.port == 0) throw std::invalid_argument("port must be set");
  if (o.duration <= std::chrono::nanoseconds::zero()) {
    throw std::invalid_argument("duration must be positive");
  }
  if (o.warmup < std::chrono::nanoseconds::zero()) {
    throw std::invalid_argument("warmup must not be negative");
  }
  if (o.busy_poll < std::chrono::microseconds::zero()) {
    throw std::invalid_argument("busy_poll must not be negative");
  }
}

}  // namespace

LoadResult run_load(const LoadOptions& options) {
  validate(options);
  ssl::context tls(ssl::context::tls_client);
  try {
    tls.load_verify_file(options.ca_file);
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot load CA file '" + options.ca_file + "': " + e.what());
  }
  const tcp::endpoint endpoint = resolve(options.host, options.port);
  const auto run_id = static_cast<std::uint32_t>(std::random_device{}());

  const auto start = Clock::now();
  const Window window{start + options.warmup, start + options.warmup + options.duration};
  const int threads = std::min(options.threads, options.concurrency);
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < threads; ++i) {
    workers.push_back(std::make_unique<Worker>(options, tls, endpoint, window, run_id));
  }
  for (int i = 0; i < options.concurrency; ++i) {
    auto& worker = *workers[static_cast<std::size_t>(i % threads)];
    std::make_shared<Connection>(worker, static_cast<std::uint32_t>(i))->connect();
  }

  std::vector<std::exception_ptr> failures(workers.size());
  std::vector<std::thread> pool;
  for (std::size_t i = 0; i < workers.size(); ++i) {
    pool.emplace_back([&, i] {
      try {
        vc::server::run_busy_polling(workers[i]->ioc, options.busy_poll);
      } catch (...) {
        failures[i] = std::current_exception();  // a bug in a handler; rethrown after the join
      }
    });
  }

  std::this_thread::sleep_until(window.start);
  const double cpu_start = process_cpu_seconds();
  if (options.on_window_start) options.on_window_start();
  std::this_thread::sleep_until(window.end);
  const double cpu_end = process_cpu_seconds();
  if (options.on_window_end) options.on_window_end();
  for (auto& t : pool) t.join();
  for (auto& f : failures) {
    if (f) std::rethrow_exception(f);
  }

  LoadResult result;
  result.window = window.end - window.start;
  result.client_cpu_seconds = cpu_end - cpu_start;
  result.per_target.resize(options.targets.size());
  for (const auto& w : workers) {
    const LoadResult& s = w->stats;
    result.requests += s.requests;
    result.errors += s.errors;
    result.warmup_requests += s.warmup_requests;
    result.warmup_errors += s.warmup_errors;
    result.connections_opened += s.connections_opened;
    result.latency.merge(s.latency);
    for (std::size_t t = 0; t < s.per_target.size(); ++t) {
      result.per_target[t].requests += s.per_target[t].requests;
      result.per_target[t].errors += s.per_target[t].errors;
      result.per_target[t].latency.merge(s.per_target[t].latency);
    }
    for (const auto& e : s.error_samples) {
      if (result.error_samples.size() < options.max_error_samples)
        result.error_samples.push_back(e);
    }
  }
  return result;
}

}  // namespace vc::bench
