#include <gtest/gtest.h>

#include "common/kube/errors.h"
#include "common/kube/result.h"

namespace vc::kube {
namespace {

std::string status_body(int code, const std::string& reason, const std::string& message,
                        const nlohmann::json& details = nullptr) {
  nlohmann::json j = {{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Failure"},
                      {"reason", reason}, {"message", message}, {"code", code}};
  if (!details.is_null()) j["details"] = details;
  return j.dump();
}

TEST(Errors, NotFoundStatusDecodesReasonAndMessage) {
  auto e = error_from_response(404, status_body(404, "NotFound", "pods \"x\" not found"), "");
  EXPECT_EQ(e.kind, ErrorKind::NotFound);
  EXPECT_EQ(e.http_status, 404);
  EXPECT_EQ(e.reason, "NotFound");
  EXPECT_EQ(e.message, "pods \"x\" not found");
  EXPECT_FALSE(e.retryable());
  EXPECT_EQ(e.describe(), "NotFound (404): pods \"x\" not found");
}

TEST(Errors, Status409IsAlreadyExistsOrConflictByReason) {
  EXPECT_EQ(error_from_response(409, status_body(409, "AlreadyExists", "exists"), "").kind,
            ErrorKind::AlreadyExists);
  EXPECT_EQ(error_from_response(409, status_body(409, "Conflict", "modified"), "").kind,
            ErrorKind::Conflict);
  EXPECT_EQ(error_from_response(409, "", "").kind, ErrorKind::Conflict);
}

TEST(Errors, GoneAndExpiredAreGone) {
  EXPECT_EQ(error_from_response(410, status_body(410, "Gone", "too old"), "").kind,
            ErrorKind::Gone);
  EXPECT_EQ(error_from_response(410, status_body(410, "Expired", "too old"), "").kind,
            ErrorKind::Gone);
  EXPECT_EQ(error_from_response(410, "", "").kind, ErrorKind::Gone);
}

TEST(Errors, InvalidCarriesFieldCauses) {
  nlohmann::json details = {
      {"name", "j"},
      {"kind", "jobs"},
      {"causes",
       {{{"reason", "FieldValueRequired"}, {"field", "spec.queue"}, {"message", "Required value"}},
        {{"reason", "FieldValueInvalid"}, {"field", "spec.minAvailable"}, {"message", "bad"}}}}};
  auto e = error_from_response(
      422, status_body(422, "Invalid", "Job.batch.volcano.sh \"j\" is invalid", details), "");
  EXPECT_EQ(e.kind, ErrorKind::Invalid);
  ASSERT_EQ(e.causes.size(), 2u);
  EXPECT_EQ(e.causes[0].type, "FieldValueRequired");
  EXPECT_EQ(e.causes[0].field, "spec.queue");
  EXPECT_EQ(e.causes[0].message, "Required value");
  EXPECT_EQ(e.causes[1].field, "spec.minAvailable");
  const std::string d = e.describe();
  EXPECT_NE(d.find("spec.queue: Required value"), std::string::npos) << d;
  EXPECT_NE(d.find("Invalid (422)"), std::string::npos) << d;
}

TEST(Errors, ANamespaceBeingDeletedIsForbiddenWithItsCause) {
  nlohmann::json details = {{"causes",
                             {{{"reason", "NamespaceTerminating"},
                               {"message", "namespace ns is being terminated"},
                               {"field", "metadata.namespace"}}}}};
  auto e = error_from_response(
      403,
      status_body(403, "Forbidden",
                  "pods \"p\" is forbidden: unable to create new content in namespace ns "
                  "because it is being terminated",
                  details),
      "");
  EXPECT_EQ(e.kind, ErrorKind::Forbidden);
  EXPECT_TRUE(e.has_cause(kNamespaceTerminatingCause));
  EXPECT_FALSE(e.has_cause("FieldValueInvalid"));
  auto rbac = error_from_response(403, status_body(403, "Forbidden", "pods is forbidden"), "");
  EXPECT_EQ(rbac.kind, ErrorKind::Forbidden);
  EXPECT_FALSE(rbac.has_cause(kNamespaceTerminatingCause)) << "a plain RBAC denial is not it";
}

TEST(Errors, TooManyRequestsTakesRetryAfterFromHeaderOverBody) {
  auto e = error_from_response(
      429, status_body(429, "TooManyRequests", "slow down", {{"retryAfterSeconds", 7}}), "3");
  EXPECT_EQ(e.kind, ErrorKind::TooManyRequests);
  ASSERT_TRUE(e.retry_after.has_value());
  EXPECT_EQ(*e.retry_after, std::chrono::seconds(3));
  EXPECT_TRUE(e.retryable());

  auto body_only = error_from_response(
      429, status_body(429, "TooManyRequests", "slow down", {{"retryAfterSeconds", 7}}), "");
  ASSERT_TRUE(body_only.retry_after.has_value());
  EXPECT_EQ(*body_only.retry_after, std::chrono::seconds(7));

  auto bad_header = error_from_response(429, "", "soon");
  EXPECT_FALSE(bad_header.retry_after.has_value());
}

TEST(Errors, ServerSideFailuresAreRetryable) {
  auto internal = error_from_response(500, status_body(500, "InternalError", "boom"), "");
  EXPECT_EQ(internal.kind, ErrorKind::InternalError);
  EXPECT_TRUE(internal.retryable());
  EXPECT_EQ(error_from_response(503, "", "").kind, ErrorKind::ServiceUnavailable);
  EXPECT_EQ(error_from_response(504, "", "").kind, ErrorKind::ServerTimeout);
  // The reason is more specific than the code.
  EXPECT_EQ(error_from_response(500, status_body(500, "ServerTimeout", "x"), "").kind,
            ErrorKind::ServerTimeout);
  EXPECT_EQ(error_from_response(504, status_body(504, "Timeout", "x"), "").kind,
            ErrorKind::ServerTimeout);
}

TEST(Errors, CodesMapToKinds) {
  EXPECT_EQ(error_from_response(400, "", "").kind, ErrorKind::BadRequest);
  EXPECT_EQ(error_from_response(401, "", "").kind, ErrorKind::Unauthorized);
  EXPECT_EQ(error_from_response(403, "", "").kind, ErrorKind::Forbidden);
  EXPECT_EQ(error_from_response(405, "", "").kind, ErrorKind::MethodNotAllowed);
  EXPECT_EQ(error_from_response(418, "", "").kind, ErrorKind::Other);
}

TEST(Errors, NonJsonBodyKeepsTheText) {
  auto e = error_from_response(502, "<html>Bad gateway</html>\n", "");
  EXPECT_EQ(e.kind, ErrorKind::Other);
  EXPECT_EQ(e.http_status, 502);
  EXPECT_EQ(e.message, "<html>Bad gateway</html>");
  auto truncated_json = error_from_response(500, "{\"kind\":\"Status\",", "");
  EXPECT_EQ(truncated_json.kind, ErrorKind::InternalError);
  EXPECT_EQ(truncated_json.message, "{\"kind\":\"Status\",");
}

TEST(Errors, StatusObjectFromWatchErrorEventDecodesWithoutHttpStatus) {
  auto e = error_from_status(
      {{"kind", "Status"}, {"code", 410}, {"reason", "Expired"}, {"message", "too old"}});
  EXPECT_EQ(e.kind, ErrorKind::Gone);
  EXPECT_EQ(e.http_status, 410);
  EXPECT_EQ(error_from_status({{"reason", "NotFound"}}).kind, ErrorKind::NotFound);
}

TEST(Errors, TransportTimeoutAndCancelledKinds) {
  auto t = transport_error("connect: refused");
  EXPECT_EQ(t.kind, ErrorKind::Transport);
  EXPECT_EQ(t.http_status, 0);
  EXPECT_TRUE(t.retryable());
  EXPECT_EQ(t.describe(), "Transport: connect: refused");
  EXPECT_EQ(timeout_error("x").kind, ErrorKind::Timeout);
  EXPECT_TRUE(timeout_error("x").retryable());
  EXPECT_EQ(cancelled_error("x").kind, ErrorKind::Cancelled);
  EXPECT_FALSE(cancelled_error("x").retryable());
}

TEST(Errors, EveryKindHasAName) {
  for (int k = 0; k <= static_cast<int>(ErrorKind::Other); ++k) {
    EXPECT_STRNE(to_string(static_cast<ErrorKind>(k)), "Unknown") << k;
  }
  EXPECT_STREQ(to_string(ErrorKind::AlreadyExists), "AlreadyExists");
}

TEST(Result, HoldsValueOrError) {
  Result<int> ok = 5;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 5);
  Result<int> bad = transport_error("x");
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.is(ErrorKind::Transport));
  EXPECT_FALSE(bad.is(ErrorKind::NotFound));
}

TEST(Result, DereferencesConstAndTemporaryResults) {
  const Result<int> c = 3;
  EXPECT_EQ(*c, 3);
  std::string moved = *Result<std::string>(std::string("payload"));
  EXPECT_EQ(moved, "payload");
}

TEST(Errors, AWebhookCallFailureIsTransient) {
  // What the API server answers when another admission webhook with failurePolicy Fail is down.
  auto e = error_from_response(
      500,
      status_body(500, "InternalError",
                  "Internal error occurred: failed calling webhook \"deny.example.com\": failed to "
                  "call webhook: Post \"https://127.0.0.1:9/validate\": dial tcp 127.0.0.1:9: "
                  "connect: connection refused"),
      "");
  EXPECT_EQ(e.kind, ErrorKind::InternalError);
  EXPECT_TRUE(is_transient(e));
}

TEST(Errors, ServerTroubleAndLostConnectionsAreTransient) {
  EXPECT_TRUE(
      is_transient(error_from_response(429, status_body(429, "TooManyRequests", "slow"), "1")));
  EXPECT_TRUE(is_transient(error_from_response(503, "", "")));
  EXPECT_TRUE(is_transient(error_from_response(504, status_body(504, "Timeout", "timed out"), "")));
  EXPECT_TRUE(is_transient(error_from_response(502, "<html>Bad Gateway</html>", "")));
  // A webhook's denial may carry any code; a 5xx one is the server's trouble all the same.
  EXPECT_TRUE(is_transient(error_from_response(507, status_body(507, "", "denied"), "")));
  // ServerTimeout may come with a 500.
  EXPECT_TRUE(is_transient(error_from_response(500, status_body(500, "ServerTimeout", "x"), "")));
  EXPECT_TRUE(is_transient(transport_error("connection reset by peer")));
  EXPECT_TRUE(is_transient(timeout_error("deadline exceeded")));
  EXPECT_TRUE(is_transient(cancelled_error("fenced")));
}

TEST(Errors, AnswersAboutTheRequestAreNotTransient) {
  for (int code : {400, 401, 403, 404, 405, 409, 410, 422}) {
    EXPECT_FALSE(is_transient(error_from_response(code, "", ""))) << code;
  }
  EXPECT_FALSE(is_transient(error_from_response(
      403, status_body(403, "Forbidden", "admission webhook \"x\" denied the request"), "")));
  EXPECT_FALSE(is_transient(error_from_response(422, status_body(422, "Invalid", "bad"), "")));
  EXPECT_FALSE(is_transient(error_from_response(409, status_body(409, "AlreadyExists", "x"), "")));
  ApiError undecodable;  // a 2xx body we could not read
  undecodable.kind = ErrorKind::Other;
  EXPECT_FALSE(is_transient(undecodable));
}

}  // namespace
}  // namespace vc::kube
