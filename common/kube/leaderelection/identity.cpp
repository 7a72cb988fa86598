#include "common/kube/leaderelection/identity.h"

#include <unistd.h>

#include <array>
#include <climits>
#include <cstdint>
#include <random>

#include <fmt/format.h>

namespace vc::kube::leaderelection {
namespace {

// A version 4 (random) UUID.
std::string random_uuid() {
  std::random_device rd;
  std::array<std::uint8_t, 16> b{};
  for (auto& byte : b) byte = static_cast<std::uint8_t>(rd());
  b[6] = static_cast<std::uint8_t>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<std::uint8_t>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  return fmt::format(
      "{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:"
      "02x}"
      "{:02x}",
      b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
      b[15]);
}

}  // namespace

std::string make_identity() {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') {
    // Still unique thanks to the UUID; the name only helps people reading the Lease.
    return "unknown_" + random_uuid();
  }
  return std::string(host) + "_" + random_uuid();
}

}  // namespace vc::kube::leaderelection
