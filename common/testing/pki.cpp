#include "common/testing/pki.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <stdexcept>

namespace vc::testing {
namespace {

struct Free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Free>;
using CertPtr = std::unique_ptr<X509, Free>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("make_pki: ") + what + " failed");
}

KeyPtr new_key() {
  KeyPtr key(EVP_EC_gen("P-256"));
  check(key != nullptr, "EVP_EC_gen");
  return key;
}

void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  std::unique_ptr<X509_EXTENSION, Free> ext(
      X509V3_EXT_conf_nid(nullptr, &ctx, nid, const_cast<char*>(value)));
  check(ext != nullptr, "X509V3_EXT_conf_nid");
  check(X509_add_ext(cert, ext.get(), -1) == 1, "X509_add_ext");
}

// A certificate for key; self-signed when issuer is null.
CertPtr new_cert(EVP_PKEY* key, const std::string& cn, X509* issuer) {
  CertPtr cert(X509_new());
  check(cert != nullptr, "X509_new");
  check(X509_set_version(cert.get(), 2) == 1, "X509_set_version");
  unsigned char serial_bytes[8];
  check(RAND_bytes(serial_bytes, sizeof serial_bytes) == 1, "RAND_bytes");
  long serial = 1;
  for (unsigned char b : serial_bytes) serial = (serial << 8 | b) & 0x3fffffffffffffffL;
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial == 0 ? 1 : serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
  check(X509_set_pubkey(cert.get(), key) == 1, "X509_set_pubkey");
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509* signer = issuer ? issuer : cert.get();
  check(X509_set_issuer_name(cert.get(), X509_get_subject_name(signer)) == 1, "set issuer");
  add_ext(cert.get(), signer, NID_subject_key_identifier, "hash");
  if (issuer) add_ext(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
  return cert;
}

void sign(X509* cert, EVP_PKEY* key) {
  check(X509_sign(cert, key, EVP_sha256()) > 0, "X509_sign");
}

std::string to_pem(X509* cert) {
  std::unique_ptr<BIO, Free> bio(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_X509(bio.get(), cert) == 1, "PEM_write_bio_X509");
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

std::string to_pem(EVP_PKEY* key) {
  std::unique_ptr<BIO, Free> bio(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
        "PEM_write_bio_PrivateKey");
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

CertKey leaf(X509* ca, EVP_PKEY* ca_key, const std::string& cn, const char* usage,
             const char* san) {
  auto key = new_key();
  auto cert = new_cert(key.get(), cn, ca);
  add_ext(cert.get(), ca, NID_basic_constraints, "critical,CA:FALSE");
  add_ext(cert.get(), ca, NID_key_usage, "critical,digitalSignature,keyEncipherment");
  add_ext(cert.get(), ca, NID_ext_key_usage, usage);
  if (san) add_ext(cert.get(), ca, NID_subject_alt_name, san);
  sign(cert.get(), ca_key);
  return {to_pem(cert.get()), to_pem(key.get())};
}

}  // namespace

Pki make_pki(const std::string& client_cn) {
  auto ca_key = new_key();
  auto ca = new_cert(ca_key.get(), "vc-test-ca", nullptr);
  add_ext(ca.get(), ca.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_ext(ca.get(), ca.get(), NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
  sign(ca.get(), ca_key.get());

  Pki pki;
  pki.ca = {to_pem(ca.get()), to_pem(ca_key.get())};
  pki.server =
      leaf(ca.get(), ca_key.get(), "127.0.0.1", "serverAuth", "IP:127.0.0.1,DNS:localhost");
  pki.client = leaf(ca.get(), ca_key.get(), client_cn, "clientAuth", nullptr);
  return pki;
}

}  // namespace vc::testing
