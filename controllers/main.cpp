// vc-controller-manager: Volcano's controller-manager (controllers/app).

#include "controllers/app/run.h"

int main(int argc, char** argv) {
  return vc::controllers::app::controller_manager_main(argc, argv);
}
