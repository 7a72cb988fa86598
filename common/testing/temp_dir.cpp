#include "common/testing/temp_dir.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace vc::testing {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "vc-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("TempDir: mkdtemp failed for " + tmpl);
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& relative, const std::string& content) const {
  const auto full = path_ / relative;
  std::filesystem::create_directories(full.parent_path());
  std::ofstream out(full, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) throw std::runtime_error("TempDir: cannot write " + full.string());
  return full.string();
}

}  // namespace vc::testing
