#pragma once
// PodTemplate: a task's v1.PodTemplateSpec, parsed once and shared. The controllers' decoder
// interns each template by its content, so every cached version of a Job (a status write makes a
// new one) and every Job of a workload with the same template point to one immutable document:
// building pods and computing minResources read it directly, never parsing text again, and a
// template costs memory once however many Jobs and versions carry it. An interned template
// lives while a cached Job holds it.
//
// Threads: a PodTemplate is immutable; from_json may be called from any thread.

#include <memory>

#include <nlohmann/json.hpp>

namespace vc::volcano {

class PodTemplate {
 public:
  // The empty template ({}), as a task without one has.
  PodTemplate();
  // The shared template equal to tmpl (an object).
  static PodTemplate from_json(const nlohmann::json& tmpl);
  // tmpl itself, not copied and not owned: for a decode whose result lives shorter than its
  // input (an admission review's Job is read once while the review is alive).
  static PodTemplate borrow(const nlohmann::json& tmpl);

  const nlohmann::json& json() const { return *doc_; }
  // The shared document, for caches keyed by template identity (hold it weakly).
  const std::shared_ptr<const nlohmann::json>& shared() const { return doc_; }

  // Content equality (interned templates with equal content are one document).
  friend bool operator==(const PodTemplate& a, const PodTemplate& b) {
    return a.doc_ == b.doc_ || *a.doc_ == *b.doc_;
  }

 private:
  explicit PodTemplate(std::shared_ptr<const nlohmann::json> doc) : doc_(std::move(doc)) {}
  std::shared_ptr<const nlohmann::json> doc_;  // never null
};

// Distinct templates alive in the intern table (for tests and diagnostics).
std::size_t interned_pod_templates();

}  // namespace vc::volcano
