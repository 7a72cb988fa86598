#pragma once
// Expected<T, E>: a value or an error; the one result type of every fallible function (g++ 12
// has no std::expected; this is the small subset we use). The error is a message by default:
// parsers, validators, file readers and start-up checks return text that ends up in logs and
// admission responses verbatim. Calls to the API server use E = kube::ApiError (kube::Result).
//
//   api::Expected<Quantity> parse(std::string_view s);    // a value or why not
//   api::Status check(const Options& o);                   // success, or why not
//   if (auto q = parse(text); !q) return api::Unexpected{"quantity: " + q.error()};
//
// A message is wrapped in Unexpected so that it cannot be taken for a value (Expected<std::string>
// holds either); a typed error converts on its own.
//
// Threads: a value type; const methods may be called from any thread.

#include <concepts>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace vc::api {

// Wraps an error message so that Expected<std::string> can tell it from a value.
struct Unexpected {
  std::string message;
};

// The value of an Expected that has none to give: Expected<Unit> is success or an error.
struct Unit {};

template <class T, class E = std::string>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  // An error message.
  Expected(Unexpected error)  // NOLINT: implicit
      requires std::constructible_from<E, std::string>
      : v_(std::in_place_index<1>, std::move(error.message)) {}
  // A typed error (kube::ApiError): no wrapper needed, it cannot be taken for a value.
  Expected(E error)  // NOLINT: implicit
      requires(!std::constructible_from<E, std::string> && !std::same_as<T, E>)
      : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // value() on an error is a programmer error: std::get throws std::bad_variant_access.
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

  // The error; an empty E (an empty message) when ok().
  const E& error() const {
    static const E kNone{};
    return ok() ? kNone : std::get<1>(v_);
  }

  // For errors that have a kind (kube::ApiError): whether this is an error of that kind.
  template <class Kind>
  requires requires(const E& e, Kind k) { e.kind == k; }
  bool is(Kind kind) const { return !ok() && std::get<1>(v_).kind == kind; }

 private:
  std::variant<T, E> v_;
};

// Success or an error message.
using Status = Expected<Unit>;
inline Status ok_status() {
  return Unit{};
}

}  // namespace vc::api
