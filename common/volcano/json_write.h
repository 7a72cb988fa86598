#pragma once
// Writers for status encoders that must produce what Go's encoding/json produces for the same
// struct: a field tagged `omitempty` is left out when it holds its zero value (empty string,
// 0, false, nil or empty slice and map, nil pointer), but a struct-typed field is never left
// out, and metav1.Time marshals its zero value as JSON null. Each writer names the Go shape it
// stands for.
//
// Threads: pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"

namespace vc::volcano::write {

// `string ,omitempty`.
void nonempty(nlohmann::json& out, const char* key, const std::string& v);
// `int32/int64 ,omitempty`.
void nonzero(nlohmann::json& out, const char* key, std::int64_t v);
// `[]string ,omitempty`.
void strings(nlohmann::json& out, const char* key, const std::vector<std::string>& v);
// `*metav1.Time ,omitempty`: left out when unset.
void time_if_set(nlohmann::json& out, const char* key, const std::optional<api::TimePoint>& t);
// `[]T ,omitempty`, each element written by encode(element).
template <class T, class Encode>
void list(nlohmann::json& out, const char* key, const std::vector<T>& items, Encode&& encode) {
  if (items.empty()) return;
  nlohmann::json list = nlohmann::json::array();
  for (const T& item : items) list.push_back(encode(item));
  out[key] = std::move(list);
}
// `metav1.Time` (with or without omitempty, a struct is always written): RFC 3339 with whole
// seconds, or null for the zero time.
nlohmann::json time_or_null(const std::optional<api::TimePoint>& t);

}  // namespace vc::volcano::write
