#include "controllers/job/request_codec.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

Request job_req(const char* ns, const char* name, const char* ev) {
  Request r;
  r.namespace_ = ns;
  r.job_name = name;
  r.event = ev;
  return r;
}

TEST(RequestCodecTest, RoundTripsEveryField) {
  Request r{.namespace_ = "ns",
            .job_name = "job",
            .job_uid = "uid-1",
            .task_name = "worker",
            .pod_name = "job-worker-3",
            .pod_uid = "pod-uid",
            .partition_id = "1",
            .event = "PodFailed",
            .action = "RestartJob",
            .exit_code = -137,
            .job_version = 4};
  auto back = decode_request(encode_request(r));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, r);
}

TEST(RequestCodecTest, EqualRequestsShareAKeyAndDifferentOnesDoNot) {
  Request a = job_req("ns", "job", "OutOfSync");
  Request b = a;
  EXPECT_EQ(encode_request(a), encode_request(b));
  b.job_version = 1;
  EXPECT_NE(encode_request(a), encode_request(b));
  // Moving text between neighbouring fields must give another key.
  Request c = job_req("n", "sjob", "OutOfSync");
  Request d = job_req("ns", "job", "OutOfSync");
  EXPECT_NE(encode_request(c), encode_request(d));
}

TEST(RequestCodecTest, RejectsForeignKeys) {
  EXPECT_FALSE(decode_request("ns/job").has_value());
  EXPECT_FALSE(decode_request("").has_value());
  Request r = job_req("ns", "job", "");
  std::string key = encode_request(r);
  key.back() = 'x';  // job_version no longer a number
  EXPECT_FALSE(decode_request(key).has_value());
}

}  // namespace
}  // namespace vc::controllers::job
