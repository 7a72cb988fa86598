#pragma once
// TokenSource implementations (the interface is in config.h). A file token is re-read when the
// file's modification time changes, checked at most once per recheck interval, so a rotated
// projected service-account token is picked up without a restart.
//
// Thread-safety: token() may be called from any thread.

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "common/kube/config.h"

namespace vc::kube {

class FileTokenSource : public TokenSource {
 public:
  using Clock = std::chrono::steady_clock;

  // Reads the file now; throws ConfigError when it cannot be read.
  FileTokenSource(std::string path, std::chrono::milliseconds recheck);
  std::string token() override;

 private:
  void reload_if_changed();

  const std::string path_;
  const std::chrono::milliseconds recheck_;
  std::mutex mu_;
  std::string token_;                        // guarded by mu_
  std::filesystem::file_time_type mtime_{};  // guarded by mu_
  Clock::time_point checked_{};              // guarded by mu_
};

// from_file with an explicit recheck interval (tests use zero: check on every call).
std::shared_ptr<TokenSource> token_from_file(std::string path, std::chrono::milliseconds recheck);

}  // namespace vc::kube
