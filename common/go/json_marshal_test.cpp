// marshal_json() on documents whose Go encoding is known by heart; the escaping of every string
// and float shape, and 2000 random documents, are compared with Go itself in golden_test.cpp.
#include "common/go/json_marshal.h"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace vc::go {
namespace {

using nlohmann::json;

TEST(MarshalJson, ScalarsAndNesting) {
  EXPECT_EQ(marshal_json(json(nullptr)), "null");
  EXPECT_EQ(marshal_json(json(true)), "true");
  EXPECT_EQ(marshal_json(json(std::numeric_limits<std::int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(marshal_json(json(std::numeric_limits<std::uint64_t>::max())), "18446744073709551615");
  EXPECT_EQ(marshal_json(json(0.000001)), "0.000001");
  EXPECT_EQ(marshal_json(json(1e21)), "1e+21");
  EXPECT_EQ(marshal_json(json::array()), "[]");
  EXPECT_EQ(marshal_json(json::object()), "{}");
  EXPECT_EQ(marshal_json(json{{"b", 1}, {"a", {1, 2, {{"<", ">"}}}}}),
            R"({"a":[1,2,{"\u003c":"\u003e"}],"b":1})");
}

TEST(MarshalJson, ValuesJsonTextCannotHoldAreNull) {
  EXPECT_EQ(marshal_json(json(std::numeric_limits<double>::quiet_NaN())), "null");
  EXPECT_EQ(marshal_json(json(-std::numeric_limits<double>::infinity())), "null");
  EXPECT_EQ(marshal_json(json::array({1, json(json::value_t::discarded)})), "[1,null]");
}

TEST(MarshalJson, EachInvalidByteBecomesOneReplacementCharacter) {
  EXPECT_EQ(marshal_json(json("ok\xff"
                              "ok")),
            R"("ok\ufffdok")");
  EXPECT_EQ(marshal_json(json("\xf0\x9f\x98")), R"("\ufffd\ufffd\ufffd")");
}

}  // namespace
}  // namespace vc::go
