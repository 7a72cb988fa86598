#include "controllers/jobflow/probe_net.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace vc::controllers::jobflow {
namespace {

using Clock = std::chrono::steady_clock;

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits for `events` on fd until the deadline: "" or why not.
std::string wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{.fd = fd, .events = events, .revents = 0};
    const int n = ::poll(&p, 1, remaining_ms(deadline));
    if (n > 0) return "";
    if (n == 0) return "timed out";
    if (errno != EINTR) return std::string("poll: ") + std::strerror(errno);
  }
}

// A connected non-blocking socket in fd.fd, or why not.
std::string connect_to(Fd& fd, const std::string& ip, std::int64_t port,
                       Clock::time_point deadline) {
  if (port < 1 || port > 65535) return "port " + std::to_string(port) + " is out of range";
  sockaddr_storage addr{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&addr);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&addr);
  if (::inet_pton(AF_INET, ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<std::uint16_t>(port));
    len = sizeof(sockaddr_in);
  } else if (::inet_pton(AF_INET6, ip.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<std::uint16_t>(port));
    len = sizeof(sockaddr_in6);
  } else {
    return "pod IP " + ip + " is not an IP address";
  }
  fd.fd = ::socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd.fd < 0) return std::string("socket: ") + std::strerror(errno);
  if (::connect(fd.fd, reinterpret_cast<sockaddr*>(&addr), len) == 0) return "";
  if (errno != EINPROGRESS) return std::string("connect: ") + std::strerror(errno);
  if (std::string w = wait_for(fd.fd, POLLOUT, deadline); !w.empty()) return "connect " + w;
  int err = 0;
  socklen_t err_len = sizeof(err);
  ::getsockopt(fd.fd, SOL_SOCKET, SO_ERROR, &err, &err_len);
  return err == 0 ? "" : std::string("connect: ") + std::strerror(err);
}

std::string host_port(const std::string& ip, std::int64_t port) {
  const bool v6 = ip.find(':') != std::string::npos;
  return (v6 ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}

bool has_line_break(const std::string& s) {
  return s.find_first_of("\r\n") != std::string::npos;
}

}  // namespace

std::string tcp_probe(const std::string& ip, std::int64_t port, std::chrono::milliseconds timeout) {
  Fd fd;
  std::string error = connect_to(fd, ip, port, Clock::now() + timeout);
  return error.empty() ? "" : host_port(ip, port) + ": " + error;
}

std::string http_probe(const std::string& ip, std::int64_t port, const std::string& path,
                       const volcano::HttpHeader& header, std::chrono::milliseconds timeout) {
  if (has_line_break(path) || has_line_break(header.name) || has_line_break(header.value)) {
    return "path or httpHeader holds a line break";
  }
  const auto deadline = Clock::now() + timeout;
  const std::string where = host_port(ip, port);
  Fd fd;
  if (std::string error = connect_to(fd, ip, port, deadline); !error.empty()) {
    return where + ": " + error;
  }
  std::string request = "GET " + (path.empty() || path[0] != '/' ? "/" + path : path) +
                        " HTTP/1.1\r\nHost: " + where +
                        "\r\nUser-Agent: vc-cpp-jobflow-probe\r\nAccept: */*\r\n";
  if (!header.name.empty()) request += header.name + ": " + header.value + "\r\n";
  request += "Connection: close\r\n\r\n";
  for (std::size_t sent = 0; sent < request.size();) {
    const ssize_t n = ::send(fd.fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (std::string w = wait_for(fd.fd, POLLOUT, deadline); !w.empty())
        return where + ": send " + w;
    } else {
      return where + ": send: " + std::strerror(errno);
    }
  }
  // Only the status line matters: "HTTP/1.x NNN ...".
  std::string got;
  while (got.find("\r\n") == std::string::npos && got.size() < 1024) {
    char buf[512];
    const ssize_t n = ::recv(fd.fd, buf, sizeof(buf), 0);
    if (n > 0) {
      got.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno == EAGAIN || errno == EINTR) {
      if (std::string w = wait_for(fd.fd, POLLIN, deadline); !w.empty())
        return where + ": read " + w;
    } else {
      return where + ": read: " + std::strerror(errno);
    }
  }
  const std::string line = got.substr(0, got.find("\r\n"));
  if (line.size() < 12 || line.compare(0, 5, "HTTP/") != 0 || line[8] != ' ') {
    return where + ": not an HTTP response";
  }
  int code = 0;
  for (std::size_t i = 9; i < 12; ++i) {
    if (line[i] < '0' || line[i] > '9') return where + ": not an HTTP response";
    code = code * 10 + (line[i] - '0');
  }
  if (code < 200 || code >= 400) return where + ": HTTP status " + std::to_string(code);
  return "";
}

}  // namespace vc::controllers::jobflow
