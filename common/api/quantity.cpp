// Quantity: canonical printing, arithmetic and JSON. Parsing lives in quantity_parse.cpp.

#include "common/api/quantity.h"

#include <stdexcept>

namespace vc::api {
namespace {

using U128 = unsigned __int128;
using Nanos = Quantity::Nanos;

U128 magnitude(Nanos v) {
  return v < 0 ? -static_cast<U128>(v) : static_cast<U128>(v);
}

template <class U>
void append_unsigned(std::string& out, U v) {
  char buf[40];
  char* p = buf + sizeof(buf);
  do {
    *--p = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  out.append(p, buf + sizeof(buf));
}

// mantissa * 10^exponent, printed with the largest exponent that is a multiple of three and
// needs no fractional digits. U is 64-bit when the value allows: 128-bit division is slow.
template <class U>
void append_decimal(std::string& out, U mantissa, int exponent, bool decimal_si) {
  // Move factors of ten into the exponent, then back down to a multiple of three.
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  while (exponent % 3 != 0) {
    mantissa *= 10;
    --exponent;
  }
  append_unsigned(out, mantissa);
  if (decimal_si && exponent <= 18) {
    static constexpr const char* kDecimalSuffixes[] = {"n", "u", "m", "",  "k",
                                                       "M", "G", "T", "P", "E"};
    out.append(kDecimalSuffixes[(exponent + 9) / 3]);
  } else if (exponent != 0) {
    // DecimalExponent, and DecimalSI beyond "E" (Kubernetes falls back to "e21").
    out.push_back('e');
    out.append(std::to_string(exponent));
  }
}

// units * 1024^k with the largest k <= 6 ("Ei"): Kubernetes has no larger suffix and would
// print a wrong number beyond it.
template <class U>
void append_binary(std::string& out, U units) {
  static constexpr const char* kBinarySuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  int exponent = 0;
  while (exponent < 6 && units % 1024 == 0) {
    units /= 1024;
    ++exponent;
  }
  append_unsigned(out, units);
  out.append(kBinarySuffixes[exponent]);
}

constexpr U128 kU64Max = static_cast<std::uint64_t>(-1);

Nanos clamp(Nanos v) {
  if (v > Quantity::kMaxNanos) return Quantity::kMaxNanos;
  if (v < -Quantity::kMaxNanos) return -Quantity::kMaxNanos;
  return v;
}

// v * 10^exponent (exponent >= 0) saturated to +-kMaxNanos; false when it saturated.
bool scale_up(Nanos& v, int exponent) {
  for (int i = 0; i < exponent && v != 0; ++i) {
    if (__builtin_mul_overflow(v, 10, &v) || clamp(v) != v) {
      v = v > 0 ? Quantity::kMaxNanos : -Quantity::kMaxNanos;
      return false;
    }
  }
  return true;
}

std::int64_t saturate_int64(Nanos v) {
  if (v > INT64_MAX) return INT64_MAX;
  if (v < INT64_MIN) return INT64_MIN;
  return static_cast<std::int64_t>(v);
}

}  // namespace

const char* to_string(QuantityFormat format) {
  switch (format) {
    case QuantityFormat::DecimalExponent:
      return "DecimalExponent";
    case QuantityFormat::BinarySI:
      return "BinarySI";
    case QuantityFormat::DecimalSI:
      return "DecimalSI";
  }
  return "DecimalSI";
}

Quantity Quantity::from_int(std::int64_t value, QuantityFormat format) {
  return Quantity(static_cast<Nanos>(value) * kNanosPerUnit, format);
}

Quantity Quantity::from_milli(std::int64_t milli, QuantityFormat format) {
  return Quantity(static_cast<Nanos>(milli) * 1000000, format);
}

Quantity Quantity::from_scaled(std::int64_t value, int scale) {
  if (scale < -9) {
    throw std::invalid_argument("Quantity::from_scaled: scale " + std::to_string(scale) +
                                " is below nano (-9)");
  }
  Nanos nanos = value;
  scale_up(nanos, scale + 9);
  return Quantity(nanos, QuantityFormat::DecimalSI);
}

Quantity Quantity::from_nanos(Nanos nanos, QuantityFormat format) {
  return Quantity(clamp(nanos), format);
}

std::string Quantity::to_string() const {
  return verbatim_.empty() ? canonical_string() : verbatim_;
}

// Kubernetes' CanonicalizeBytes: the largest suffix that needs no fractional digits.
std::string Quantity::canonical_string() const {
  if (nanos_ == 0) return "0";
  std::string out;
  out.reserve(24);
  if (nanos_ < 0) out.push_back('-');
  const U128 mag = magnitude(nanos_);
  constexpr U128 kUnit = static_cast<U128>(kNanosPerUnit);

  // BinarySI is only used for whole numbers of at least 1024 units; anything else would
  // need rounding, so it prints as DecimalSI.
  QuantityFormat format = format_;
  if (format == QuantityFormat::BinarySI && (mag < 1024 * kUnit || mag % kUnit != 0)) {
    format = QuantityFormat::DecimalSI;
  }
  if (format == QuantityFormat::BinarySI) {
    const U128 units = mag / kUnit;
    if (units <= kU64Max) {
      append_binary(out, static_cast<std::uint64_t>(units));
    } else {
      append_binary(out, units);
    }
    return out;
  }
  const bool decimal_si = format == QuantityFormat::DecimalSI;
  if (mag <= kU64Max / 100) {  // room for the two digits the exponent adjustment may add
    append_decimal(out, static_cast<std::uint64_t>(mag), -9, decimal_si);
  } else {
    append_decimal(out, mag, -9, decimal_si);
  }
  return out;
}

std::int64_t Quantity::scaled_value(int scale) const {
  const int down = scale + 9;  // nanos / 10^down
  if (down <= 0) {
    Nanos v = nanos_;
    scale_up(v, -down);
    return saturate_int64(v);
  }
  if (down > 38) return sign();  // |nanos| < 10^39: any non-zero value rounds away to +-1
  U128 divisor = 1;
  for (int i = 0; i < down; ++i) divisor *= 10;
  const U128 mag = magnitude(nanos_);
  U128 quotient = mag / divisor;
  if (mag % divisor != 0) ++quotient;
  const Nanos result = static_cast<Nanos>(quotient);
  return saturate_int64(nanos_ < 0 ? -result : result);
}

double Quantity::as_approximate_double() const {
  return static_cast<double>(nanos_) / static_cast<double>(kNanosPerUnit);
}

bool Quantity::add(const Quantity& other) {
  verbatim_.clear();
  if (nanos_ == 0) format_ = other.format_;
  Nanos sum;
  if (__builtin_add_overflow(nanos_, other.nanos_, &sum)) {
    nanos_ = other.nanos_ > 0 ? kMaxNanos : -kMaxNanos;
    return false;
  }
  nanos_ = clamp(sum);
  return nanos_ == sum;
}

bool Quantity::sub(const Quantity& other) {
  verbatim_.clear();
  if (nanos_ == 0) format_ = other.format_;
  Nanos difference;
  if (__builtin_sub_overflow(nanos_, other.nanos_, &difference)) {
    nanos_ = other.nanos_ < 0 ? kMaxNanos : -kMaxNanos;
    return false;
  }
  nanos_ = clamp(difference);
  return nanos_ == difference;
}

bool Quantity::mul(std::int64_t factor) {
  verbatim_.clear();
  Nanos product;
  if (__builtin_mul_overflow(nanos_, static_cast<Nanos>(factor), &product)) {
    nanos_ = ((nanos_ < 0) != (factor < 0)) ? -kMaxNanos : kMaxNanos;
    return false;
  }
  nanos_ = clamp(product);
  return nanos_ == product;
}

void Quantity::neg() {
  verbatim_.clear();
  nanos_ = -nanos_;  // the range is symmetric, so this cannot overflow
}

}  // namespace vc::api
