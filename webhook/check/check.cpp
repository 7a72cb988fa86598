#include "webhook/check/check.h"

#include <iostream>
#include <variant>

#include "common/log/log.h"
#include "webhook/check/options.h"
#include "webhook/check/run.h"

namespace vc::webhook::check {

// Output format and exit codes: report.h. What is read and how: manifest_reader.h. What runs
// for which kind: routing.h and admit_object.h.
int check_main(int argc, char** argv) {
  auto parsed = parse_check_args(argc, argv, std::cout, std::cerr);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  const CheckOptions& options = std::get<CheckOptions>(parsed);
  // Logs go to stderr; stdout carries only the admitted objects.
  vc::log::setup({.verbosity = options.verbosity});
  return run_check(options, std::cin, std::cout, std::cerr);
}

}  // namespace vc::webhook::check
