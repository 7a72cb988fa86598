#include "webhook/server/tls_context.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace vc::webhook::server {
namespace {

using api::Unexpected;

struct Free {
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(char* p) const { OPENSSL_free(p); }
};
template <class T>
using Owned = std::unique_ptr<T, Free>;

// Drains OpenSSL's error queue of this thread into one line.
std::string openssl_error() {
  std::string out;
  while (const unsigned long code = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? "unknown OpenSSL error" : out;
}

Owned<BIO> memory_bio(std::string_view data) {
  return Owned<BIO>(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())));
}

// Keys are unencrypted; without this OpenSSL would prompt on the terminal for a passphrase.
int no_passphrase(char*, int, int, void*) {
  return 0;
}

// Chooses HTTP/1.1 when the client offers it; otherwise no ALPN at all, which clients treat as
// HTTP/1.1 too. Never h2: the server speaks HTTP/1.1 only.
int select_alpn(SSL*, const unsigned char** out, unsigned char* out_len, const unsigned char* in,
                unsigned int in_len, void*) {
  static const unsigned char kHttp11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  unsigned char* selected = nullptr;
  if (SSL_select_next_proto(&selected, out_len, kHttp11, sizeof kHttp11, in, in_len) !=
      OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;
  }
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

std::string serial_hex(X509* cert) {
  Owned<BIGNUM> bn(ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), nullptr));
  if (!bn) return {};
  Owned<char> hex(BN_bn2hex(bn.get()));
  return hex ? std::string(hex.get()) : std::string();
}

std::string not_after(X509* cert) {
  Owned<BIO> bio(BIO_new(BIO_s_mem()));
  if (!bio || ASN1_TIME_print(bio.get(), X509_get0_notAfter(cert)) != 1) return {};
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

std::string subject(X509* cert) {
  Owned<char> line(X509_NAME_oneline(X509_get_subject_name(cert), nullptr, 0));
  return line ? std::string(line.get()) : std::string();
}

// Adds the certificates after the leaf. Reading stops at the end of the input, which OpenSSL
// reports as "no start line"; any other error means a damaged (e.g. half-written) certificate.
api::Status add_chain(SSL_CTX* ctx, BIO* bio) {
  while (X509* extra = PEM_read_bio_X509(bio, nullptr, no_passphrase, nullptr)) {
    if (SSL_CTX_add0_chain_cert(ctx, extra) != 1) {
      X509_free(extra);
      return Unexpected{"certificate chain: " + openssl_error()};
    }
  }
  const unsigned long last = ERR_peek_last_error();
  if (ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE) {
    ERR_clear_error();
    return api::ok_status();
  }
  return Unexpected{"certificate chain: " + openssl_error()};
}

}  // namespace

api::Expected<ServingCertificate> make_server_context(std::string_view cert_pem,
                                                      std::string_view key_pem) {
  ERR_clear_error();
  SslContextPtr ctx(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
  if (!ctx) return Unexpected{"SSL_CTX_new: " + openssl_error()};
  SSL_CTX* c = ctx.get();
  SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION);
  SSL_CTX_set_options(
      c, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_COMPRESSION);
  if (SSL_CTX_set_cipher_list(c, kTls12CipherList) != 1) {
    return Unexpected{"cipher list: " + openssl_error()};
  }
  if (SSL_CTX_set_ciphersuites(c, kTls13Suites) != 1) {
    return Unexpected{"TLS 1.3 suites: " + openssl_error()};
  }
  SSL_CTX_set_alpn_select_cb(c, select_alpn, nullptr);

  auto cert_bio = memory_bio(cert_pem);
  Owned<X509> leaf(PEM_read_bio_X509_AUX(cert_bio.get(), nullptr, no_passphrase, nullptr));
  if (!leaf) return Unexpected{"certificate: " + openssl_error()};
  if (SSL_CTX_use_certificate(c, leaf.get()) != 1) {
    return Unexpected{"certificate: " + openssl_error()};
  }
  if (auto chain = add_chain(c, cert_bio.get()); !chain) return Unexpected{chain.error()};

  auto key_bio = memory_bio(key_pem);
  Owned<EVP_PKEY> key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, no_passphrase, nullptr));
  if (!key) return Unexpected{"private key: " + openssl_error()};
  if (SSL_CTX_use_PrivateKey(c, key.get()) != 1 || SSL_CTX_check_private_key(c) != 1) {
    ERR_clear_error();
    return Unexpected{"private key does not match the certificate"};
  }
  return ServingCertificate{std::move(ctx), serial_hex(leaf.get()), subject(leaf.get()),
                            not_after(leaf.get())};
}

}  // namespace vc::webhook::server
