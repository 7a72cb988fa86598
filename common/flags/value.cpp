#include "common/flags/value.h"

#include <limits>

#include "common/api/label_validation.h"
#include "common/go/duration.h"
#include "common/go/strconv.h"

namespace vc::flags {
namespace {

// Go's flag package reports every number and bool syntax problem as "parse error".
std::string go_flag_error(const std::string& strconv_error) {
  return strconv_error.ends_with("value out of range") ? "value out of range" : "parse error";
}

std::string csv_error(size_t column, std::string_view what) {
  return "parse error on line 1, column " + std::to_string(column) + ": " + std::string(what);
}

bool needs_quotes(std::string_view field) {
  if (field.empty()) return false;
  if (field == "\\.") return true;
  for (const char c : field) {
    if (c == '\n' || c == '\r' || c == '"' || c == ',') return true;
  }
  const auto c0 = static_cast<unsigned char>(field[0]);
  if (c0 == ' ' || (c0 >= '\t' && c0 <= '\r')) return true;
  // U+0085 and U+00A0 are the other spaces unicode.IsSpace knows below U+0100.
  return field.starts_with("\xC2\x85") || field.starts_with("\xC2\xA0");
}

}  // namespace

api::Status StringValue::set(std::string_view text) {
  *target_ = std::string(text);
  return api::ok_status();
}

api::Status BoolValue::set(std::string_view text) {
  auto v = go::parse_bool(text);
  if (!v) return api::Unexpected{go_flag_ ? go_flag_error(v.error()) : v.error()};
  *target_ = *v;
  return api::ok_status();
}

api::Status IntValue::set(std::string_view text) {
  auto v = go::parse_int(text, 64);
  if (!v) return api::Unexpected{v.error()};
  if (*v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max()) {
    return api::Unexpected{"strconv.ParseInt: parsing " + go::quote(text) + ": value out of range"};
  }
  *target_ = static_cast<int>(*v);
  return api::ok_status();
}

api::Status Int64Value::set(std::string_view text) {
  auto v = go::parse_int(text, 64);
  if (!v) return api::Unexpected{v.error()};
  *target_ = *v;
  return api::ok_status();
}

api::Status UintValue::set(std::string_view text) {
  auto v = go::parse_uint(text, 64);
  if (!v) return api::Unexpected{go_flag_ ? go_flag_error(v.error()) : v.error()};
  *target_ = *v;
  return api::ok_status();
}

api::Status Uint32Value::set(std::string_view text) {
  auto v = go::parse_uint(text, 32);
  if (!v) return api::Unexpected{v.error()};
  *target_ = static_cast<std::uint32_t>(*v);
  return api::ok_status();
}

api::Status FloatValue::set(std::string_view text) {
  auto v = go::parse_float(text, bits_);
  if (!v) return api::Unexpected{v.error()};
  *target_ = *v;
  return api::ok_status();
}

std::string FloatValue::str() const {
  return go::format_float(*target_, bits_);
}

api::Status DurationValue::set(std::string_view text) {
  auto v = go::parse_duration(text);
  if (!v) return api::Unexpected{v.error()};
  *target_ = *v;
  return api::ok_status();
}

std::string DurationValue::str() const {
  return go::format_duration(*target_);
}

api::Status StringListValue::set(std::string_view text) {
  std::vector<std::string> values;
  if (split_) {
    auto record = read_csv_record(text);
    if (!record) return api::Unexpected{record.error()};
    values = std::move(*record);
  } else {
    values.emplace_back(text);
  }
  if (!changed_) target_->clear();
  changed_ = true;
  target_->insert(target_->end(), values.begin(), values.end());
  return api::ok_status();
}

std::string StringListValue::str() const {
  return "[" + write_csv_record(*target_) + "]";
}

api::Expected<std::vector<std::string>> read_csv_record(std::string_view text) {
  std::vector<std::string> fields;
  if (text.empty()) return fields;
  // Only the first line is read, as csv.Reader.Read returns one record.
  if (const size_t eol = text.find('\n'); eol != std::string_view::npos) text = text.substr(0, eol);
  if (text.ends_with('\r')) text.remove_suffix(1);
  size_t i = 0;
  while (true) {
    std::string field;
    if (i < text.size() && text[i] == '"') {
      ++i;
      while (true) {
        if (i >= text.size())
          return api::Unexpected{csv_error(i + 1, "extraneous or missing \" in quoted-field")};
        if (text[i] != '"') {
          field += text[i++];
          continue;
        }
        ++i;  // the quote
        if (i < text.size() && text[i] == '"') {
          field += '"';
          ++i;
          continue;
        }
        if (i == text.size() || text[i] == ',') break;
        return api::Unexpected{csv_error(i, "extraneous or missing \" in quoted-field")};
      }
    } else {
      const size_t end = std::min(text.find(',', i), text.size());
      const std::string_view raw = text.substr(i, end - i);
      if (const size_t q = raw.find('"'); q != std::string_view::npos) {
        return api::Unexpected{csv_error(i + q + 1, "bare \" in non-quoted-field")};
      }
      field = std::string(raw);
      i = end;
    }
    fields.push_back(std::move(field));
    if (i >= text.size()) break;
    ++i;  // the comma
  }
  return fields;
}

std::string write_csv_record(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    if (!needs_quotes(fields[i])) {
      out += fields[i];
      continue;
    }
    out += '"';
    for (const char c : fields[i]) {
      if (c == '"') out += '"';
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace vc::flags
