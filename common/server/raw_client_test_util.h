#pragma once
// Test-only: a deliberately dumb HTTP/1.1 client over a raw socket, so that tests of the HTTP
// server core control every byte sent (and from which local address).
//
// Thread-safety: one thread per client.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vc::server::testing {

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;

  std::string header(const std::string& lower_case_name) const {
    const auto it = headers.find(lower_case_name);
    return it == headers.end() ? "" : it->second;
  }
};

class RawClient {
 public:
  // source: the local IPv4 address to connect from (any of 127.0.0.0/8 is this host), "" = any.
  explicit RawClient(std::uint16_t port, const char* source = "") {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    timeval tv{5, 0};  // no test waits longer than this for a byte
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (*source != '\0') {
      sockaddr_in local{};
      local.sin_family = AF_INET;
      ::inet_pton(AF_INET, source, &local.sin_addr);
      if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
        throw std::runtime_error(std::string("cannot bind the client to ") + source);
      }
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~RawClient() { ::close(fd_); }

  bool connected() const { return connected_; }

  void send(std::string_view data) {
    while (!data.empty()) {
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  // One response; nullopt when the connection ended or timed out first.
  std::optional<HttpReply> read_response(bool head = false) {
    std::size_t end;
    while ((end = buf_.find("\r\n\r\n")) == std::string::npos) {
      if (!fill()) return std::nullopt;
    }
    HttpReply reply;
    const std::string head_text = buf_.substr(0, end);
    buf_.erase(0, end + 4);
    reply.status = std::stoi(head_text.substr(9, 3));
    std::size_t pos = head_text.find("\r\n");
    while (pos != std::string::npos) {
      const std::size_t next = head_text.find("\r\n", pos + 2);
      const std::string line = head_text.substr(pos + 2, next - pos - 2);
      const std::size_t colon = line.find(':');
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      reply.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
      pos = next;
    }
    const std::size_t length = head ? 0 : std::stoul(reply.headers["content-length"]);
    while (buf_.size() < length) {
      if (!fill()) return std::nullopt;
    }
    reply.body = buf_.substr(0, length);
    buf_.erase(0, length);
    return reply;
  }

  std::optional<HttpReply> get(const std::string& target) {
    send("GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n");
    return read_response();
  }

  // True when the server ends the connection (EOF or reset) within the socket's 5 s timeout.
  bool closed_by_server() {
    char c;
    const ssize_t n = ::recv(fd_, &c, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

 private:
  bool fill() {
    char tmp[4096];
    const ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
    if (n <= 0) return false;
    buf_.append(tmp, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  std::string buf_;
};

}  // namespace vc::server::testing
