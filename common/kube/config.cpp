// Loading Config from kubeconfig files, $KUBECONFIG and the in-cluster service account.

#include "common/kube/config.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include "common/kube/token_source.h"

namespace vc::kube {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultInClusterRoot = "/var/run/secrets/kubernetes.io/serviceaccount";

// Where a problem was found: "kubeconfig /home/u/.kube/config: user \"admin\"".
struct Where {
  std::string file;
  std::string section;

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    std::string msg = "kubeconfig " + file;
    if (!section.empty()) msg += ": " + section;
    if (!field.empty()) msg += ": " + field;
    throw ConfigError(msg + ": " + problem);
  }
};

std::string read_text_file(const std::string& path, const Where& where, const std::string& field) {
  std::ifstream in(path, std::ios::binary);
  if (!in) where.fail(field, "cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

// Standard or URL-safe base64; whitespace is skipped, padding is optional.
std::string base64_decode(const std::string& in, const Where& where, const std::string& field) {
  std::string out;
  out.reserve(in.size() * 3 / 4);
  unsigned buffer = 0;
  int bits = 0;
  bool padding = false;
  for (unsigned char c : in) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    const int v = base64_value(c);
    if (v < 0 || padding) where.fail(field, "not valid base64");
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

// The string at node[key]; "" when absent. Fails when present but not a scalar.
std::string str(const YAML::Node& node, const char* key, const Where& where) {
  const YAML::Node v = node[key];
  if (!v || v.IsNull()) return {};
  if (!v.IsScalar()) where.fail(key, "expected a string");
  return v.Scalar();
}

bool boolean(const YAML::Node& node, const char* key, const Where& where) {
  const YAML::Node v = node[key];
  if (!v || v.IsNull()) return false;
  try {
    return v.as<bool>();
  } catch (const YAML::Exception&) {
    where.fail(key, "expected true or false, got \"" + (v.IsScalar() ? v.Scalar() : "?") + "\"");
  }
}

std::string resolve(const std::string& path, const std::string& base_dir) {
  if (path.empty() || fs::path(path).is_absolute() || base_dir.empty()) return path;
  return (fs::path(base_dir) / path).lexically_normal().string();
}

// Data given inline (base64 "<field>-data") or as a file path ("<field>"); the inline form wins.
std::string pem_field(const YAML::Node& node, const std::string& field, const Where& where,
                      const std::string& base_dir) {
  const std::string data_key = field + "-data";
  const std::string data = str(node, data_key.c_str(), where);
  if (!data.empty()) return base64_decode(data, where, data_key);
  const std::string path = str(node, field.c_str(), where);
  if (path.empty()) return {};
  return read_text_file(resolve(path, base_dir), where, field);
}

// Finds the entry called name in the list root[list] and returns its root[list][i][inner] map.
YAML::Node find_named(const YAML::Node& root, const char* list, const char* inner,
                      const std::string& name, const Where& file) {
  const YAML::Node entries = root[list];
  if (entries && !entries.IsSequence()) file.fail(list, "expected a list");
  if (entries) {
    for (const auto& entry : entries) {
      if (!entry.IsMap()) file.fail(list, "expected a list of maps");
      if (str(entry, "name", file) != name) continue;
      const YAML::Node value = entry[inner];
      if (!value || value.IsNull()) return YAML::Node(YAML::NodeType::Map);
      if (!value.IsMap())
        file.fail(std::string(list) + "[" + name + "]." + inner, "expected a map");
      return value;
    }
  }
  file.fail(list, std::string(inner) + " \"" + name + "\" not found");
}

void load_cluster(const YAML::Node& cluster, const Where& where, const std::string& base_dir,
                  Config& c) {
  c.server = str(cluster, "server", where);
  if (c.server.empty()) where.fail("server", "missing");
  c.insecure_skip_tls_verify = boolean(cluster, "insecure-skip-tls-verify", where);
  c.tls_server_name = str(cluster, "tls-server-name", where);
  c.ca_pem = pem_field(cluster, "certificate-authority", where, base_dir);
  if (!str(cluster, "proxy-url", where).empty()) {
    where.fail("proxy-url", "proxies are not supported");
  }
}

void load_user(const YAML::Node& user, const Where& where, const std::string& base_dir, Config& c) {
  constexpr const char* kUse = "; use a token, tokenFile or client certificate";
  if (user["exec"] && !user["exec"].IsNull()) {
    where.fail("", std::string("exec credential plugins are not supported") + kUse);
  }
  if (user["auth-provider"] && !user["auth-provider"].IsNull()) {
    where.fail("", std::string("auth-provider plugins are not supported") + kUse);
  }
  if (!str(user, "username", where).empty() || !str(user, "password", where).empty()) {
    where.fail("", std::string("basic authentication (username/password) is not supported") + kUse);
  }
  c.client_cert_pem = pem_field(user, "client-certificate", where, base_dir);
  c.client_key_pem = pem_field(user, "client-key", where, base_dir);
  if (c.client_cert_pem.empty() != c.client_key_pem.empty()) {
    where.fail(c.client_cert_pem.empty() ? "client-certificate" : "client-key",
               "missing: a client certificate needs both the certificate and its key");
  }
  // As in client-go, an inline token wins over tokenFile.
  const std::string token = str(user, "token", where);
  const std::string token_file = str(user, "tokenFile", where);
  if (!token.empty()) {
    c.token = TokenSource::from_string(token);
  } else if (!token_file.empty()) {
    const std::string path = resolve(token_file, base_dir);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) where.fail("tokenFile", "cannot read " + path);
    c.token = TokenSource::from_file(path);
  }
}

Config parse_kubeconfig(const YAML::Node& root, const std::string& source,
                        const std::string& base_dir, const std::string& context_name) {
  const Where file{source, {}};
  if (!root.IsMap()) file.fail("", "expected a YAML map at the top level");
  std::string ctx_name = context_name;
  if (ctx_name.empty()) ctx_name = str(root, "current-context", file);
  if (ctx_name.empty()) file.fail("current-context", "not set and no context was chosen");
  const YAML::Node context = find_named(root, "contexts", "context", ctx_name, file);
  const Where ctx_where{source, "context \"" + ctx_name + "\""};
  const std::string cluster_name = str(context, "cluster", ctx_where);
  if (cluster_name.empty()) ctx_where.fail("cluster", "missing");
  const std::string user_name = str(context, "user", ctx_where);

  Config c;
  c.namespace_ = str(context, "namespace", ctx_where);
  if (c.namespace_.empty()) c.namespace_ = "default";
  load_cluster(find_named(root, "clusters", "cluster", cluster_name, file),
               {source, "cluster \"" + cluster_name + "\""}, base_dir, c);
  if (!user_name.empty()) {
    load_user(find_named(root, "users", "user", user_name, file), {source, "user " + user_name},
              base_dir, c);
  }
  return c;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool file_exists(const std::string& path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec);
}

}  // namespace

Config Config::from_kubeconfig_yaml(const std::string& yaml, const std::string& base_dir,
                                    const std::string& context) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw ConfigError("kubeconfig (inline): invalid YAML: " + std::string(e.what()));
  }
  return parse_kubeconfig(root, "(inline)", base_dir, context);
}

Config Config::from_kubeconfig_file(const std::string& path, const std::string& context) {
  const Where file{path, {}};
  const std::string text = read_text_file(path, file, "");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    file.fail("", "invalid YAML: " + std::string(e.what()));
  }
  const std::string base_dir = fs::absolute(fs::path(path)).parent_path().string();
  return parse_kubeconfig(root, path, base_dir, context);
}

Config Config::in_cluster(const std::string& root) {
  const std::string host = env("KUBERNETES_SERVICE_HOST");
  const std::string port = env("KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty()) {
    throw ConfigError(
        "in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set");
  }
  const Where where{root, {}};
  Config c;
  c.server =
      "https://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
  const std::string token_path = (fs::path(root) / "token").string();
  if (!file_exists(token_path)) where.fail("token", "cannot read " + token_path);
  c.token = TokenSource::from_file(token_path);
  c.ca_pem = read_text_file((fs::path(root) / "ca.crt").string(), where, "ca.crt");
  const std::string ns_path = (fs::path(root) / "namespace").string();
  if (file_exists(ns_path)) {
    c.namespace_ = read_text_file(ns_path, where, "namespace");
    while (!c.namespace_.empty() && std::isspace(static_cast<unsigned char>(c.namespace_.back()))) {
      c.namespace_.pop_back();
    }
  }
  if (c.namespace_.empty()) c.namespace_ = "default";
  return c;
}

Config Config::load(const std::string& kubeconfig_path, const std::string& master,
                    const std::string& context) {
  Config c;
  bool found = true;
  if (!kubeconfig_path.empty()) {
    c = from_kubeconfig_file(kubeconfig_path, context);
  } else if (const std::string list = env("KUBECONFIG"); !list.empty()) {
    std::string chosen;
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ':');) {
      if (file_exists(item)) {
        chosen = item;
        break;
      }
    }
    if (chosen.empty()) throw ConfigError("$KUBECONFIG=" + list + ": none of these files exists");
    c = from_kubeconfig_file(chosen, context);
  } else if (context.empty() && !env("KUBERNETES_SERVICE_HOST").empty() &&
             file_exists(std::string(kDefaultInClusterRoot) + "/token")) {
    c = in_cluster(kDefaultInClusterRoot);
  } else if (const std::string home = env("HOME");
             !home.empty() && file_exists(home + "/.kube/config")) {
    c = from_kubeconfig_file(home + "/.kube/config", context);
  } else if (!context.empty()) {
    throw ConfigError("context " + context +
                      ": no kubeconfig (pass --kubeconfig, set $KUBECONFIG or create "
                      "~/.kube/config)");
  } else {
    found = false;
  }
  if (!master.empty()) {
    c.server = master;
    if (c.namespace_.empty()) c.namespace_ = "default";
    if (!found) {
      spdlog::warn("kube config: no kubeconfig or in-cluster credentials; using master={} alone",
                   master);
    }
  } else if (!found) {
    throw ConfigError(
        "no kubeconfig: pass --kubeconfig or --master, set $KUBECONFIG, run in a pod with a "
        "service account, or create ~/.kube/config");
  }
  return c;
}

}  // namespace vc::kube
