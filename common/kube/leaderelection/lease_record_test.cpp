#include "common/kube/leaderelection/lease_record.h"

#include <gtest/gtest.h>

namespace vc::kube::leaderelection {
namespace {

using nlohmann::json;
using namespace std::chrono;

const WallTime kT{seconds(1700000000) + microseconds(250)};

TEST(LeaseRecord, ReadsTheSpecFields) {
  const json lease = {{"spec",
                       {{"holderIdentity", "node-a_1"},
                        {"leaseDurationSeconds", 15},
                        {"acquireTime", "2023-11-14T22:13:20.000250Z"},
                        {"renewTime", "2023-11-14T22:13:21.000250Z"},
                        {"leaseTransitions", 4}}}};
  const LeaseRecord r = record_from_lease(lease);
  EXPECT_EQ(r.holder_identity, "node-a_1");
  EXPECT_EQ(r.lease_duration_seconds, 15);
  EXPECT_EQ(r.acquire_time, kT);
  EXPECT_EQ(r.renew_time, kT + seconds(1));
  EXPECT_EQ(r.lease_transitions, 4);
}

TEST(LeaseRecord, MissingOrMalformedFieldsReadAsZero) {
  EXPECT_EQ(record_from_lease(json::object()), LeaseRecord{});
  const LeaseRecord r = record_from_lease(
      {{"spec", {{"holderIdentity", 7}, {"renewTime", "yesterday"}, {"leaseTransitions", "x"}}}});
  EXPECT_EQ(r, LeaseRecord{});
}

TEST(LeaseRecord, PutKeepsOtherFieldsAndWritesMicroTime) {
  json lease = {{"metadata", {{"name", "l"}, {"resourceVersion", "42"}, {"labels", {{"a", "b"}}}}},
                {"spec", {{"strategy", "OldestEmulationVersion"}}}};
  LeaseRecord r{"me", 15, kT, kT, 2};
  put_record(lease, r);
  EXPECT_EQ(lease["metadata"]["resourceVersion"], "42");
  EXPECT_EQ(lease["metadata"]["labels"]["a"], "b");
  EXPECT_EQ(lease["spec"]["strategy"], "OldestEmulationVersion");
  EXPECT_EQ(lease["spec"]["holderIdentity"], "me");
  EXPECT_EQ(lease["spec"]["leaseDurationSeconds"], 15);
  EXPECT_EQ(lease["spec"]["acquireTime"], "2023-11-14T22:13:20.000250Z");
  EXPECT_EQ(lease["spec"]["renewTime"], "2023-11-14T22:13:20.000250Z");
  EXPECT_EQ(lease["spec"]["leaseTransitions"], 2);
  EXPECT_EQ(record_from_lease(lease), r);
}

TEST(LeaseRecord, MakeLeaseIsACoordinationV1Lease) {
  const json lease =
      make_lease("vc-system", "vc-controller-manager", LeaseRecord{"me", 15, kT, kT, 0});
  EXPECT_EQ(lease["apiVersion"], "coordination.k8s.io/v1");
  EXPECT_EQ(lease["kind"], "Lease");
  EXPECT_EQ(lease["metadata"]["namespace"], "vc-system");
  EXPECT_EQ(lease["metadata"]["name"], "vc-controller-manager");
  EXPECT_EQ(lease["spec"]["holderIdentity"], "me");
}

}  // namespace
}  // namespace vc::kube::leaderelection
