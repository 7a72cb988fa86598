#pragma once
// Test helper: runs check_main with its standard streams captured.

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "webhook/check/check.h"

namespace vc::webhook::check::testing {

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

// Swaps a stream's buffer for the lifetime of the object.
class StreamSwap {
 public:
  StreamSwap(std::ios& stream, std::streambuf* buffer)
      : stream_(stream), old_(stream.rdbuf(buffer)) {}
  ~StreamSwap() { stream_.rdbuf(old_); }
  StreamSwap(const StreamSwap&) = delete;
  StreamSwap& operator=(const StreamSwap&) = delete;

 private:
  std::ios& stream_;
  std::streambuf* old_;
};

// Runs `check <args...>` with stdin_text on standard input.
inline RunResult run_check_main(std::vector<std::string> args, const std::string& stdin_text = {}) {
  args.insert(args.begin(), "check");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::ostringstream out;
  std::ostringstream err;
  std::istringstream in(stdin_text);
  RunResult result;
  {
    StreamSwap swap_out(std::cout, out.rdbuf());
    StreamSwap swap_err(std::cerr, err.rdbuf());
    StreamSwap swap_in(std::cin, in.rdbuf());
    result.code = check_main(static_cast<int>(args.size()), argv.data());
  }
  result.out = out.str();
  result.err = err.str();
  return result;
}

// The lines of text, without their line breaks.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace vc::webhook::check::testing
