#pragma once
// Quantity: Kubernetes resource.Quantity ("100m", "1.5Gi", "1e3") with apimachinery's parse
// rules, remembered format and canonical printing.
//
// Representation: a signed count of nano-units in a 128-bit integer. Parsing already rounds
// every value up to a whole nano (as Kubernetes does), so this is exact for every value
// Kubernetes can hold whose magnitude is below 2^127 nano-units (about 1.7e29). Two
// deliberate, documented differences from apimachinery, which uses arbitrary precision:
//   - parsing a value at or above that bound (e.g. "1e100") fails with an error that says so;
//     BinarySI inputs never reach it because Kubernetes caps them at 2^63-1;
//   - add/sub/mul saturate at +-(2^127-1) nano-units and report it (they return false).
// Value() and MilliValue() round away from zero and saturate at the int64 range.
//
// Printing: to_string() is exactly what Kubernetes' String() and MarshalJSON emit, including its
// quirk of re-emitting some inputs verbatim ("1.441" stays "1.441", "+1" stays "+1") because
// ParseQuantity caches them; canonical_string() always computes the canonical form ("1441m").
// Arithmetic drops the remembered input, as in Kubernetes.
//
// Threads: a Quantity is a value type; const methods may be called from any thread.

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"

namespace vc::api {

enum class QuantityFormat : std::uint8_t {
  DecimalExponent,  // 12e6
  BinarySI,         // 12Mi (12 * 2^20)
  DecimalSI,        // 12M (12 * 10^6)
};

// "DecimalExponent", "BinarySI" or "DecimalSI", as Kubernetes names them.
const char* to_string(QuantityFormat format);

// Kubernetes' parse error messages, verbatim.
inline constexpr std::string_view kQuantityFormatError =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
inline constexpr std::string_view kQuantityNumericError =
    "unable to parse numeric part of quantity";
inline constexpr std::string_view kQuantitySuffixError = "unable to parse quantity's suffix";
// Ours: the value is valid for Kubernetes but beyond what this representation holds.
inline constexpr std::string_view kQuantityTooLargeError =
    "quantity is too large: its magnitude must be below 2^127 nano-units (about 1.7e29)";

class Quantity {
 public:
  using Nanos = __int128;
  static constexpr Nanos kMaxNanos = ~(static_cast<unsigned __int128>(1) << 127);  // 2^127-1
  static constexpr Nanos kNanosPerUnit = 1000000000;

  // Zero in DecimalSI.
  Quantity() = default;

  // NewQuantity: value units.
  static Quantity from_int(std::int64_t value, QuantityFormat format = QuantityFormat::DecimalSI);
  // NewMilliQuantity: milli / 1000 units.
  static Quantity from_milli(std::int64_t milli, QuantityFormat format = QuantityFormat::DecimalSI);
  // NewScaledQuantity: value * 10^scale units, DecimalSI. scale must be >= -9 (programmer error
  // otherwise: std::invalid_argument). Saturates like the arithmetic below.
  static Quantity from_scaled(std::int64_t value, int scale);
  // nanos / 10^9 units; nanos is clamped to +-kMaxNanos.
  static Quantity from_nanos(Nanos nanos, QuantityFormat format = QuantityFormat::DecimalSI);

  // ParseQuantity. The error is one of the k*Error messages above.
  static Expected<Quantity> parse(std::string_view text);
  // For constants and tests: throws std::invalid_argument on a parse error.
  static Quantity must_parse(std::string_view text);

  // Kubernetes String()/MarshalJSON output (see the header comment).
  std::string to_string() const;
  // The canonical form, ignoring any remembered input.
  std::string canonical_string() const;

  QuantityFormat format() const { return format_; }
  Nanos nanos() const { return nanos_; }
  bool is_zero() const { return nanos_ == 0; }
  int sign() const { return nanos_ > 0 ? 1 : (nanos_ < 0 ? -1 : 0); }

  // ceil(|q|) with the sign of q (rounded away from zero), saturated to int64.
  std::int64_t value() const { return scaled_value(0); }
  // q * 1000 rounded away from zero, saturated to int64.
  std::int64_t milli_value() const { return scaled_value(-3); }
  // q / 10^scale rounded away from zero, saturated to int64.
  std::int64_t scaled_value(int scale) const;
  double as_approximate_double() const;

  // In-place arithmetic. Each returns false when the exact result is out of range and the
  // value saturated. add/sub adopt the other operand's format when this one is zero.
  bool add(const Quantity& other);
  bool sub(const Quantity& other);
  bool mul(std::int64_t factor);
  void neg();

  Quantity& operator+=(const Quantity& other) {
    add(other);
    return *this;
  }
  Quantity& operator-=(const Quantity& other) {
    sub(other);
    return *this;
  }
  Quantity& operator*=(std::int64_t factor) {
    mul(factor);
    return *this;
  }
  friend Quantity operator+(Quantity a, const Quantity& b) { return a += b; }
  friend Quantity operator-(Quantity a, const Quantity& b) { return a -= b; }
  friend Quantity operator*(Quantity a, std::int64_t k) { return a *= k; }
  friend Quantity operator-(Quantity a) {
    a.neg();
    return a;
  }

  // Value comparison (Kubernetes Cmp/Equal): the format and remembered text do not count.
  int compare(const Quantity& other) const {
    return nanos_ < other.nanos_ ? -1 : (nanos_ > other.nanos_ ? 1 : 0);
  }
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.nanos_ == b.nanos_; }
  friend std::weak_ordering operator<=>(const Quantity& a, const Quantity& b) {
    return a.nanos_ < b.nanos_   ? std::weak_ordering::less
           : a.nanos_ > b.nanos_ ? std::weak_ordering::greater
                                 : std::weak_ordering::equivalent;
  }

 private:
  Quantity(Nanos nanos, QuantityFormat format) : nanos_(nanos), format_(format) {}

  Nanos nanos_ = 0;
  QuantityFormat format_ = QuantityFormat::DecimalSI;
  // The parsed input when Kubernetes would re-emit it verbatim; otherwise empty.
  std::string verbatim_;
};

inline Expected<Quantity> parse_quantity(std::string_view text) {
  return Quantity::parse(text);
}

// Decodes a JSON quantity as Kubernetes' UnmarshalJSON does: a string (surrounding whitespace
// trimmed) or a number; null is zero.
Expected<Quantity> quantity_from_json(const nlohmann::json& j);

}  // namespace vc::api

namespace nlohmann {
// Quantities travel as JSON strings. from_json throws nlohmann::json::other_error (id 599) on
// an invalid quantity, like any other nlohmann conversion; quantity_from_json does not throw.
template <>
struct adl_serializer<vc::api::Quantity> {
  static void to_json(json& j, const vc::api::Quantity& q) { j = q.to_string(); }
  static void from_json(const json& j, vc::api::Quantity& q);
};
}  // namespace nlohmann
