#include "common/kube/fault_scope.h"

#include "common/kube/errors.h"

namespace vc::kube {
namespace {

thread_local FaultScope* t_current = nullptr;

}  // namespace

FaultScope::FaultScope() : previous_(t_current) {
  t_current = this;
}

FaultScope::~FaultScope() {
  t_current = previous_;
}

FaultScope* FaultScope::current() {
  return t_current;
}

void FaultScope::note_api_error(const ApiError& e) {
  if (t_current != nullptr && is_transient(e)) {
    t_current->transient_.fetch_add(1, std::memory_order_relaxed);
  }
}

void FaultScope::note_exception() {
  if (t_current != nullptr) t_current->exceptions_.fetch_add(1, std::memory_order_relaxed);
}

FaultScope::Adopt::Adopt(FaultScope* scope) : previous_(t_current) {
  t_current = scope;
}

FaultScope::Adopt::~Adopt() {
  t_current = previous_;
}

}  // namespace vc::kube
