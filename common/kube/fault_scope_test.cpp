#include "common/kube/fault_scope.h"

#include <thread>

#include <gtest/gtest.h>

#include "common/kube/errors.h"

namespace vc::kube {
namespace {

TEST(FaultScope, CountsOnlyTransientErrorsAndOnlyInsideTheScope) {
  FaultScope::note_api_error(transport_error("no scope: ignored"));
  FaultScope scope;
  EXPECT_EQ(FaultScope::current(), &scope);
  FaultScope::note_api_error(error_from_response(404, "", ""));
  FaultScope::note_api_error(error_from_response(422, "", ""));
  EXPECT_EQ(scope.transient_errors(), 0);
  FaultScope::note_api_error(error_from_response(500, "", ""));
  FaultScope::note_api_error(transport_error("reset"));
  EXPECT_EQ(scope.transient_errors(), 2);
  FaultScope::note_exception();
  EXPECT_EQ(scope.exceptions(), 1);
}

TEST(FaultScope, NestedScopesRestoreTheOuterOne) {
  FaultScope outer;
  {
    FaultScope inner;
    FaultScope::note_api_error(transport_error("x"));
    EXPECT_EQ(inner.transient_errors(), 1);
  }
  EXPECT_EQ(FaultScope::current(), &outer);
  EXPECT_EQ(outer.transient_errors(), 0);
}

TEST(FaultScope, AnAdoptingThreadNotesIntoTheOwnersScope) {
  FaultScope scope;
  std::thread helper([&scope] {
    EXPECT_EQ(FaultScope::current(), nullptr);
    {
      FaultScope::Adopt adopt(&scope);
      FaultScope::note_api_error(error_from_response(503, "", ""));
    }
    EXPECT_EQ(FaultScope::current(), nullptr);
    FaultScope::note_api_error(error_from_response(503, "", ""));  // no scope any more
  });
  helper.join();
  EXPECT_EQ(scope.transient_errors(), 1);
}

}  // namespace
}  // namespace vc::kube
