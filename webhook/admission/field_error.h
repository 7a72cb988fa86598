#pragma once
// Kubernetes-style field errors (apimachinery field.Error / ErrorList) with the exact message
// format Volcano's webhooks return (spec webhook.md §2.0 "Message-formatting helpers"):
//   "<path>: <type text>: <value>: <detail>"
// and ErrorList.ToAggregate: de-duplicated, one message alone or "[m1, m2]".

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/label_validation.h"
#include "common/go/json_marshal.h"  // marshal_json, used with field errors everywhere

namespace vc::webhook {

// A field path: segments joined with ".", indices as "[i]". FieldPath("") renders as "[]" when
// it has children, as Kubernetes' NewPath("") does.
//
// The admit rules build a path for every field they look at and print few of them: the text
// lives in the object itself up to kInline bytes (a pod template's deepest paths are about 60),
// so making one is a copy, not an allocation. Longer paths go to the heap.
class FieldPath {
 public:
  explicit FieldPath(std::string_view root) { assign(root, {}, {}, {}); }
  FieldPath(const FieldPath& other) { assign(other.view(), {}, {}, {}); }
  FieldPath& operator=(const FieldPath& other);
  FieldPath child(std::string_view name) const;
  FieldPath index(std::size_t i) const;
  FieldPath key(std::string_view k) const;  // "[k]"
  std::string str() const { return std::string(view()); }
  std::string_view view() const {
    return size_ <= kInline ? std::string_view(inline_, size_) : std::string_view(heap_);
  }

 private:
  static constexpr std::size_t kInline = 96;
  FieldPath() = default;
  // Sets the text to base + a + b + c (none of which may point into this object).
  void assign(std::string_view base, std::string_view a, std::string_view b, std::string_view c);

  std::size_t size_ = 0;
  char inline_[kInline];
  std::string heap_;  // the text when size_ > kInline
};

// How a bad value is printed in a field error.
struct BadValue {
  // Go string value: printed with %q.
  static BadValue str(std::string_view s);
  // Integers, floats, bools: printed with %v.
  static BadValue number(long long v);
  static BadValue boolean(bool v);
  // Anything else (named string types, quantities, slices, maps): JSON, HTML-escaped like Go.
  static BadValue json_value(const nlohmann::json& v);
  std::string rendered;
};

enum class FieldErrorType {
  Invalid,       // "Invalid value"
  Required,      // "Required value" (value omitted)
  Forbidden,     // "Forbidden" (value omitted)
  NotSupported,  // "Unsupported value"
  NotFound,      // "Not found"
  Duplicate,     // "Duplicate value"
  TooLong,       // "Too long" (value omitted)
  TooMany,       // "Too many"
  Internal,      // "Internal error" (value omitted)
};

struct FieldError {
  FieldErrorType type = FieldErrorType::Invalid;
  std::string field;
  BadValue value;
  std::string detail;

  std::string message() const;
};

FieldError invalid(const FieldPath& p, BadValue v, std::string detail);
FieldError required(const FieldPath& p, std::string detail);
FieldError forbidden(const FieldPath& p, std::string detail);
FieldError not_supported(const FieldPath& p, BadValue v, const std::vector<std::string>& valid);
FieldError duplicate(const FieldPath& p, BadValue v);

class FieldErrorList {
 public:
  void add(FieldError e) { errors_.push_back(std::move(e)); }
  void append(const FieldErrorList& other);
  bool empty() const { return errors_.empty(); }
  const std::vector<FieldError>& errors() const { return errors_; }
  // ToAggregate().Error(): "" when empty.
  std::string aggregate() const;

 private:
  std::vector<FieldError> errors_;
};

}  // namespace vc::webhook
