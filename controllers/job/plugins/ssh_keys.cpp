#include "controllers/job/plugins/ssh_keys.h"

#include <cstdint>
#include <memory>
#include <vector>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

namespace vc::controllers::job::plugins {
namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct EncoderFree {
  void operator()(OSSL_ENCODER_CTX* c) const { OSSL_ENCODER_CTX_free(c); }
};
struct BnFree {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};

api::Unexpected openssl_error(const char* step) {
  std::string message = std::string("ssh key generation: ") + step + " failed";
  if (const unsigned long code = ERR_get_error(); code != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    message += ": ";
    message += buf;
  }
  ERR_clear_error();
  return api::Unexpected{std::move(message)};
}

void put_u32(std::string& out, std::uint32_t v) {
  out.push_back(static_cast<char>((v >> 24) & 0xff));
  out.push_back(static_cast<char>((v >> 16) & 0xff));
  out.push_back(static_cast<char>((v >> 8) & 0xff));
  out.push_back(static_cast<char>(v & 0xff));
}

void put_string(std::string& out, std::string_view s) {
  put_u32(out, static_cast<std::uint32_t>(s.size()));
  out.append(s);
}

// RFC 4251 mpint for a non-negative number: big-endian, a 0x00 in front when the top bit is set.
void put_mpint(std::string& out, const BIGNUM* n) {
  std::vector<unsigned char> bytes(static_cast<std::size_t>(BN_num_bytes(n)));
  BN_bn2bin(n, bytes.data());
  std::string value;
  if (!bytes.empty() && (bytes[0] & 0x80) != 0) value.push_back('\0');
  value.append(bytes.begin(), bytes.end());
  put_string(out, value);
}

}  // namespace

api::Expected<SshKeyPair> generate_ssh_key_pair(int bits) {
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(
      EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr));
  if (!ctx) return openssl_error("EVP_PKEY_CTX_new_from_name");
  if (EVP_PKEY_keygen_init(ctx.get()) <= 0) return openssl_error("EVP_PKEY_keygen_init");
  if (EVP_PKEY_CTX_set_rsa_keygen_bits(ctx.get(), bits) <= 0) {
    return openssl_error("EVP_PKEY_CTX_set_rsa_keygen_bits");
  }
  EVP_PKEY* raw = nullptr;
  if (EVP_PKEY_generate(ctx.get(), &raw) <= 0) return openssl_error("EVP_PKEY_generate");
  std::unique_ptr<EVP_PKEY, PkeyFree> key(raw);

  // "type-specific" output structure = PKCS#1 RSAPrivateKey, i.e. "RSA PRIVATE KEY" in PEM.
  std::unique_ptr<OSSL_ENCODER_CTX, EncoderFree> encoder(
      OSSL_ENCODER_CTX_new_for_pkey(key.get(), EVP_PKEY_KEYPAIR, "PEM", "type-specific", nullptr));
  if (!encoder) return openssl_error("OSSL_ENCODER_CTX_new_for_pkey");
  unsigned char* pem = nullptr;
  std::size_t pem_len = 0;
  if (OSSL_ENCODER_to_data(encoder.get(), &pem, &pem_len) <= 0) {
    return openssl_error("OSSL_ENCODER_to_data");
  }
  SshKeyPair pair;
  pair.private_pem.assign(reinterpret_cast<const char*>(pem), pem_len);
  OPENSSL_free(pem);

  BIGNUM* n_raw = nullptr;
  BIGNUM* e_raw = nullptr;
  if (EVP_PKEY_get_bn_param(key.get(), OSSL_PKEY_PARAM_RSA_N, &n_raw) <= 0) {
    return openssl_error("EVP_PKEY_get_bn_param(n)");
  }
  std::unique_ptr<BIGNUM, BnFree> n(n_raw);
  if (EVP_PKEY_get_bn_param(key.get(), OSSL_PKEY_PARAM_RSA_E, &e_raw) <= 0) {
    return openssl_error("EVP_PKEY_get_bn_param(e)");
  }
  std::unique_ptr<BIGNUM, BnFree> e(e_raw);

  // RFC 4253 "ssh-rsa" public key blob: string type, mpint e, mpint n.
  std::string blob;
  put_string(blob, "ssh-rsa");
  put_mpint(blob, e.get());
  put_mpint(blob, n.get());
  pair.authorized_key = "ssh-rsa " + base64_encode(blob) + "\n";
  return pair;
}

}  // namespace vc::controllers::job::plugins
