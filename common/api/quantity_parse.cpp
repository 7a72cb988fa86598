// Quantity::parse: apimachinery's ParseQuantity, step for step in behaviour.
//
// Kubernetes scans the text into sign, integer digits, fraction digits and suffix; interprets
// the suffix; then takes an int64 "fast path" when the digits are few enough, else an
// arbitrary-precision "slow path" that rounds up to nano-units and caps BinarySI at 2^63-1.
// Both paths give the same value, which we compute exactly once. The path still matters for
// two observable things we reproduce: which inputs are remembered verbatim for String(), and
// that a digit-less number ("Ei", "-.Pi") fails only on the slow path.

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "common/api/quantity.h"

namespace vc::api {
namespace {

using U128 = unsigned __int128;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_suffix_letter(char c) {
  return std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos;
}

struct Scanned {
  bool ok = true;  // false: the text does not have the shape of a quantity
  bool positive = true;
  std::string_view num;    // integer digits without leading zeros; empty means 0
  std::string_view denom;  // fraction digits
  std::string_view suffix;
  std::string_view value;  // the numeric text Kubernetes hands to inf.Dec on the slow path
};

Scanned scan(std::string_view s) {
  Scanned r;
  std::size_t pos = 0;
  const std::size_t end = s.size();
  if (pos < end && (s[pos] == '-' || s[pos] == '+')) {
    r.positive = s[pos] == '+';
    ++pos;
  }
  while (pos < end && s[pos] == '0') ++pos;
  if (pos == end) {  // only zeros, or only a sign: Kubernetes reads this as "0"
    r.value = "0";
    return r;
  }
  const std::size_t num_start = pos;
  while (pos < end && is_digit(s[pos])) ++pos;
  r.num = s.substr(num_start, pos - num_start);
  if (pos < end && s[pos] == '.') {
    const std::size_t denom_start = ++pos;
    while (pos < end && is_digit(s[pos])) ++pos;
    r.denom = s.substr(denom_start, pos - denom_start);
  }
  r.value = s.substr(0, pos);
  const std::size_t suffix_start = pos;
  while (pos < end && is_suffix_letter(s[pos])) ++pos;
  if (pos < end && (s[pos] == '-' || s[pos] == '+')) ++pos;
  while (pos < end && is_digit(s[pos])) ++pos;
  if (pos != end) {
    r.ok = false;
    return r;
  }
  r.suffix = s.substr(suffix_start);
  return r;
}

struct Suffix {
  int base;               // 10 or 2
  std::int64_t exponent;  // of the base
  QuantityFormat format;
};

// strconv.ParseInt(s, 10, 64): optional sign, at least one digit, no overflow.
std::optional<std::int64_t> parse_go_int64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  U128 magnitude = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
    if (magnitude > (static_cast<U128>(1) << 63)) return std::nullopt;
  }
  if (!negative && magnitude == (static_cast<U128>(1) << 63)) return std::nullopt;
  return negative ? static_cast<std::int64_t>(-magnitude) : static_cast<std::int64_t>(magnitude);
}

std::optional<Suffix> interpret_suffix(std::string_view s) {
  static constexpr struct {
    std::string_view text;
    int base;
    int exponent;
  } kTable[] = {
      {"", 10, 0},   {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},  {"M", 10, 6},
      {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}, {"Ki", 2, 10}, {"Mi", 2, 20},
      {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
  };
  for (const auto& entry : kTable) {
    if (entry.text == s) {
      return Suffix{entry.base, entry.exponent,
                    entry.base == 2 ? QuantityFormat::BinarySI : QuantityFormat::DecimalSI};
    }
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    auto exponent = parse_go_int64(s.substr(1));
    if (!exponent) return std::nullopt;
    // Kubernetes narrows the parsed int64 to int32 (wrapping); we do the same.
    return Suffix{10, static_cast<std::int32_t>(*exponent), QuantityFormat::DecimalExponent};
  }
  return std::nullopt;
}

// The significant digits of num followed by denom, as one digit string.
class Digits {
 public:
  Digits(std::string_view num, std::string_view denom) : num_(num), denom_(denom) {
    std::size_t total = num.size() + denom.size();
    while (skip_ < total && at_raw(skip_) == '0') ++skip_;
    size_ = total - skip_;
  }
  std::size_t size() const { return size_; }
  unsigned at(std::size_t i) const { return static_cast<unsigned>(at_raw(skip_ + i) - '0'); }

 private:
  char at_raw(std::size_t i) const { return i < num_.size() ? num_[i] : denom_[i - num_.size()]; }
  std::string_view num_, denom_;
  std::size_t skip_ = 0, size_ = 0;
};

bool mul_overflows(U128& v, U128 factor) {
  return __builtin_mul_overflow(v, factor, &v);
}
bool add_overflows(U128& v, U128 addend) {
  return __builtin_add_overflow(v, addend, &v);
}

// digits[begin, end) as an integer; nullopt on overflow.
std::optional<U128> digits_value(const Digits& d, std::size_t begin, std::size_t end) {
  U128 v = 0;
  for (std::size_t i = begin; i < end; ++i) {
    if (mul_overflows(v, 10) || add_overflows(v, d.at(i))) return std::nullopt;
  }
  return v;
}

// |digits * 10^exp10 * 2^exp2| in nano-units, rounded up to a whole nano-unit as Kubernetes
// rounds; nullopt when it does not fit 128 bits. Works for any digit count and exponent
// without big integers: digits below the nano position only decide the round-up, and a
// 2^exp2 factor (exp2 <= 60) is applied to them with a carry that fits 64 bits.
std::optional<U128> nano_magnitude(const Digits& d, std::int64_t exp10, int exp2) {
  const std::size_t n = d.size();
  if (n == 0) return U128{0};
  const U128 pow2 = static_cast<U128>(1) << exp2;
  const std::int64_t shift = exp10 + 9;  // nanos = digits * 2^exp2 * 10^shift
  if (shift >= 0) {
    auto v = digits_value(d, 0, n);
    if (!v || mul_overflows(*v, pow2)) return std::nullopt;
    for (std::int64_t i = 0; i < shift; ++i) {
      if (mul_overflows(*v, 10)) return std::nullopt;
    }
    return v;
  }
  // Split at the nano position: high digits are whole nanos, the k low digits are a fraction.
  const std::uint64_t k = static_cast<std::uint64_t>(-shift);
  const std::size_t high_count = n > k ? n - static_cast<std::size_t>(k) : 0;
  auto high = digits_value(d, 0, high_count);
  if (!high || mul_overflows(*high, pow2)) return std::nullopt;
  // floor(fraction * 2^exp2) and whether anything is left over, by long multiplication from
  // the least significant digit; positions above the digits we have are zeros.
  std::uint64_t carry = 0;
  bool remainder = false;
  for (std::size_t i = n; i > high_count; --i) {
    const std::uint64_t t = d.at(i - 1) * static_cast<std::uint64_t>(pow2) + carry;
    remainder = remainder || t % 10 != 0;
    carry = t / 10;
  }
  for (std::uint64_t zeros = k - (n - high_count); zeros > 0 && carry != 0; --zeros) {
    remainder = remainder || carry % 10 != 0;
    carry /= 10;
  }
  if (add_overflows(*high, carry)) return std::nullopt;
  if (remainder && add_overflows(*high, 1)) return std::nullopt;
  return high;
}

// Kubernetes' int64 fast path applies, and with it whether the input is kept verbatim.
struct FastPath {
  bool taken = false;
  bool keep_verbatim = false;
};

FastPath decimal_fast_path(const Scanned& sc, std::int64_t exponent) {
  const std::size_t num_len = std::max<std::size_t>(1, sc.num.size());
  const std::int64_t precision = 18 - static_cast<std::int64_t>(num_len + sc.denom.size());
  const std::int64_t scale = exponent - static_cast<std::int64_t>(sc.denom.size());
  if (precision < 0 || scale < -9) return {};
  // Kept when the scale is a multiple of 3, the shifted digits do not end in "000" and do
  // not start with '0' (an empty num is Kubernetes' "0").
  std::string shifted(sc.num.empty() ? "0" : sc.num);
  shifted.append(sc.denom);
  const bool ends_000 = shifted.size() >= 3 && shifted.compare(shifted.size() - 3, 3, "000") == 0;
  return {true, scale % 3 == 0 && !ends_000 && shifted[0] != '0'};
}

FastPath binary_fast_path(const Scanned& sc, std::int64_t exponent) {
  if (!sc.denom.empty()) return {};
  const std::int64_t num_len = static_cast<std::int64_t>(std::max<std::size_t>(1, sc.num.size()));
  if (15 - num_len - exponent * 3 / 10 - 1 < 0) return {};
  std::int64_t value = 0;
  for (char c : sc.num) value = value * 10 + (c - '0');  // at most 14 digits here
  if (value > (INT64_MAX >> exponent)) return {};
  return {true, (value & 7) != 0};
}

bool has_digit(std::string_view s) {
  return std::any_of(s.begin(), s.end(), is_digit);
}

}  // namespace

Expected<Quantity> Quantity::parse(std::string_view text) {
  if (text.empty()) return Unexpected{std::string(kQuantityFormatError)};
  if (text == "0") {
    Quantity zero;
    zero.verbatim_ = "0";
    return zero;
  }
  const Scanned sc = scan(text);
  if (!sc.ok) return Unexpected{std::string(kQuantityFormatError)};
  const auto suffix = interpret_suffix(sc.suffix);
  if (!suffix) return Unexpected{std::string(kQuantitySuffixError)};

  const bool binary = suffix->base == 2;
  const FastPath fast =
      binary ? binary_fast_path(sc, suffix->exponent) : decimal_fast_path(sc, suffix->exponent);
  if (!fast.taken && !has_digit(sc.value)) return Unexpected{std::string(kQuantityNumericError)};

  const std::int64_t exp10 =
      (binary ? 0 : suffix->exponent) - static_cast<std::int64_t>(sc.denom.size());
  auto magnitude = nano_magnitude(Digits(sc.num, sc.denom), exp10,
                                  binary ? static_cast<int>(suffix->exponent) : 0);
  QuantityFormat format = suffix->format;
  if (binary) {
    // Kubernetes silently caps BinarySI magnitudes at 2^63-1 units.
    const U128 cap = static_cast<U128>(INT64_MAX) * static_cast<U128>(kNanosPerUnit);
    if (!magnitude || *magnitude > cap) magnitude = cap;
    // A non-zero BinarySI value below one unit would only round: Kubernetes shows it decimal.
    if (*magnitude != 0 && *magnitude < static_cast<U128>(kNanosPerUnit)) {
      format = QuantityFormat::DecimalSI;
    }
  } else if (!magnitude || *magnitude > static_cast<U128>(kMaxNanos)) {
    return Unexpected{std::string(kQuantityTooLargeError)};
  }
  const Nanos nanos = static_cast<Nanos>(*magnitude);
  Quantity q(sc.positive ? nanos : -nanos, format);
  if (fast.keep_verbatim) q.verbatim_ = std::string(text);
  return q;
}

Quantity Quantity::must_parse(std::string_view text) {
  auto parsed = parse(text);
  if (!parsed) {
    throw std::invalid_argument("cannot parse '" + std::string(text) + "': " + parsed.error());
  }
  return std::move(parsed).value();
}

}  // namespace vc::api
