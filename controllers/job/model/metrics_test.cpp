#include "controllers/job/model/metrics.h"

#include <cmath>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/metrics/registry.h"

namespace vc::controllers::job {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Job job(const std::string& ns, const std::string& name, const std::string& queue) {
  Job j;
  j.namespace_ = ns;
  j.name = name;
  j.spec.queue = queue;
  return j;
}

TEST(JobMetrics, RegisteringShowsTheLatencyHistogramBeforeAnyObservation) {
  register_job_metrics();
  register_job_metrics();
  EXPECT_THAT(vc::metrics::render_text(),
              HasSubstr("# TYPE volcano_controller_job_to_pod_creation_latency_milliseconds "
                        "histogram"));
}

TEST(JobMetrics, CompletedAndFailedCountPerJobAndQueue) {
  const Job j = job("metrics-ns", "done-job", "q1");
  job_completed(j);
  job_completed(j);
  job_failed(j);
  const std::string text = vc::metrics::render_text();
  EXPECT_THAT(text, HasSubstr("# HELP volcano_job_completed_phase_count Number of job completed "
                              "phase"));
  EXPECT_THAT(text, HasSubstr("volcano_job_completed_phase_count{job_name=\"metrics-ns/done-job\","
                              "queue_name=\"q1\"} 2"));
  EXPECT_THAT(text, HasSubstr("volcano_job_failed_phase_count{job_name=\"metrics-ns/done-job\","
                              "queue_name=\"q1\"} 1"));
}

TEST(JobMetrics, DeleteJobSeriesRemovesBothSeriesOfThatJobOnly) {
  job_completed(job("metrics-ns", "gone", "q"));
  job_failed(job("metrics-ns", "gone", "q"));
  job_failed(job("metrics-ns", "kept", "q"));
  delete_job_series("metrics-ns", "gone", "q");
  delete_job_series("metrics-ns", "never-seen", "q");  // no series: nothing to do
  const std::string text = vc::metrics::render_text();
  EXPECT_THAT(text, Not(HasSubstr("job_name=\"metrics-ns/gone\"")));
  EXPECT_THAT(text, HasSubstr("volcano_job_failed_phase_count{job_name=\"metrics-ns/kept\","
                              "queue_name=\"q\"} 1"));
}

TEST(JobMetrics, LatencyBucketsAreExponentialBucketsRange50To60000Of30) {
  const std::vector<double> b = pod_creation_latency_buckets();
  ASSERT_EQ(b.size(), 30u);
  EXPECT_DOUBLE_EQ(b.front(), 50);
  EXPECT_NEAR(b.back(), 60000, 1e-6);
  for (std::size_t i = 1; i < b.size(); ++i) {
    EXPECT_NEAR(b[i] / b[i - 1], std::pow(1200.0, 1.0 / 29), 1e-12) << i;
  }
}

TEST(JobMetrics, LatencyObservationsLandInTheHistogram) {
  observe_pod_creation_latency(std::chrono::milliseconds(40));
  observe_pod_creation_latency(std::chrono::milliseconds(70000));
  const std::string text = vc::metrics::render_text();
  const std::string name = "volcano_controller_job_to_pod_creation_latency_milliseconds";
  EXPECT_THAT(text, HasSubstr(name + "_count 2"));
  EXPECT_THAT(text, HasSubstr(name + "_sum 70040"));
  EXPECT_THAT(text, HasSubstr(name + "_bucket{le=\"50\"} 1"));
  EXPECT_THAT(text, HasSubstr(name + "_bucket{le=\"+Inf\"} 2"));
}

}  // namespace
}  // namespace vc::controllers::job
