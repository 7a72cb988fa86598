// vc-cpp: user commands. `vc-cpp explain` (controllers/explain/command.h); installed as
// kubectl-vcjob it is the kubectl plugin `kubectl vcjob explain`.

#include "controllers/explain/command.h"

int main(int argc, char** argv) {
  return vc::controllers::explain::explain_main(argc, argv);
}
