// The network half of JobFlow probes against listeners in this process on 127.0.0.1: a TCP
// connect to an open and a closed port, HTTP status ranges, the request line and header sent,
// a server that never answers (bounded by the timeout), and bad input.
#include "controllers/jobflow/probe_net.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include <gtest/gtest.h>

namespace vc::controllers::jobflow {
namespace {

using std::chrono::milliseconds;

// A listening socket on 127.0.0.1 with a port the kernel chose.
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(fd, 8), 0);
    socklen_t len = sizeof(addr);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~Listener() { close(); }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// Serves one connection: reads the request head into `request`, then writes `response` (none
// when empty: the server stays silent until the client gives up).
class OneShotServer {
 public:
  explicit OneShotServer(std::string response) : response_(std::move(response)) {
    thread_ = std::thread([this] {
      const int c = ::accept(listener_.fd, nullptr, nullptr);
      if (c < 0) return;
      char buf[1024];
      while (request_.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::recv(c, buf, sizeof(buf), 0);
        if (n <= 0) break;
        request_.append(buf, static_cast<size_t>(n));
      }
      if (!response_.empty()) {
        ::send(c, response_.data(), response_.size(), MSG_NOSIGNAL);
      } else {
        char b;
        ::recv(c, &b, 1, 0);  // until the client closes
      }
      ::close(c);
    });
  }
  ~OneShotServer() { join(); }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return listener_.port; }
  const std::string& request() {
    join();
    return request_;
  }

 private:
  Listener listener_;
  std::string response_;
  std::string request_;
  std::thread thread_;
};

TEST(JobFlowProbeNet, TcpOpensAListeningPortAndNotAClosedOne) {
  Listener open;
  EXPECT_EQ(tcp_probe("127.0.0.1", open.port, milliseconds(1000)), "");
  const int port = open.port;
  open.close();
  const std::string error = tcp_probe("127.0.0.1", port, milliseconds(1000));
  EXPECT_EQ(error, "127.0.0.1:" + std::to_string(port) + ": connect: Connection refused");
}

TEST(JobFlowProbeNet, BadInputIsAnErrorNamingIt) {
  EXPECT_EQ(tcp_probe("127.0.0.1", 0, milliseconds(100)), "127.0.0.1:0: port 0 is out of range");
  EXPECT_EQ(tcp_probe("127.0.0.1", 70000, milliseconds(100)),
            "127.0.0.1:70000: port 70000 is out of range");
  EXPECT_EQ(tcp_probe("pod-a", 80, milliseconds(100)),
            "pod-a:80: pod IP pod-a is not an IP address");
  EXPECT_EQ(http_probe("127.0.0.1", 80, "/a\r\nX: y", {}, milliseconds(100)),
            "path or httpHeader holds a line break");
  EXPECT_EQ(http_probe("127.0.0.1", 80, "/", {.name = "X", .value = "1\n2"}, milliseconds(100)),
            "path or httpHeader holds a line break");
}

TEST(JobFlowProbeNet, HttpPassesOn2xxAnd3xxAndSendsTheHeader) {
  OneShotServer ok("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(http_probe("127.0.0.1", ok.port(), "/ready", {.name = "X-Probe", .value = "yes"},
                       milliseconds(2000)),
            "");
  const std::string req = ok.request();
  EXPECT_EQ(req.rfind("GET /ready HTTP/1.1\r\n", 0), 0u) << req;
  EXPECT_NE(req.find("\r\nHost: 127.0.0.1:" + std::to_string(ok.port()) + "\r\n"),
            std::string::npos);
  EXPECT_NE(req.find("\r\nX-Probe: yes\r\n"), std::string::npos) << req;

  OneShotServer moved("HTTP/1.0 302 Found\r\n\r\n");
  EXPECT_EQ(http_probe("127.0.0.1", moved.port(), "", {}, milliseconds(2000)), "");
  EXPECT_EQ(moved.request().rfind("GET / HTTP/1.1\r\n", 0), 0u);  // an empty path is "/"
}

TEST(JobFlowProbeNet, HttpFailsOnOtherStatusesAndNonHttp) {
  OneShotServer unavailable("HTTP/1.1 503 Service Unavailable\r\n\r\n");
  EXPECT_EQ(http_probe("127.0.0.1", unavailable.port(), "health", {}, milliseconds(2000)),
            "127.0.0.1:" + std::to_string(unavailable.port()) + ": HTTP status 503");
  EXPECT_EQ(unavailable.request().rfind("GET /health HTTP/1.1\r\n", 0), 0u);
  OneShotServer garbage("SSH-2.0-OpenSSH\r\n");
  EXPECT_EQ(http_probe("127.0.0.1", garbage.port(), "/", {}, milliseconds(2000)),
            "127.0.0.1:" + std::to_string(garbage.port()) + ": not an HTTP response");
}

TEST(JobFlowProbeNet, ASilentServerCostsAtMostTheTimeout) {
  OneShotServer silent("");
  const auto start = std::chrono::steady_clock::now();
  const std::string error = http_probe("127.0.0.1", silent.port(), "/", {}, milliseconds(200));
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(error, "127.0.0.1:" + std::to_string(silent.port()) + ": read timed out");
  EXPECT_LT(took, milliseconds(1500));
}

}  // namespace
}  // namespace vc::controllers::jobflow
