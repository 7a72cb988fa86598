#include "bench/webhook/review_template.h"

#include <array>
#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace vc::bench {
namespace {

constexpr const char* kReview = R"({
  "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
  "request": {"uid": "original", "kind": {"group": "batch.volcano.sh", "version": "v1alpha1",
              "kind": "Job"}, "operation": "CREATE",
              "object": {"metadata": {"name": "j", "uid": "object-uid-stays"}}}})";

std::string uid_of(std::uint32_t run, std::uint32_t conn, std::uint64_t seq) {
  std::array<char, kUidLength> buf{};
  format_uid(run, conn, seq, buf);
  return std::string(buf.data(), buf.size());
}

TEST(ParseBodySpec, FilePathAndExpectation) {
  const auto s = parse_body_spec("reviews/job.json:/jobs/mutate:denied");
  EXPECT_EQ(s.file, "reviews/job.json");
  EXPECT_EQ(s.path, "/jobs/mutate");
  EXPECT_FALSE(s.expect_allowed);
}

TEST(ParseBodySpec, ExpectationDefaultsToAllowed) {
  const auto s = parse_body_spec("q.json:/queues/validate");
  EXPECT_EQ(s.path, "/queues/validate");
  EXPECT_TRUE(s.expect_allowed);
  EXPECT_TRUE(parse_body_spec("q.json:/queues/validate:allowed").expect_allowed);
}

TEST(ParseBodySpec, FileNameMayContainColons) {
  const auto s = parse_body_spec("C:dir/x.json:/pods/validate:allowed");
  EXPECT_EQ(s.file, "C:dir/x.json");
  EXPECT_EQ(s.path, "/pods/validate");
}

TEST(ParseBodySpec, MissingPathOrFileIsRejected) {
  EXPECT_THROW(parse_body_spec("job.json"), std::invalid_argument);
  EXPECT_THROW(parse_body_spec("job.json:jobs/mutate"), std::invalid_argument);
  EXPECT_THROW(parse_body_spec(":/jobs/mutate"), std::invalid_argument);
  EXPECT_THROW(parse_body_spec("job.json:/jobs/mutate:maybe"), std::invalid_argument);
}

TEST(FormatUid, IsUuidShapedAndEncodesItsInputs) {
  EXPECT_EQ(uid_of(0xdeadbeef, 7, 42), "deadbeef-0007-4000-8000-00000000002a");
  EXPECT_EQ(uid_of(0, 0x12345, 0x1'0000'0000'0001ULL), "00000000-2345-4000-8000-000000000001");
}

TEST(FormatUid, DistinctConnectionsAndSequencesGiveDistinctUids) {
  std::set<std::string> seen;
  for (std::uint32_t conn = 0; conn < 64; ++conn) {
    for (std::uint64_t seq = 0; seq < 100; ++seq) seen.insert(uid_of(1, conn, seq));
  }
  EXPECT_EQ(seen.size(), 6400u);
}

TEST(ReviewTemplate, BodyIsTheCompactReviewWithAZeroUidAtTheRecordedOffset) {
  const auto t = ReviewTemplate::parse(kReview);
  EXPECT_EQ(t.body().find('\n'), std::string::npos);
  EXPECT_EQ(t.body().substr(t.uid_offset(), kUidLength), "00000000-0000-0000-0000-000000000000");
  const auto j = nlohmann::json::parse(t.body());
  EXPECT_EQ(j["request"]["uid"], "00000000-0000-0000-0000-000000000000");
  EXPECT_EQ(j["request"]["object"]["metadata"]["uid"], "object-uid-stays");
  EXPECT_EQ(t.describe(), "Job CREATE");
}

TEST(ReviewTemplate, WriteUidChangesOnlyTheRequestUid) {
  const auto t = ReviewTemplate::parse(kReview);
  std::string body = t.body();
  std::array<char, kUidLength> uid{};
  format_uid(9, 3, 5, uid);
  t.write_uid(body, uid);
  const auto j = nlohmann::json::parse(body);
  EXPECT_EQ(j["request"]["uid"], uid_of(9, 3, 5));
  auto expected = nlohmann::json::parse(t.body());
  expected["request"]["uid"] = uid_of(9, 3, 5);
  EXPECT_EQ(j, expected);
  EXPECT_EQ(body.size(), t.body().size());
}

TEST(ReviewTemplate, WriteUidIntoABodyOfAnotherLengthIsAProgrammerError) {
  const auto t = ReviewTemplate::parse(kReview);
  std::string other = t.body() + " ";
  std::array<char, kUidLength> uid{};
  EXPECT_THROW(t.write_uid(other, uid), std::logic_error);
}

TEST(ReviewTemplate, RejectsWhatIsNotAnAdmissionReviewWithAUid) {
  EXPECT_THROW(ReviewTemplate::parse("{"), std::invalid_argument);
  EXPECT_THROW(ReviewTemplate::parse("[]"), std::invalid_argument);
  EXPECT_THROW(ReviewTemplate::parse(R"({"apiVersion":"admission.k8s.io/v1beta1",
      "kind":"AdmissionReview","request":{"uid":"u"}})"),
               std::invalid_argument);
  EXPECT_THROW(ReviewTemplate::parse(R"({"apiVersion":"admission.k8s.io/v1",
      "kind":"AdmissionReview","request":{}})"),
               std::invalid_argument);
  EXPECT_THROW(ReviewTemplate::parse(R"({"apiVersion":"admission.k8s.io/v1",
      "kind":"AdmissionReview","request":{"uid":7}})"),
               std::invalid_argument);
}

}  // namespace
}  // namespace vc::bench
