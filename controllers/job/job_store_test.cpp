#include "controllers/job/job_store.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

std::shared_ptr<Job> make_job(const std::string& uid, const std::string& rv, const char* phase) {
  auto j = std::make_shared<Job>();
  j->namespace_ = "ns";
  j->name = "job";
  j->uid = uid;
  j->resource_version = rv;
  j->status.phase = phase;
  return j;
}

TEST(JobStoreTest, OurNewerWriteWinsUntilTheInformerCatchesUp) {
  kube::cache::Store informer;
  JobStore jobs(informer);
  informer.upsert(make_job("u1", "10", "Pending"));
  jobs.record_write(make_job("u1", "12", "Running"));
  EXPECT_EQ(jobs.get("ns/job")->status.phase, "Running");
  EXPECT_EQ(jobs.overlay_size(), 1u);

  informer.upsert(make_job("u1", "12", "Running"));
  EXPECT_EQ(jobs.get("ns/job")->resource_version, "12");
  EXPECT_EQ(jobs.overlay_size(), 0u) << "caught-up overlay entry must be dropped";
}

TEST(JobStoreTest, EveryRecordedWriteIsOfferedToTheInformer) {
  kube::cache::Store informer;
  kube::cache::WrittenObjects written;
  JobStore jobs(informer, &written);
  auto job = make_job("u1", "12", "Running");
  jobs.record_write(job);
  EXPECT_EQ(written.take("ns/job", "12"), job) << "the watch event of version 12 reuses it";
}

TEST(JobStoreTest, InformerDecidesExistenceAndIdentity) {
  kube::cache::Store informer;
  JobStore jobs(informer);
  jobs.record_write(make_job("u1", "12", "Running"));
  EXPECT_EQ(jobs.get("ns/job"), nullptr) << "a job the informer does not hold is gone";

  // Re-created with the same name: our write about the old UID must not shadow the new job.
  informer.upsert(make_job("u2", "5", ""));
  EXPECT_EQ(jobs.get("ns/job")->uid, "u2");
}

TEST(JobStoreTest, OlderWriteDoesNotReplaceNewer) {
  kube::cache::Store informer;
  JobStore jobs(informer);
  informer.upsert(make_job("u1", "1", "Pending"));
  jobs.record_write(make_job("u1", "20", "Running"));
  jobs.record_write(make_job("u1", "15", "Pending"));
  EXPECT_EQ(jobs.get("ns/job")->resource_version, "20");
  jobs.forget("ns/job");
  EXPECT_EQ(jobs.get("ns/job")->resource_version, "1");
}

TEST(JobStoreTest, ResourceVersionOrderNeedsNumbers) {
  EXPECT_TRUE(newer_resource_version("11", "9"));
  EXPECT_FALSE(newer_resource_version("9", "11"));
  EXPECT_FALSE(newer_resource_version("abc", "1"));
  EXPECT_FALSE(newer_resource_version("", "1"));
}

}  // namespace
}  // namespace vc::controllers::job
