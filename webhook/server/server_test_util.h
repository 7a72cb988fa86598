#pragma once
// Test-only helpers for the webhook server tests (header-only so that no test code lands in the
// library): metric lookup, waiting on a condition with a deadline, issuing certificates from a
// test CA, and a blocking TLS client on raw OpenSSL whose protocol version and cipher list a test
// can pin down.
//
// Thread-safety: a TlsClient belongs to one thread; the free functions may be called from any.

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "common/api/expected.h"
#include "common/metrics/registry.h"
#include "common/testing/eventually.h"
#include "common/testing/metrics.h"
#include "common/testing/pki.h"
#include "common/testing/temp_dir.h"
#include "webhook/server/admission_server.h"

namespace vc::webhook::server::test {

using vc::testing::metric_value;

// Polls pred until it holds or the deadline passes; true when it held.
inline bool wait_until(const std::function<bool()>& pred,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  return vc::testing::eventually(pred, timeout);
}

inline std::string openssl_errors() {
  std::string out;
  while (const unsigned long code = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    out += out.empty() ? "" : "; ";
    out += buf;
  }
  return out;
}

// A new server certificate (SAN IP:127.0.0.1, a fresh random serial) signed by ca, with an EC
// P-256 key or, with rsa, an RSA-2048 key.
inline vc::testing::CertKey issue_server_cert(const vc::testing::CertKey& ca, bool rsa = false) {
  const auto check = [](bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("issue_server_cert: ") + what);
  };
  std::unique_ptr<BIO, decltype(&BIO_free)> ca_bio(
      BIO_new_mem_buf(ca.cert_pem.data(), static_cast<int>(ca.cert_pem.size())), BIO_free);
  std::unique_ptr<X509, decltype(&X509_free)> ca_cert(
      PEM_read_bio_X509(ca_bio.get(), nullptr, nullptr, nullptr), X509_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> key_bio(
      BIO_new_mem_buf(ca.key_pem.data(), static_cast<int>(ca.key_pem.size())), BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> ca_key(
      PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr), EVP_PKEY_free);
  check(ca_cert && ca_key, "reading the CA");

  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      rsa ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256"), EVP_PKEY_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
  check(key && cert, "key generation");
  X509_set_version(cert.get(), 2);
  unsigned char serial[8];
  check(RAND_bytes(serial, sizeof serial) == 1, "RAND_bytes");
  serial[0] &= 0x7f;  // positive
  std::unique_ptr<BIGNUM, decltype(&BN_free)> bn(BN_bin2bn(serial, sizeof serial, nullptr),
                                                 BN_free);
  BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert.get()));
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME_add_entry_by_txt(X509_get_subject_name(cert.get()), "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get()));
  for (auto [nid, value] : {std::pair{NID_basic_constraints, "critical,CA:FALSE"},
                            std::pair{NID_ext_key_usage, "serverAuth"},
                            std::pair{NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost"}}) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, ca_cert.get(), cert.get(), nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    check(ext != nullptr, "extension");
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  check(X509_sign(cert.get(), ca_key.get(), EVP_sha256()) > 0, "X509_sign");

  const auto pem = [](auto write) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    write(bio.get());
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
  };
  return {pem([&](BIO* b) { PEM_write_bio_X509(b, cert.get()); }), pem([&](BIO* b) {
            PEM_write_bio_PrivateKey(b, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
          })};
}

// The serial of a PEM certificate (or of a peer certificate) in upper-case hex.
inline std::string serial_of(X509* cert) {
  std::unique_ptr<BIGNUM, decltype(&BN_free)> bn(
      ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), nullptr), BN_free);
  char* hex = BN_bn2hex(bn.get());
  std::string out(hex);
  OPENSSL_free(hex);
  return out;
}

inline std::string serial_of(const std::string& cert_pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size())), BIO_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert(
      PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), X509_free);
  return serial_of(cert.get());
}

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct TlsClientOptions {
  std::string ca_pem{};         // trusted CA; the peer must be 127.0.0.1
  int min_version = 0;          // TLS1_2_VERSION, ...; 0 = OpenSSL's default
  int max_version = 0;          // 0 = highest
  std::string tls12_ciphers{};  // "" = OpenSSL's default
  std::string tls13_suites{};   // "" = OpenSSL's default (AES-256-GCM first)
  std::chrono::seconds io_timeout{10};
};

class TlsClient {
 public:
  // Connects to 127.0.0.1:port and completes the handshake; the error names the failing step.
  static api::Expected<std::unique_ptr<TlsClient>> connect(std::uint16_t port,
                                                           const TlsClientOptions& o) {
    std::signal(SIGPIPE, SIG_IGN);  // a write to a closed connection must fail, not kill
    std::unique_ptr<TlsClient> c(new TlsClient);
    c->fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{static_cast<time_t>(o.io_timeout.count()), 0};
    ::setsockopt(c->fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(c->fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int one = 1;
    ::setsockopt(c->fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(c->fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      return api::Unexpected{"connect failed"};
    }
    c->ctx_ = SSL_CTX_new(TLS_client_method());
    if (o.min_version) SSL_CTX_set_min_proto_version(c->ctx_, o.min_version);
    if (o.max_version) SSL_CTX_set_max_proto_version(c->ctx_, o.max_version);
    if (!o.tls12_ciphers.empty() &&
        SSL_CTX_set_cipher_list(c->ctx_, o.tls12_ciphers.c_str()) != 1) {
      return api::Unexpected{"cipher list: " + openssl_errors()};
    }
    if (!o.tls13_suites.empty() && SSL_CTX_set_ciphersuites(c->ctx_, o.tls13_suites.c_str()) != 1) {
      return api::Unexpected{"TLS 1.3 suites: " + openssl_errors()};
    }
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(o.ca_pem.data(), static_cast<int>(o.ca_pem.size())), BIO_free);
    X509* ca = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
    X509_STORE_add_cert(SSL_CTX_get_cert_store(c->ctx_), ca);
    X509_free(ca);
    SSL_CTX_set_verify(c->ctx_, SSL_VERIFY_PEER, nullptr);
    c->ssl_ = SSL_new(c->ctx_);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl_), "127.0.0.1");
    SSL_set_fd(c->ssl_, c->fd_);
    if (SSL_connect(c->ssl_) != 1) return api::Unexpected{"handshake: " + openssl_errors()};
    return c;
  }

  ~TlsClient() {
    if (ssl_) SSL_free(ssl_);
    if (ctx_) SSL_CTX_free(ctx_);
    if (fd_ >= 0) ::close(fd_);
  }
  TlsClient(const TlsClient&) = delete;
  TlsClient& operator=(const TlsClient&) = delete;

  std::string version() const { return SSL_get_version(ssl_); }
  std::string cipher() const { return SSL_get_cipher_name(ssl_); }
  std::string peer_serial() const {
    X509* cert = SSL_get1_peer_certificate(ssl_);
    std::string out = cert ? serial_of(cert) : "";
    X509_free(cert);
    return out;
  }

  bool write(std::string_view data) {
    while (!data.empty()) {
      const int n = SSL_write(ssl_, data.data(), static_cast<int>(data.size()));
      if (n <= 0) return false;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // A request with Content-Length; extra_headers are "Name: value\r\n" lines.
  static std::string request_text(std::string_view method, std::string_view target,
                                  std::string_view body,
                                  std::string_view content_type = "application/json",
                                  std::string_view extra_headers = "") {
    std::string out =
        std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!content_type.empty()) out += "Content-Type: " + std::string(content_type) + "\r\n";
    out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    out += extra_headers;
    out += "\r\n";
    out += body;
    return out;
  }

  api::Expected<HttpReply> post(std::string_view target, std::string_view body,
                                std::string_view content_type = "application/json") {
    if (!write(request_text("POST", target, body, content_type))) {
      return api::Unexpected{"write failed: " + openssl_errors()};
    }
    return read_reply();
  }

  // Reads one response (Content-Length framed).
  api::Expected<HttpReply> read_reply() {
    std::size_t end;
    while ((end = in_.find("\r\n\r\n")) == std::string::npos) {
      if (!fill()) return api::Unexpected{"connection closed before a response header"};
    }
    HttpReply reply;
    const std::string head = in_.substr(0, end);
    in_.erase(0, end + 4);
    reply.status = std::stoi(head.substr(9, 3));
    for (std::size_t pos = head.find("\r\n"); pos != std::string::npos;) {
      const std::size_t next = head.find("\r\n", pos + 2);
      const std::string line =
          head.substr(pos + 2, next == std::string::npos ? next : next - pos - 2);
      const auto colon = line.find(':');
      std::string name = line.substr(0, colon);
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      reply.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
      pos = next;
    }
    const std::size_t length =
        std::stoul(reply.header("content-length").empty() ? "0" : reply.header("content-length"));
    while (in_.size() < length) {
      if (!fill()) return api::Unexpected{"connection closed inside a response body"};
    }
    reply.body = in_.substr(0, length);
    in_.erase(0, length);
    return reply;
  }

  // What a client does after a "Connection: close" response: close_notify, then end its side.
  void close_write() {
    SSL_shutdown(ssl_);
    ::shutdown(fd_, SHUT_WR);
  }

  // True when the server ends the connection (EOF, close_notify or reset) before the timeout;
  // data that arrives meanwhile is discarded.
  bool wait_closed() {
    char buf[4096];
    for (;;) {
      const int n = SSL_read(ssl_, buf, sizeof buf);
      if (n > 0) continue;
      const int err = SSL_get_error(ssl_, n);
      ERR_clear_error();
      // A receive timeout shows up as SSL_ERROR_SYSCALL with EAGAIN: not a close.
      return !(err == SSL_ERROR_SYSCALL && (errno == EAGAIN || errno == EWOULDBLOCK));
    }
  }

 private:
  TlsClient() = default;

  bool fill() {
    char buf[16384];
    const int n = SSL_read(ssl_, buf, sizeof buf);
    if (n <= 0) {
      ERR_clear_error();
      return false;
    }
    in_.append(buf, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  std::string in_;
};

// A minimal v1 AdmissionReview request body.
inline std::string review_body(std::string_view uid, std::string_view extra_request_fields = "") {
  std::string out =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":")";
  out += uid;
  out += '"';
  if (!extra_request_fields.empty()) {
    out += ',';
    out += extra_request_fields;
  }
  out += "}}";
  return out;
}

// A started AdmissionServer on 127.0.0.1 with a fresh test PKI; the given options are kept except
// the address, the port (0) and the certificate files.
struct RunningServer {
  explicit RunningServer(std::vector<Endpoint> endpoints, AdmissionServerOptions options = {}) {
    options.listen_address = "127.0.0.1";
    options.port = 0;
    options.cert_file = dir.write("tls.crt", pki.server.cert_pem);
    options.key_file = dir.write("tls.key", pki.server.key_pem);
    if (options.threads == 0) options.threads = 2;
    server = std::make_unique<AdmissionServer>(std::move(options), std::move(endpoints),
                                               std::make_shared<StaticClusterView>(),
                                               std::make_shared<AdmissionOptions>());
    server->start();
  }

  std::uint16_t port() const { return server->port(); }
  TlsClientOptions client_options() const { return {.ca_pem = pki.ca.cert_pem}; }
  // A connected client; throws std::runtime_error when the connection or handshake fails.
  std::unique_ptr<TlsClient> connect() const {
    auto c = TlsClient::connect(port(), client_options());
    if (!c) throw std::runtime_error("connect: " + c.error());
    return std::move(*c);
  }

  vc::testing::Pki pki = vc::testing::make_pki();
  vc::testing::TempDir dir;
  std::unique_ptr<AdmissionServer> server;
};

}  // namespace vc::webhook::server::test
