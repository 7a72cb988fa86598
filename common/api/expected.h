#pragma once
// Expected<T>: a value or an error message, for parsers and validators of API data (quantities,
// label selectors, timestamps). g++ 12 has no std::expected; this is the small subset we use.
// Errors are plain strings because they end up in admission responses and logs verbatim.
//
// Threads: a value type; const methods may be called from any thread.

#include <string>
#include <utility>
#include <variant>

namespace vc::api {

// Wraps an error message so that Expected<std::string> can tell it from a value.
struct Unexpected {
  std::string message;
};

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  Expected(Unexpected error) : v_(std::in_place_index<1>, std::move(error.message)) {}  // NOLINT

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

  // The error message; empty when ok().
  const std::string& error() const {
    static const std::string kNone;
    return ok() ? kNone : std::get<1>(v_);
  }

 private:
  std::variant<T, std::string> v_;
};

}  // namespace vc::api
