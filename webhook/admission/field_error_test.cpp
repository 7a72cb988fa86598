#include "webhook/admission/field_error.h"

#include <string>
#include <vector>

#include "webhook/admission/cluster_view.h"

#include <gtest/gtest.h>

namespace vc::webhook {
namespace {

TEST(FieldError, InvalidPrintsPathTypeQuotedValueAndDetail) {
  FieldPath p("spec");
  auto e = invalid(p.child("tasks").index(0).child("name"), BadValue::str("a b"), "bad name");
  EXPECT_EQ(e.message(), "spec.tasks[0].name: Invalid value: \"a b\": bad name");
}

TEST(FieldError, RequiredOmitsValueAndEmptyDetail) {
  EXPECT_EQ(required(FieldPath("spec").child("queue"), "").message(), "spec.queue: Required value");
}

TEST(FieldError, EmptyRootRendersAsBrackets) {
  FieldPath root("");
  EXPECT_EQ(root.child("spec").child("members").str(), "[].spec.members");
  EXPECT_EQ(root.index(2).str(), "[][2]");
  EXPECT_EQ(root.key("k").str(), "[][k]");
}

TEST(FieldError, KeysAndIndexesAppendInBrackets) {
  EXPECT_EQ(FieldPath("m").key("a.b").index(1234567).child("c").str(), "m[a.b][1234567].c");
}

TEST(FieldError, PathsOfAnyLengthCopyAndAssign) {
  // Short paths live in the object, long ones on the heap; every way across that line.
  std::string want = "spec";
  FieldPath path("spec");
  std::vector<FieldPath> seen;  // copies of every length
  for (int i = 0; i < 40; ++i) {
    path = path.child("segment").index(static_cast<std::size_t>(i));
    want += ".segment[" + std::to_string(i) + "]";
    ASSERT_EQ(path.str(), want);
    ASSERT_EQ(path.view(), want);
    seen.push_back(path);
  }
  EXPECT_GT(want.size(), 400u);
  FieldPath shortened("x");
  shortened = seen.back();  // short := long
  EXPECT_EQ(shortened.str(), want);
  shortened = FieldPath("y");  // long := short
  EXPECT_EQ(shortened.str(), "y");
  const FieldPath& self = shortened;
  shortened = self;
  EXPECT_EQ(shortened.str(), "y");
  EXPECT_EQ(seen.front().str(), "spec.segment[0]");
  EXPECT_EQ(seen[10].key(std::string(200, 'k')).str(),
            seen[10].str() + "[" + std::string(200, 'k') + "]");
}

TEST(FieldError, JsonValuesAreHtmlEscapedLikeGo) {
  auto e = invalid(FieldPath("x"), BadValue::json_value("<a&b>"), "");
  EXPECT_EQ(e.message(), "x: Invalid value: \"\\u003ca\\u0026b\\u003e\"");
  EXPECT_EQ(go::marshal_json(nlohmann::json::array()), "[]");
  EXPECT_EQ(go::marshal_json(nullptr), "null");
}

TEST(FieldError, GoJsonEscapesLineSeparatorsAndKeepsOtherText) {
  // U+2028 and U+2029 are escaped; other characters starting with byte 0xe2 (the euro sign
  // E2 82 AC) pass through, as do runs between and after escapes.
  EXPECT_EQ(go::marshal_json("a\u2028b\u2029c"), "\"a\\u2028b\\u2029c\"");
  EXPECT_EQ(go::marshal_json("\u20ac<<&>\u2028"), "\"\u20ac\\u003c\\u003c\\u0026\\u003e\\u2028\"");
  EXPECT_EQ(go::marshal_json(nlohmann::json{{"k<", "plain text"}}),
            "{\"k\\u003c\":\"plain text\"}");
  EXPECT_EQ(go::marshal_json("no specials at all"), "\"no specials at all\"");
  // A truncated sequence: each of its bytes becomes \ufffd, as in Go.
  EXPECT_EQ(go::marshal_json(std::string("x\xe2\x80")), "\"x\\ufffd\\ufffd\"");
}

TEST(FieldErrorList, AggregateDeduplicatesAndBracketsSeveral) {
  FieldErrorList list;
  EXPECT_EQ(list.aggregate(), "");
  list.add(required(FieldPath("a"), ""));
  EXPECT_EQ(list.aggregate(), "a: Required value");
  list.add(required(FieldPath("a"), ""));
  list.add(forbidden(FieldPath("b"), "no"));
  EXPECT_EQ(list.aggregate(), "[a: Required value, b: Forbidden: no]");
}

TEST(StaticClusterView, MissingQueueHasVolcanoListerMessage) {
  StaticClusterView view;
  auto q = view.get_queue("q1");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error(), "queue.scheduling.volcano.sh \"q1\" not found");
  view.add_queue({{"metadata", {{"name", "child"}}}, {"spec", {{"parent", "p"}}}});
  EXPECT_EQ(view.child_queues("p").size(), 1u);
  EXPECT_TRUE(view.child_queues("").empty());
  // A parent that is no string, or a spec that is no object, makes no child (and no exception).
  view.add_queue({{"metadata", {{"name", "odd"}}}, {"spec", {{"parent", 7}}}});
  view.add_queue({{"metadata", {{"name", "odder"}}}, {"spec", "p"}});
  view.add_queue({{"metadata", {{"name", "other"}}}, {"spec", {{"parent", "q"}}}});
  EXPECT_EQ(view.child_queues("p").size(), 1u);
  EXPECT_EQ(view.child_queues("q").size(), 1u);
}

}  // namespace
}  // namespace vc::webhook
