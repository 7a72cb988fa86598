// Linked into the test binaries of the ThreadSanitizer build only (VC_TSAN in CMakeLists.txt).
//
// The binaries call log::setup() in main() before they start a thread, so spdlog's registry
// (a function-local static inside libspdlog.so) exists before any thread logs. The unit tests
// never call setup(): their first log line, often from an informer's or a server's thread, would
// build the registry there. That is correct (a C++ static's initialization is thread-safe), but
// libspdlog.so is not instrumented, so TSan cannot see the initialization guard that orders the
// registry's construction before a second thread's first log call, and it reports a race on the
// default logger's level. Building the registry during static initialization, on the main thread,
// does what main() does and leaves TSan nothing to guess.
#include <spdlog/spdlog.h>

namespace {

const bool registry_built = spdlog::default_logger_raw() != nullptr;

}  // namespace
