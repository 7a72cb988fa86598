#include "common/json/release.h"

#include <gtest/gtest.h>

namespace vc::fastjson {
namespace {

using nlohmann::json;

TEST(Release, EmptiesContainersAndKeepsScalars) {
  json doc = json::parse(R"({"a":[1,{"b":"c"},[[]]],"d":{"e":null},"f":"g"})");
  release(doc);
  EXPECT_TRUE(doc.is_object());
  EXPECT_TRUE(doc.empty());

  json list = json::parse(R"([{"x":[1,2,3]},"y"])");
  release(list);
  EXPECT_TRUE(list.is_array());
  EXPECT_TRUE(list.empty());

  for (json scalar : {json(nullptr), json(1), json("text"), json(true)}) {
    const json before = scalar;
    release(scalar);
    EXPECT_EQ(scalar, before);
  }
}

// Far deeper than kReleaseDepth: release() must leave the depths below it to the destructor's
// loop and not recurse (a recursion this deep would overflow the stack).
TEST(Release, DeepDocumentsDoNotRecurseWithoutBound) {
  json doc = json::array();
  json* at = &doc;
  for (int i = 0; i < 200000; ++i) {
    at->push_back(i % 2 == 0 ? json::object() : json::array());
    at = &at->back();
    if (at->is_object()) {
      (*at)["k"] = json::array();
      at = &(*at)["k"];
    }
  }
  release(doc);
  EXPECT_TRUE(doc.empty());
}

}  // namespace
}  // namespace vc::fastjson
