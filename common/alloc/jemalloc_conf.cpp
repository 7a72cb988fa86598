// jemalloc's options, compiled into the binaries that link it (vc_link_allocator in the top
// CMakeLists.txt adds this file to them; MALLOC_CONF in the environment still overrides it).
//
// Why: one job admission review builds and frees a JSON tree of about 900 small blocks.
// jemalloc's per-thread cache keeps at most 200 blocks of a size class by default, so a review
// overflowed it: the frees beyond that were flushed back to the arena and the next review refilled
// the cache from there. With room for 512 blocks of a class (and four slabs' worth for classes
// whose slabs are small) a review's blocks stay in the thread's cache: 7 % fewer instructions per
// job review (callgrind, vc_webhook_app_bench), the same peak RSS in bench-webhook. The cache's
// garbage collection still returns what an idle thread holds.

// jemalloc reads this symbol at its first allocation; Debian's build has no symbol prefix.
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "tcache_nslots_small_max:512,lg_tcache_nslots_mul:2";
}
