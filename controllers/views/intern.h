#pragma once
// intern(): one shared copy of a string drawn from a small, bounded set (annotation keys,
// resource names, owner apiVersions and kinds, scheduler names). Cached views keep a
// std::string_view to the shared copy instead of a std::string per object: 16 bytes and no heap
// block, where a key such as "volcano.sh/job-name" would otherwise cost a 32-byte std::string plus
// a heap block in every cached pod.
//
// Interned strings live until the process ends, so only intern values whose set is bounded in
// practice (never names, UIDs or label values).
//
// Threads: callable from any thread; the returned view stays valid forever.

#include <string_view>

namespace vc::controllers::views {

std::string_view intern(std::string_view s);
// How many distinct strings have been interned (for tests and diagnostics).
std::size_t interned_count();

}  // namespace vc::controllers::views
