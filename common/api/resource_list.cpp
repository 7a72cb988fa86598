#include "common/api/resource_list.h"

namespace vc::api {

ResourceList add(const ResourceList& a, const ResourceList& b) {
  ResourceList sum = a;
  add_to(sum, b);
  return sum;
}

void add_to(ResourceList& into, const ResourceList& b) {
  for (const auto& [name, quantity] : b) {
    // A resource new to `into` is copied, so it keeps its printed form (as Kubernetes' quota
    // helpers do); an existing one is summed.
    auto [it, inserted] = into.try_emplace(name, quantity);
    if (!inserted) it->second.add(quantity);
  }
}

ResourceList sub(const ResourceList& a, const ResourceList& b) {
  ResourceList difference = a;
  for (const auto& [name, quantity] : b) difference[name].sub(quantity);
  return difference;
}

ResourceList multiply(const ResourceList& a, std::int64_t factor) {
  ResourceList product = a;
  for (auto& [name, quantity] : product) quantity.mul(factor);
  return product;
}

bool less_equal(const ResourceList& a, const ResourceList& b, MissingDimension missing) {
  const bool unlimited = missing == MissingDimension::Unlimited;
  // Walk both sorted maps together so every name on either side is checked once.
  auto ia = a.begin();
  auto ib = b.begin();
  while (ia != a.end() || ib != b.end()) {
    if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) {
      // Only a lists it: b is zero or unlimited.
      if (!unlimited && ia->second.sign() > 0) return false;
      ++ia;
    } else if (ia == a.end() || ib->first < ia->first) {
      // Only b lists it: a is zero (fits unless b is negative) or unlimited (never fits).
      if (unlimited || ib->second.sign() < 0) return false;
      ++ib;
    } else {
      if (ia->second > ib->second) return false;
      ++ia;
      ++ib;
    }
  }
  return true;
}

bool is_zero(const ResourceList& list) {
  for (const auto& [name, quantity] : list) {
    if (!quantity.is_zero()) return false;
  }
  return true;
}

std::string describe(const ResourceList& list) {
  if (list.empty()) return "<none>";
  std::string out;
  for (const auto& [name, quantity] : list) {
    if (!out.empty()) out.append(", ");
    out.append(name).append(": ").append(quantity.to_string());
  }
  return out;
}

Expected<ResourceList> resource_list_from_json(const nlohmann::json& j, std::string_view path) {
  if (j.is_null()) return ResourceList{};
  if (!j.is_object()) {
    return Unexpected{std::string(path.empty() ? "" : std::string(path) + ": ") +
                      "expected a JSON object of quantities, got " + j.type_name()};
  }
  ResourceList list;
  for (const auto& [name, value] : j.items()) {
    auto quantity = quantity_from_json(value);
    if (!quantity) {
      return Unexpected{std::string(path) + "[" + name + "]: " + quantity.error()};
    }
    list.emplace(name, std::move(quantity).value());
  }
  return list;
}

}  // namespace vc::api
