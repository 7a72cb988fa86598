#include "webhook/server/trusted_cas.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509_vfy.h>

#include <vector>

namespace vc::webhook::server {
namespace {

using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using X509Ptr = std::unique_ptr<X509, decltype(&X509_free)>;

// Every certificate of a PEM text, in order; stops at the first block that is not one.
std::vector<X509Ptr> read_certificates(std::string_view pem) {
  std::vector<X509Ptr> out;
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  if (!bio) return out;
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    out.emplace_back(cert, X509_free);
  }
  ERR_clear_error();  // the end of the text reads as an error
  return out;
}

}  // namespace

api::Status TrustedCas::set(std::string_view ca_pem) {
  auto certs = read_certificates(ca_pem);
  if (certs.empty()) return api::Unexpected{std::string("the CA file holds no PEM certificate")};
  std::shared_ptr<X509_STORE> store(X509_STORE_new(), X509_STORE_free);
  if (!store) return api::Unexpected{std::string("out of memory building the CA store")};
  for (const auto& cert : certs) X509_STORE_add_cert(store.get(), cert.get());
  ERR_clear_error();  // a duplicate certificate is reported, and harmless
  std::lock_guard lock(mu_);
  store_ = std::move(store);
  return api::ok_status();
}

bool TrustedCas::active() const {
  std::lock_guard lock(mu_);
  return store_ != nullptr;
}

api::Status TrustedCas::check(std::string_view chain_pem) const {
  std::shared_ptr<X509_STORE> store;
  {
    std::lock_guard lock(mu_);
    store = store_;
  }
  if (!store) return api::ok_status();
  auto chain = read_certificates(chain_pem);
  if (chain.empty()) return api::Unexpected{std::string("no certificate in the chain")};
  // sk_X509_free is a macro: the stack only borrows the certificates, which chain owns.
  const auto free_stack = [](STACK_OF(X509) * stack) { sk_X509_free(stack); };
  std::unique_ptr<STACK_OF(X509), decltype(free_stack)> untrusted(sk_X509_new_null(), free_stack);
  for (size_t i = 1; i < chain.size(); ++i) sk_X509_push(untrusted.get(), chain[i].get());
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> ctx(X509_STORE_CTX_new(),
                                                                      X509_STORE_CTX_free);
  if (!ctx || !X509_STORE_CTX_init(ctx.get(), store.get(), chain[0].get(), untrusted.get())) {
    ERR_clear_error();
    return api::Unexpected{std::string("cannot set up the chain check")};
  }
  // An intermediate named in the CA file is a trust anchor too, as the API server treats a
  // caBundle; dates are not this check's business.
  X509_STORE_CTX_set_flags(ctx.get(), X509_V_FLAG_PARTIAL_CHAIN | X509_V_FLAG_NO_CHECK_TIME);
  const bool ok = X509_verify_cert(ctx.get()) == 1;
  const int code = X509_STORE_CTX_get_error(ctx.get());
  ERR_clear_error();
  if (ok) return api::ok_status();
  return api::Unexpected{std::string("issuer not in the registered caBundle (") +
                         X509_verify_cert_error_string(code) + ")"};
}

}  // namespace vc::webhook::server
