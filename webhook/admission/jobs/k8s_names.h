#pragma once
// Kubernetes format checks the job webhook needs that common/api does not have: environment
// variable names and container ports (pkg/util/validation wording). Label keys, label values
// and DNS names live in common/api/label_validation.h, which carries apimachinery v0.35's
// wording ("bytes", "a valid label key") and is the one source for them.
//
// Threads: pure functions.

#include <string>
#include <string_view>
#include <vector>

#include "common/api/label_validation.h"

namespace vc::webhook::jobs {

// validation.IsEnvVarName.
std::vector<std::string> env_var_name_errors(std::string_view value);
// validation.IsValidPortName.
std::vector<std::string> port_name_errors(std::string_view value);
// validation.IsValidPortNum.
std::vector<std::string> port_number_errors(long long port);
// "must be between lo and hi, inclusive".
std::string inclusive_range_error(long long lo, long long hi);

}  // namespace vc::webhook::jobs
