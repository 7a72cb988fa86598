#pragma once
// TempDir: a fresh directory under the system temp path, removed with everything in it when the
// object is destroyed. For hermetic tests that need files (kubeconfigs, token files, certs).
//
// Thread-safety: one owner; write() may be called from any thread for distinct files.

#include <filesystem>
#include <string>

namespace vc::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes content to path()/relative (creating parent directories); returns the full path.
  std::string write(const std::string& relative, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

}  // namespace vc::testing
