#include "webhook/server/certificate_reloader.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <openssl/evp.h>

#include "common/log/log.h"
#include "webhook/server/metrics.h"

namespace vc::webhook::server {
namespace {

// The whole file, or an error naming it.
api::Expected<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return api::Unexpected{"cannot open " + path + ": " + std::strerror(errno)};
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return api::Unexpected{"cannot read " + path + ": " + std::strerror(errno)};
  return content.str();
}

std::array<unsigned char, 32> sha256(const std::string& data) {
  std::array<unsigned char, 32> out{};
  unsigned int n = 0;
  // Cannot fail for SHA-256 from the default provider short of memory exhaustion; a zero digest
  // would only cause one extra reload attempt.
  EVP_Digest(data.data(), data.size(), out.data(), &n, EVP_sha256(), nullptr);
  return out;
}

}  // namespace

CertificateReloader::CertificateReloader(std::string cert_file, std::string key_file,
                                         std::shared_ptr<const TrustedCas> trusted)
    : cert_file_(std::move(cert_file)),
      key_file_(std::move(key_file)),
      trusted_(std::move(trusted)) {}

CertificateReloader::Attempt CertificateReloader::try_load(bool gated) {
  auto cert = read_file(cert_file_);
  if (!cert) return {cert.error()};
  auto key = read_file(key_file_);
  if (!key) return {key.error()};
  const Digest cert_digest = sha256(*cert);
  const Digest key_digest = sha256(*key);
  if (tried_ && cert_digest == tried_cert_ && key_digest == tried_key_) return {};
  if (gated && trusted_) {
    // Not remembered as tried: the same pair is checked again at the next poll.
    if (auto trusted = trusted_->check(*cert); !trusted) {
      return {.error = trusted.error(), .installed = false, .new_content = true, .held = true};
    }
  }
  tried_ = true;
  tried_cert_ = cert_digest;
  tried_key_ = key_digest;

  auto built = make_server_context(*cert, *key);
  if (!built) return {built.error(), false, true};
  const ServingCertificate& c = *built;
  VC_LOG_INFO("serving certificate loaded", kv("cert_file", cert_file_), kv("serial", c.serial),
              kv("subject", c.subject), kv("not_after", c.not_after));
  std::lock_guard lock(current_mu_);
  current_ = std::move(*built);
  ++generation_;
  return {{}, true, true};
}

void CertificateReloader::load() {
  std::lock_guard lock(load_mu_);
  const Attempt attempt = try_load(false);
  // Nothing new is fine when an earlier poll() already installed this pair.
  if (!attempt.installed && !(attempt.error.empty() && generation() > 0)) {
    throw std::runtime_error("cannot load the serving certificate (" + cert_file_ + ", " +
                             key_file_ +
                             "): " + (attempt.error.empty() ? "unchanged" : attempt.error));
  }
}

bool CertificateReloader::poll() {
  std::lock_guard lock(load_mu_);
  const Attempt attempt = try_load(true);
  if (attempt.held) {
    if (attempt.error != last_held_) {
      VC_LOG_INFO("new serving certificate held back until the caBundle holds its CA",
                  kv("cert_file", cert_file_), kv("reason", attempt.error));
      last_held_ = attempt.error;
    }
    return false;
  }
  last_held_.clear();
  if (attempt.installed) {
    count_certificate_reload(true);
    last_error_.clear();
  } else if (!attempt.error.empty() && (attempt.new_content || attempt.error != last_error_)) {
    count_certificate_reload(false);
    VC_LOG_ERROR("serving certificate not reloaded; keeping the current one",
                 kv("cert_file", cert_file_), kv("key_file", key_file_), kv("err", attempt.error));
    last_error_ = attempt.error;
  }
  return attempt.installed;
}

SslContextPtr CertificateReloader::current() const {
  std::lock_guard lock(current_mu_);
  return current_.context;
}

std::uint64_t CertificateReloader::generation() const {
  std::lock_guard lock(current_mu_);
  return generation_;
}

}  // namespace vc::webhook::server
