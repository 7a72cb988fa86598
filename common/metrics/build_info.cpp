#include "common/metrics/build_info.h"

#include <string>

#include <prometheus/family.h>
#include <prometheus/gauge.h>

#include "common/metrics/registry.h"

namespace vc::metrics {

void register_build_info(std::string_view component, const flags::BuildInfo& info) {
  static auto& family = prometheus::BuildGauge()
                            .Name("vc_cpp_build_info")
                            .Help(
                                "Always 1; the labels name the component, version, commit, build "
                                "date, compiler and platform of this build of vc-cpp.")
                            .Register(registry());
  family
      .Add({{"component", std::string(component)},
            {"version", std::string(info.version)},
            {"git_commit", std::string(info.git_commit)},
            {"build_date", std::string(info.build_date)},
            {"compiler", std::string(info.compiler)},
            {"platform", std::string(info.platform)}})
      .Set(1);
}

}  // namespace vc::metrics
