#pragma once
// Value: one flag's typed storage, parsed and printed as pflag does. The typed values below write
// through to a variable the caller owns (an options struct whose member initialisers are the
// defaults), so the struct stays the single source of truth.
//
//   int port = 8443;
//   IntValue value(&port);
//   value.set("0x10");   // ok, port == 16
//   value.set("abc");    // error `strconv.ParseInt: parsing "abc": invalid syntax`
//
// Thread-safety: none; values are set while parsing the command line, before threads start.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"

namespace vc::flags {

class Value {
 public:
  virtual ~Value() = default;
  // Parses text into the value. The error is the reason (pflag wraps it as
  // `invalid argument "<text>" for "--<flag>" flag: <reason>`).
  virtual api::Status set(std::string_view text) = 0;
  // The current value as text (pflag's String()).
  virtual std::string str() const = 0;
  // The type name shown in --help ("string", "int", "duration", "stringArray", ...); empty for
  // booleans, which need no argument.
  virtual std::string type() const = 0;
  // The value used when the flag is given without "=value"; empty when a value is required.
  virtual std::string no_opt_default() const { return {}; }
};

class StringValue : public Value {
 public:
  explicit StringValue(std::string* target) : target_(target) {}
  api::Status set(std::string_view text) override;
  std::string str() const override { return *target_; }
  std::string type() const override { return "string"; }

 private:
  std::string* target_;
};

class BoolValue : public Value {
 public:
  // go_flag: the error text of Go's flag package ("parse error") instead of strconv's, as for
  // klog's flags.
  explicit BoolValue(bool* target, bool go_flag = false) : target_(target), go_flag_(go_flag) {}
  api::Status set(std::string_view text) override;
  std::string str() const override { return *target_ ? "true" : "false"; }
  std::string type() const override { return ""; }
  std::string no_opt_default() const override { return "true"; }

 private:
  bool* target_;
  bool go_flag_;
};

// int (64-bit, as Go's int on amd64) parsed with base prefixes; stored in an int after a range
// check.
class IntValue : public Value {
 public:
  explicit IntValue(int* target) : target_(target) {}
  api::Status set(std::string_view text) override;
  std::string str() const override { return std::to_string(*target_); }
  std::string type() const override { return "int"; }

 private:
  int* target_;
};

class Int64Value : public Value {
 public:
  explicit Int64Value(std::int64_t* target) : target_(target) {}
  api::Status set(std::string_view text) override;
  std::string str() const override { return std::to_string(*target_); }
  std::string type() const override { return "int"; }

 private:
  std::int64_t* target_;
};

// uint32 and uint64 (bits 32 or 64); go_flag as for BoolValue.
class UintValue : public Value {
 public:
  UintValue(std::uint64_t* target, bool go_flag = false) : target_(target), go_flag_(go_flag) {}
  api::Status set(std::string_view text) override;
  std::string str() const override { return std::to_string(*target_); }
  std::string type() const override { return "uint"; }

 private:
  std::uint64_t* target_;
  bool go_flag_;
};

class Uint32Value : public Value {
 public:
  explicit Uint32Value(std::uint32_t* target) : target_(target) {}
  api::Status set(std::string_view text) override;
  std::string str() const override { return std::to_string(*target_); }
  std::string type() const override { return "uint32"; }

 private:
  std::uint32_t* target_;
};

// float32 (bits 32) or float64.
class FloatValue : public Value {
 public:
  FloatValue(double* target, int bits) : target_(target), bits_(bits) {}
  api::Status set(std::string_view text) override;
  std::string str() const override;
  std::string type() const override { return bits_ == 32 ? "float32" : "float"; }

 private:
  double* target_;
  int bits_;
};

class DurationValue : public Value {
 public:
  explicit DurationValue(std::chrono::nanoseconds* target) : target_(target) {}
  api::Status set(std::string_view text) override;
  std::string str() const override;
  std::string type() const override { return "duration"; }

 private:
  std::chrono::nanoseconds* target_;
};

// stringArray (split = false) or stringSlice (split = true, each value read as one CSV record).
// The first occurrence on the command line replaces the default; later ones append.
class StringListValue : public Value {
 public:
  StringListValue(std::vector<std::string>* target, bool split) : target_(target), split_(split) {}
  api::Status set(std::string_view text) override;
  // "[a,b]", fields quoted as CSV where needed.
  std::string str() const override;
  std::string type() const override { return split_ ? "strings" : "stringArray"; }

 private:
  std::vector<std::string>* target_;
  bool split_;
  bool changed_ = false;
};

// A value with caller-supplied parse and print functions.
class FuncValue : public Value {
 public:
  FuncValue(std::string type, std::function<api::Status(std::string_view)> set,
            std::function<std::string()> str)
      : type_(std::move(type)), set_(std::move(set)), str_(std::move(str)) {}
  api::Status set(std::string_view text) override { return set_(text); }
  std::string str() const override { return str_(); }
  std::string type() const override { return type_; }

 private:
  std::string type_;
  std::function<api::Status(std::string_view)> set_;
  std::function<std::string()> str_;
};

// One CSV record as Go's encoding/csv reads it ("a,\"b,c\"" -> {a, "b,c"}); "" -> {}.
api::Expected<std::vector<std::string>> read_csv_record(std::string_view text);
// The record written as Go's encoding/csv writes it, without the line end.
std::string write_csv_record(const std::vector<std::string>& fields);

}  // namespace vc::flags
