#include "common/kube/token_source.h"

#include <fstream>
#include <sstream>

#include <spdlog/spdlog.h>

namespace vc::kube {
namespace {

class StaticTokenSource : public TokenSource {
 public:
  explicit StaticTokenSource(std::string token) : token_(std::move(token)) {}
  std::string token() override { return token_; }

 private:
  const std::string token_;
};

// The file's content without surrounding whitespace; false when it cannot be read.
bool read_token(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) {
    out.clear();
    return true;
  }
  const auto end = s.find_last_not_of(" \t\r\n");
  out = s.substr(begin, end - begin + 1);
  return true;
}

}  // namespace

FileTokenSource::FileTokenSource(std::string path, std::chrono::milliseconds recheck)
    : path_(std::move(path)), recheck_(recheck) {
  std::error_code ec;
  mtime_ = std::filesystem::last_write_time(path_, ec);
  if (ec || !read_token(path_, token_)) {
    throw ConfigError("tokenFile " + path_ + ": cannot read the token file");
  }
  checked_ = Clock::now();
}

std::string FileTokenSource::token() {
  std::lock_guard lock(mu_);
  reload_if_changed();
  return token_;
}

void FileTokenSource::reload_if_changed() {
  const auto now = Clock::now();
  if (now - checked_ < recheck_) return;
  checked_ = now;
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(path_, ec);
  if (ec) {
    spdlog::warn("kube token: cannot stat token file, keeping the previous token path={} error={}",
                 path_, ec.message());
    return;
  }
  if (mtime == mtime_) return;
  std::string fresh;
  if (!read_token(path_, fresh) || fresh.empty()) {
    // Mid-rotation the file may be briefly empty; the old token stays valid for a while.
    spdlog::warn("kube token: token file unreadable or empty, keeping the previous token path={}",
                 path_);
    return;
  }
  mtime_ = mtime;
  token_ = std::move(fresh);
  spdlog::info("kube token: reloaded rotated token path={}", path_);
}

std::shared_ptr<TokenSource> token_from_file(std::string path, std::chrono::milliseconds recheck) {
  return std::make_shared<FileTokenSource>(std::move(path), recheck);
}

std::shared_ptr<TokenSource> TokenSource::from_string(std::string token) {
  return std::make_shared<StaticTokenSource>(std::move(token));
}

std::shared_ptr<TokenSource> TokenSource::from_file(std::string path) {
  return token_from_file(std::move(path), std::chrono::minutes(1));
}

}  // namespace vc::kube
