#include "webhook/server/review_codec.h"

#include <chrono>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace vc::webhook::server {
namespace {

using nlohmann::json;

std::string error_of(std::string_view body) {
  auto decoded = decode_review(body);
  EXPECT_FALSE(decoded.ok()) << "decoded without error: " << body;
  return decoded.error();
}

TEST(DecodeReview, DecodesEveryRequestField) {
  const json review = {
      {"apiVersion", "admission.k8s.io/v1"},
      {"kind", "AdmissionReview"},
      {"request",
       {{"uid", "705ab4f5-6393-11e8-b7cc-42010a800002"},
        {"kind", {{"group", "batch.volcano.sh"}, {"version", "v1alpha1"}, {"kind", "Job"}}},
        {"resource",
         {{"group", "batch.volcano.sh"}, {"version", "v1alpha1"}, {"resource", "jobs"}}},
        {"subResource", "status"},
        {"requestKind", {{"group", "batch.volcano.sh"}, {"version", "v1alpha1"}, {"kind", "Job"}}},
        {"requestSubResource", "status"},
        {"name", "job-1"},
        {"namespace", "ns-1"},
        {"operation", "UPDATE"},
        {"userInfo", {{"username", "admin"}, {"groups", {"system:masters"}}}},
        {"object", {{"metadata", {{"name", "job-1"}}}}},
        {"oldObject", {{"metadata", {{"name", "job-0"}}}}},
        {"dryRun", true},
        {"options", {{"kind", "UpdateOptions"}}}}}};
  auto decoded = decode_review(review.dump());
  ASSERT_TRUE(decoded.ok()) << decoded.error();
  const AdmissionRequest& r = *decoded;
  EXPECT_EQ(r.uid, "705ab4f5-6393-11e8-b7cc-42010a800002");
  EXPECT_EQ(r.resource, (GroupVersionResource{"batch.volcano.sh", "v1alpha1", "jobs"}));
  EXPECT_EQ(r.sub_resource, "status");
  EXPECT_EQ(r.name, "job-1");
  EXPECT_EQ(r.namespace_, "ns-1");
  EXPECT_EQ(r.operation, "UPDATE");
  EXPECT_EQ(r.object, (json{{"metadata", {{"name", "job-1"}}}}));
  EXPECT_EQ(r.old_object, (json{{"metadata", {{"name", "job-0"}}}}));
  EXPECT_TRUE(r.dry_run);
}

TEST(DecodeReview, UserInfoIsCheckedAsAnObjectWhateverItsMembers) {
  // No admit rule reads who asked: its members are parsed (valid JSON) but not kept or checked.
  for (const char* user : {R"({"username":"admin","groups":["a"],"extra":{"k":["v"]}})",
                           R"({"username":5,"groups":"a","other":null})", "{}"}) {
    const std::string body = std::string(R"({"request":{"uid":"u","userInfo":)") + user + "}}";
    EXPECT_TRUE(decode_review(body).ok()) << body;
  }
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","userInfo":["admin"]}})"),
            "request.userInfo must be an object");
  EXPECT_NE(error_of(R"({"request":{"uid":"u","userInfo":{"groups":[1,]}}})").find("invalid JSON"),
            std::string::npos);
}

TEST(DecodeReview, TheObjectsManagedFieldsAreCheckedButNotKept) {
  // Only metadata.managedFields of object and oldObject go; a label of that name stays, and so
  // does a pod template's own metadata.managedFields (nothing reads it either, but it is not
  // the API server's bookkeeping of this object).
  const json meta = {{"name", "q"},
                     {"labels", {{"managedFields", "x"}}},
                     {"managedFields", json::array({{{"manager", "kubectl"}}})}};
  const json object = {{"metadata", meta}, {"spec", {{"template", {{"metadata", meta}}}}}};
  const json review = {{"apiVersion", "admission.k8s.io/v1"},
                       {"kind", "AdmissionReview"},
                       {"request", {{"uid", "u"}, {"object", object}, {"oldObject", object}}}};
  // The fast parser, and nlohmann's for a body it declines (non-ASCII text).
  for (const std::string& body :
       {review.dump(), review.dump().replace(review.dump().find("\"q\""), 3, "\"\xc3\xa9\"")}) {
    auto decoded = decode_review(body);
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    for (const json* doc : {&decoded->object, &decoded->old_object}) {
      EXPECT_FALSE(doc->at("metadata").contains("managedFields")) << doc->dump();
      EXPECT_EQ(doc->at("metadata").at("labels").at("managedFields"), "x");
      EXPECT_TRUE(doc->at("spec").at("template").at("metadata").contains("managedFields"));
    }
  }
  // Dropped, but still parsed: invalid JSON inside it is an error.
  std::string broken = review.dump();
  broken.replace(broken.find("\"kubectl\""), 9, "kubectl");
  EXPECT_NE(error_of(broken).find("invalid JSON at offset"), std::string::npos);
}

TEST(DecodeReview, MissingApiVersionAndKindAreFilledInAsGoDoes) {
  auto decoded = decode_review(R"({"request":{"uid":"u1","operation":"DELETE"}})");
  ASSERT_TRUE(decoded.ok()) << decoded.error();
  EXPECT_EQ(decoded->uid, "u1");
  EXPECT_TRUE(decoded->object.is_null());
  EXPECT_TRUE(decoded->old_object.is_null());
  EXPECT_FALSE(decoded->dry_run);
}

TEST(DecodeReview, NullValuesCountAsAbsent) {
  auto decoded = decode_review(
      R"({"apiVersion":null,"kind":null,"request":{"uid":"u1","name":null,"resource":null,)"
      R"("dryRun":null,"object":null,"userInfo":null}})");
  ASSERT_TRUE(decoded.ok()) << decoded.error();
  EXPECT_EQ(decoded->name, "");
  EXPECT_TRUE(decoded->object.is_null());
}

TEST(DecodeReview, V1beta1ReviewIsRejectedNamingTheVersion) {
  EXPECT_EQ(error_of(R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",)"
                     R"("request":{"uid":"u1"}})"),
            R"(apiVersion must be admission.k8s.io/v1, got "admission.k8s.io/v1beta1")");
}

TEST(DecodeReview, OtherKindIsRejected) {
  EXPECT_EQ(error_of(R"({"apiVersion":"admission.k8s.io/v1","kind":"Pod","request":{"uid":"u"}})"),
            R"(kind must be AdmissionReview, got "Pod")");
}

TEST(DecodeReview, EmptyObjectHasNoRequest) {
  EXPECT_EQ(error_of("{}"), "request is missing");
  EXPECT_EQ(error_of(R"({"request":null})"), "request is missing");
  EXPECT_EQ(error_of(R"({"request":[]})"), "request must be an object");
}

TEST(DecodeReview, RequestWithoutUidIsRejected) {
  EXPECT_EQ(error_of(R"({"request":{"operation":"CREATE"}})"), "request.uid is missing");
  EXPECT_EQ(error_of(R"({"request":{"uid":""}})"), "request.uid is missing");
}

TEST(DecodeReview, WrongFieldTypesAreNamed) {
  EXPECT_EQ(error_of(R"({"request":{"uid":7}})"), "request.uid must be a string");
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","name":["a"]}})"), "request.name must be a string");
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","resource":"jobs"}})"),
            "request.resource must be an object");
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","resource":{"group":1}}})"),
            "request.resource.group must be a string");
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","dryRun":"yes"}})"),
            "request.dryRun must be a boolean");
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","userInfo":"admin"}})"),
            "request.userInfo must be an object");
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","kind":"Job"}})"), "request.kind must be an object");
}

TEST(DecodeReview, BodyThatIsNoObjectIsRejected) {
  EXPECT_EQ(error_of("[]"), "AdmissionReview must be a JSON object");
  EXPECT_EQ(error_of("null"), "AdmissionReview must be a JSON object");
}

TEST(DecodeReview, InvalidJsonReportsTheOffset) {
  EXPECT_EQ(error_of("garbage"),
            "invalid JSON at offset 1: syntax error while parsing value - invalid literal; "
            "last read: 'g'");
  const std::string truncated = error_of(R"({"request":{"uid":"u1")");
  EXPECT_EQ(truncated.rfind("invalid JSON at offset 23: ", 0), 0u) << truncated;
  EXPECT_EQ(error_of("").rfind("invalid JSON at offset 1: ", 0), 0u);
}

// Found by webhook/fuzz (regressions/decode_number_overflow): nlohmann throws out_of_range, not
// parse_error, for such numbers, and the exception used to escape decode_review.
TEST(DecodeReview, NumberBeyondDoubleRangeIsAnErrorNotAnException) {
  EXPECT_EQ(error_of("9e990"), "JSON number out of range: number overflow parsing '9e990'");
  EXPECT_EQ(error_of(R"({"request":{"uid":"u","object":{"spec":{"replicas":-1e309}}}})"),
            "JSON number out of range: number overflow parsing '-1e309'");
}

TEST(DecodeReview, NestingBeyondGoLimitIsRejectedBeforeParsing) {
  const std::string deep = std::string(20000, '[') + std::string(20000, ']');
  EXPECT_EQ(error_of(deep), "invalid JSON: exceeded max depth of 10000");
}

TEST(DecodeReview, NestingBeyondTheFastParserButWithinTheLimitIsDecoded) {
  // Deeper than fastjson::kMaxFastDepth: decoded by nlohmann's parser after the depth scan.
  const std::string nested = std::string(300, '[') + std::string(300, ']');
  auto decoded = decode_review(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",)"
                               R"("request":{"uid":"u","object":{"spec":{"x":)" +
                               nested + "}}}}");
  ASSERT_TRUE(decoded.ok()) << decoded.error().substr(0, 200);
  EXPECT_EQ(decoded->uid, "u");
  EXPECT_TRUE(decoded->object["spec"]["x"].is_array());
  // The admit functions then skip their own depth scan (AdmissionRequest::nesting_bounded).
  EXPECT_TRUE(decoded->nesting_bounded);
  EXPECT_FALSE(AdmissionRequest{}.nesting_bounded);
}

TEST(DecodeReview, AnObjectTooDeepForGoNeverReachesTheAdmitFunctions) {
  // An object 9999 levels deep, within Go's limit on its own, puts the review beyond it: what
  // nesting_bounded promises the admit functions holds with room to spare.
  const std::string object = std::string(9998, '[') + std::string(9998, ']');
  const std::string review = R"({"request":{"uid":"u","object":{"x":)" + object + "}}}";
  EXPECT_EQ(error_of(review), "invalid JSON: exceeded max depth of 10000");
}

TEST(DecodeReview, BracketsInsideStringsDoNotCountAsNesting) {
  const std::string name = std::string(20000, '[') + "\\\"" + std::string(20000, '{');
  auto decoded = decode_review(R"({"request":{"uid":"u","name":")" + name + R"("}})");
  ASSERT_TRUE(decoded.ok()) << decoded.error().substr(0, 200);
  EXPECT_EQ(decoded->name.size(), 40001u);
}

// "[{},{},...]" of n elements inside a review; `name` non-ASCII sends it to nlohmann's parser.
std::string review_of_empty_objects(std::size_t n, bool slow_path) {
  std::string objects = "[{}";
  for (std::size_t i = 1; i < n; ++i) objects += ",{}";
  objects += "]";
  return std::string(R"({"request":{"uid":"u",)") + (slow_path ? R"("name":"café ü",)" : "") +
         R"("object":)" + objects + "}}";
}

TEST(DecodeReview, MoreValuesThanTheLimitAreRefusedNamingIt) {
  for (const bool slow_path : {false, true}) {
    const auto refused =
        decode_review(review_of_empty_objects(1001, slow_path), {.max_values = 1000});
    ASSERT_FALSE(refused.ok()) << "slow path " << slow_path;
    EXPECT_EQ(refused.error(), "too many JSON values: more than 1000 (--max-review-values)");
    // The review itself, its request and its uid are values too: 1001 objects and 4 more fit
    // in 1005 (the slow path's name is one more).
    const auto fits = decode_review(review_of_empty_objects(1001, slow_path),
                                    {.max_values = slow_path ? 1006u : 1005u});
    ASSERT_TRUE(fits.ok()) << "slow path " << slow_path << ": " << fits.error();
    EXPECT_EQ(fits->object.size(), 1001u);
  }
}

// nlohmann's callback parser rescans an array each time an object in it ends: a body of 2.9 MiB
// of {} took minutes on the slow path with a counting callback. The count runs without one.
TEST(DecodeReview, ManyObjectsOnTheSlowPathAreCountedInLinearTime) {
  const auto start = std::chrono::steady_clock::now();
  const auto refused = decode_review(review_of_empty_objects(1'000'000, true));
  EXPECT_FALSE(refused.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(EncodeReview, AllowedHasOnlyUidAndAllowed) {
  EXPECT_EQ(encode_review("u-1", AdmissionResponse::allow()),
            R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
            R"("response":{"uid":"u-1","allowed":true}})");
}

TEST(EncodeReview, DenialCarriesStatusWithGoHtmlEscaping) {
  EXPECT_EQ(encode_review("u-2", AdmissionResponse::deny("queue <q> is \"closed\" & full")),
            R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
            R"("response":{"uid":"u-2","allowed":false,"status":{"metadata":{},)"
            R"("message":"queue \u003cq\u003e is \"closed\" \u0026 full"}}})");
}

TEST(EncodeReview, DenialWithoutMessageOmitsIt) {
  EXPECT_EQ(encode_review("u", AdmissionResponse::deny("")),
            R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
            R"("response":{"uid":"u","allowed":false,"status":{"metadata":{}}}})");
}

TEST(EncodeReview, PatchIsBase64WithPatchType) {
  const json ops = json::array({{{"op", "add"}, {"path", "/spec/x"}, {"value", 1}}});
  EXPECT_EQ(encode_review("u-3", AdmissionResponse::mutate(ops)),
            R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
            R"("response":{"uid":"u-3","allowed":true,)"
            R"("patch":"W3sib3AiOiJhZGQiLCJwYXRoIjoiL3NwZWMveCIsInZhbHVlIjoxfV0=",)"
            R"("patchType":"JSONPatch"}})");
}

TEST(EncodeReview, PatchContentIsHtmlEscapedLikeGo) {
  const json ops =
      json::array({{{"op", "replace"}, {"path", "/metadata/labels/a"}, {"value", "<b>"}}});
  const json review = json::parse(encode_review("u", AdmissionResponse::mutate(ops)));
  EXPECT_EQ(review["response"]["patch"],
            "W3sib3AiOiJyZXBsYWNlIiwicGF0aCI6Ii9tZXRhZGF0YS9sYWJlbHMvYSIsInZhbHVlIjoiXHUwMDNjYlx1"
            "MDAzZSJ9XQ==");
}

TEST(EncodeReview, EmptyOrNullPatchIsNeverSent) {
  const std::string want = R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
                           R"("response":{"uid":"u","allowed":true}})";
  EXPECT_EQ(encode_review("u", AdmissionResponse::mutate(json::array())), want);
  EXPECT_EQ(encode_review("u", AdmissionResponse::mutate(nullptr)), want);
}

TEST(EncodeReview, WarningsFollowThePatch) {
  AdmissionResponse r =
      AdmissionResponse::mutate(json::array({{{"op", "remove"}, {"path", "/a"}}}));
  r.warnings = {"skipped <lookup>", "second"};
  EXPECT_EQ(encode_review("u", r),
            R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
            R"("response":{"uid":"u","allowed":true,)"
            R"("patch":"W3sib3AiOiJyZW1vdmUiLCJwYXRoIjoiL2EifV0=","patchType":"JSONPatch",)"
            R"("warnings":["skipped \u003clookup\u003e","second"]}})");
}

TEST(EncodeReview, InvalidUtf8InMessageIsReplaced) {
  const std::string out = encode_review("u", AdmissionResponse::deny("bad \xff byte"));
  const json review = json::parse(out);  // throws if the output is not valid UTF-8 JSON
  EXPECT_EQ(review["response"]["status"]["message"], "bad \xEF\xBF\xBD byte");
}

TEST(EncodeReview, PatchThatIsNoArrayIsAProgrammerError) {
  EXPECT_THROW(encode_review("u", AdmissionResponse::mutate(json{{"op", "add"}})),
               std::logic_error);
}

}  // namespace
}  // namespace vc::webhook::server
