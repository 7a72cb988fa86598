#include "bench/webhook/target_url.h"

#include <charconv>
#include <stdexcept>

namespace vc::bench {

TargetUrl parse_target_url(std::string_view url) {
  const std::string original(url);
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("--url '" + original + "': " + why);
  };
  constexpr std::string_view kScheme = "https://";
  if (url.substr(0, kScheme.size()) != kScheme) throw bad("must start with https://");
  url.remove_prefix(kScheme.size());
  if (!url.empty() && url.back() == '/') url.remove_suffix(1);
  if (url.find('/') != std::string_view::npos) {
    throw bad("give no path; the paths come with --body");
  }
  TargetUrl out;
  bool has_port = false;
  std::string_view port;
  if (!url.empty() && url.front() == '[') {
    const auto close = url.find(']');
    if (close == std::string_view::npos) throw bad("unterminated '[' in IPv6 address");
    out.host = std::string(url.substr(1, close - 1));
    const std::string_view rest = url.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') throw bad("expected ':' after ']'");
      has_port = true;
      port = rest.substr(1);
    }
  } else {
    const auto colon = url.rfind(':');
    out.host = std::string(url.substr(0, colon));
    if (colon != std::string_view::npos) {
      has_port = true;
      port = url.substr(colon + 1);
    }
  }
  if (out.host.empty()) throw bad("no host");
  if (has_port) {
    unsigned value = 0;
    const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || ptr != port.data() + port.size() || value == 0 || value > 65535) {
      throw bad("bad port '" + std::string(port) + "'");
    }
    out.port = static_cast<std::uint16_t>(value);
  }
  return out;
}

}  // namespace vc::bench
