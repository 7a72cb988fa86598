#pragma once
// One `check` run over parsed options: load the pod admission configuration, connect to the
// cluster when asked, then read every source, admit every object in order, print what would be
// stored to out and the result lines (report.h) to err.
//
// Threads: call from one thread; the streams are used by this call only.

#include <istream>
#include <ostream>

#include "webhook/check/options.h"

namespace vc::webhook::check {

// Returns the exit code (report.h).
int run_check(const CheckOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace vc::webhook::check
