#include "webhook/check/inputs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace vc::webhook::check {
namespace {

bool manifest_extension(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

std::vector<Source> expand_sources(const std::vector<std::string>& arguments) {
  namespace fs = std::filesystem;
  std::vector<Source> sources;
  for (const std::string& arg : arguments) {
    if (arg == "-") {
      sources.push_back({"stdin", "", true, ""});
      continue;
    }
    if (arg.starts_with("http://") || arg.starts_with("https://")) {
      sources.push_back({arg, arg, false, "URLs are not supported; download the file first"});
      continue;
    }
    std::error_code ec;
    if (!fs::is_directory(arg, ec)) {
      sources.push_back({arg, arg, false, ""});
      continue;
    }
    std::vector<std::string> files;
    for (fs::directory_iterator it(arg, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code type_ec;
      if (it->is_regular_file(type_ec) && manifest_extension(it->path())) {
        files.push_back(it->path().string());
      }
    }
    if (ec) {
      sources.push_back({arg, arg, false, "cannot list directory: " + ec.message()});
      continue;
    }
    if (files.empty()) {
      sources.push_back({arg, arg, false, "no .yaml, .yml or .json files in this directory"});
      continue;
    }
    std::sort(files.begin(), files.end());
    for (std::string& f : files) sources.push_back({f, f, false, ""});
  }
  return sources;
}

api::Expected<std::string> read_source(const Source& source, std::istream& stdin_stream) {
  if (!source.error.empty()) return api::Unexpected{source.error};
  if (source.is_stdin) {
    std::ostringstream text;
    text << stdin_stream.rdbuf();
    if (stdin_stream.bad()) return api::Unexpected{"cannot read standard input"};
    return text.str();
  }
  std::ifstream in(source.path, std::ios::binary);
  if (!in) return api::Unexpected{std::string("cannot read: ") + std::strerror(errno)};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return api::Unexpected{std::string("cannot read: ") + std::strerror(errno)};
  return text;
}

}  // namespace vc::webhook::check
