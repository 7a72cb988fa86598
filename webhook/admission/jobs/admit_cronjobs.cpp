#include <algorithm>
#include <cctype>

#include "common/api/label_validation.h"
#include "common/cron/schedule.h"
#include "common/go/strconv.h"
#include "common/go/time_zone.h"
#include "common/go/unicode.h"
#include "common/volcano/go_types.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/jobs/admit.h"
#include "webhook/admission/jobs/k8s_names.h"
#include "webhook/admission/jobs/semantic.h"
#include "webhook/admission/request_checks.h"

namespace vc::webhook::jobs {
namespace {

// One "/"-separated part of a zone name as Kubernetes' CronJob validation accepts it.
bool zone_part_ok(std::string_view part) {
  if (part == "." || part == ".." || (!part.empty() && part[0] == '-')) return false;
  if (part.empty() || part.size() > 14) return false;
  return std::all_of(part.begin(), part.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ||
           c == '+';
  });
}

std::string time_zone_problems(const std::string& zone) {
  if (zone.empty()) return " timeZone must be nil or non-empty string, got empty string";
  std::string msg;
  std::string_view rest = zone;
  while (true) {
    const auto slash = rest.find('/');
    if (!zone_part_ok(rest.substr(0, slash))) msg += " unknown timeZone";
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  if (go::ascii_equal_fold(zone, "Local")) {
    msg += " timeZone can't be Local, and must be defined in https://www.iana.org/time-zones";
  } else if (!go::Location::load(zone)) {
    msg += " invalid timeZone";
  }
  return msg;
}

}  // namespace

std::string cron_job_problems(const volcano::CronJob& cron_job) {
  std::string msg;
  const std::string& schedule = cron_job.spec.schedule;
  if (schedule.empty()) {
    msg += " schedule is required, but got empty";
  } else if (schedule.find("TZ") != std::string::npos) {
    msg +=
        " schedule should not contain TZ or CRON_TZ, TZ should only be set in the timeZone field";
  } else if (!cron::Schedule::parse(schedule, go::Location::utc())) {
    msg += "schedule is not a valid cron expression";
  }
  if (cron_job.spec.time_zone) msg += time_zone_problems(*cron_job.spec.time_zone);

  const std::string& name = cron_job.name;
  if (name.size() > 52) {
    msg +=
        "cronJob name must be no more than 52 characters to accommodate job name suffix (max "
        "63 total)";
  } else if (auto errs = api::is_qualified_name(name); !errs.empty()) {
    std::string joined;
    for (const auto& e : errs) joined += (joined.empty() ? "" : "; ") + e;
    msg += "invalid cronJob name " + go::quote(name) + ": " + joined;
  }
  return msg;
}

AdmissionResponse admit_cronjobs_validate(const AdmissionRequest& request, const ClusterView&,
                                          const AdmissionOptions&) {
  if (auto err = expect_resource(request, kCronJobsResource)) return AdmissionResponse::deny(*err);
  auto cron_job =
      checked_object(request.object, volcano::go_types::cron_job(), request.nesting_bounded);
  if (!cron_job) return AdmissionResponse::deny(cron_job.error());
  if (request.operation != "CREATE" && request.operation != "UPDATE") {
    return AdmissionResponse::deny("expect operation to be 'CREATE' or 'UPDATE'");
  }
  auto typed = volcano::decode_or_error<volcano::CronJob>([&] {
    volcano::CronJob out;
    volcano::decode_cron_job(**cron_job, out, volcano::FieldPath(), volcano::TemplateMode::kBorrow);
    return out;
  });
  if (!typed) return AdmissionResponse::deny(typed.error());
  std::string msg = cron_job_problems(*typed);
  if (msg.empty()) return AdmissionResponse::allow();
  // Volcano trims the CREATE message only; UPDATE keeps its leading space.
  if (request.operation == "CREATE") msg = go_trim_space(msg);
  return AdmissionResponse::deny(std::move(msg));
}

}  // namespace vc::webhook::jobs
