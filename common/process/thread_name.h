#pragma once
// Names the calling thread (what top -H, perf and /proc/PID/task/TID/comm show), so an operator
// can tell an informer's reflector from a worker when one of them burns CPU. Linux keeps 15
// bytes: longer names are cut. Header-only so that every module may call it without a link
// dependency.

#include <pthread.h>

#include <string>
#include <string_view>

namespace vc {

inline void set_thread_name(std::string_view name) {
  constexpr std::size_t kMax = 15;  // plus the terminating NUL: the kernel's 16 bytes
  const std::string cut(name.substr(0, kMax));
  pthread_setname_np(pthread_self(), cut.c_str());
}

}  // namespace vc
