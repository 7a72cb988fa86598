#pragma once
// volcano_jobflow_succeed_phase_count and volcano_jobflow_failed_phase_count
// {jobflow_namespace}: counters of JobFlows that reached Succeed, or Failed from Pending, as
// Volcano counts them (spec controller-manager.md §5.2).
//
//
// vc_cpp_jobflow_probe_checks_total{kind, result} (ours, --jobflow-probes): network probe checks
// run, by kind (tcpSocket, httpGet) and result (passed, failed).
//
// Threads: safe from any thread.

#include <string>

namespace vc::controllers::jobflow {

void count_succeeded(const std::string& ns);
void count_failed(const std::string& ns);
void count_probe_check(const std::string& kind, bool passed);

}  // namespace vc::controllers::jobflow
