// vc-controller-manager: Volcano's controller-manager (controllers/app).

#include <malloc.h>

#include <cstdlib>

#include "controllers/app/run.h"

int main(int argc, char** argv) {
  // glibc gives each thread that allocates its own arena (up to 8 per core) and keeps freed
  // memory in each; the controllers' workers and informers all allocate, so their arenas' free
  // space added up to a fifth of the peak RSS in bench-controller. Two arenas cost less CPU there
  // than the run-to-run noise. MALLOC_ARENA_MAX in the environment still decides when set.
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 2);
  return vc::controllers::app::controller_manager_main(argc, argv);
}
