#include "common/go/yaml_scalar.h"

#include <gtest/gtest.h>

#include "common/go/json_float.h"

namespace vc::go {
namespace {

using Kind = ResolvedScalar::Kind;

// The JSON kubectl would produce for the plain scalar `in` (checked against sigs.k8s.io/yaml
// v1.6.0 YAMLToJSON), or "ERR <message>".
std::string plain_json(std::string_view in) {
  auto json = scalar_to_json(resolve_plain(in));
  return json ? json->dump() : "ERR " + json.error();
}

std::string tagged_json(std::string_view tag, std::string_view in) {
  auto resolved = resolve_tagged(tag, in);
  if (!resolved) return "ERR " + resolved.error();
  auto json = scalar_to_json(*resolved);
  return json ? json->dump() : "ERR " + json.error();
}

TEST(YamlScalar, IntegersFollowGoParseIntWithBasePrefixesAndUnderscores) {
  EXPECT_EQ(plain_json("1"), "1");
  EXPECT_EQ(plain_json("-1"), "-1");
  EXPECT_EQ(plain_json("+1"), "1");
  EXPECT_EQ(plain_json("010"), "8");  // a leading zero is octal
  EXPECT_EQ(plain_json("08"), "8");   // not octal, but a decimal float 8.0, written as 8
  EXPECT_EQ(plain_json("0o17"), "15");
  EXPECT_EQ(plain_json("0x1F"), "31");
  EXPECT_EQ(plain_json("0b101"), "5");
  EXPECT_EQ(plain_json("-0b101"), "-5");
  EXPECT_EQ(plain_json("1_000"), "1000");
  EXPECT_EQ(plain_json("1__0"), "10");
  EXPECT_EQ(plain_json("_1"), "\"_1\"");
  EXPECT_EQ(plain_json("0x"), "\"0x\"");
}

TEST(YamlScalar, LargeIntegersStayExactUpToUint64ThenBecomeFloats) {
  EXPECT_EQ(plain_json("9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(plain_json("9223372036854775808"), "9223372036854775808");
  EXPECT_EQ(plain_json("18446744073709551615"), "18446744073709551615");
  EXPECT_EQ(resolve_plain("18446744073709551615").kind, Kind::Uint);
  EXPECT_EQ(format_json_float(18446744073709551616.0), "18446744073709552000");
  EXPECT_EQ(resolve_plain("18446744073709551616").kind, Kind::Float);
  EXPECT_EQ(format_json_float(resolve_plain("-9223372036854775809").floating),
            "-9223372036854776000");
  EXPECT_EQ(resolve_plain("-9223372036854775808").kind, Kind::Int);
}

TEST(YamlScalar, FloatsAreWrittenAsGoEncodingJsonWritesThem) {
  EXPECT_EQ(plain_json("1.0"), "1");  // integral floats read back as integers
  EXPECT_EQ(plain_json("1.5"), "1.5");
  EXPECT_EQ(plain_json("1e3"), "1000");
  EXPECT_EQ(plain_json(".5"), "0.5");
  EXPECT_EQ(plain_json("-.5"), "-0.5");
  EXPECT_EQ(plain_json("+.5"), "0.5");
  EXPECT_EQ(format_json_float(1e-7), "1e-7");
  EXPECT_EQ(format_json_float(0.000001), "0.000001");
  EXPECT_EQ(format_json_float(1e21), "1e+21");
  EXPECT_EQ(format_json_float(1.2345678901234569e+23), "1.2345678901234569e+23");
  EXPECT_EQ(plain_json("1e400"), "\"1e400\"");  // overflows: go-yaml keeps the text
  EXPECT_EQ(plain_json("1.2.3"), "\"1.2.3\"");
}

TEST(YamlScalar, InfinityAndNanCannotBeWrittenAsJson) {
  EXPECT_EQ(plain_json(".inf"), "ERR json: unsupported value: +Inf");
  EXPECT_EQ(plain_json("-.Inf"), "ERR json: unsupported value: -Inf");
  EXPECT_EQ(plain_json(".NaN"), "ERR json: unsupported value: NaN");
}

TEST(YamlScalar, Yaml11BooleansIncludeYesNoOnOffAndSingleLetters) {
  for (const char* t : {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}) {
    EXPECT_EQ(plain_json(t), "true") << t;
  }
  for (const char* f :
       {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}) {
    EXPECT_EQ(plain_json(f), "false") << f;
  }
  EXPECT_EQ(plain_json("yEs"), "\"yEs\"");
  EXPECT_EQ(plain_json("nope"), "\"nope\"");
}

TEST(YamlScalar, NullWordsAndEmptyAreNull) {
  for (const char* n : {"", "~", "null", "Null", "NULL"}) EXPECT_EQ(plain_json(n), "null") << n;
  EXPECT_EQ(plain_json("nULL"), "\"nULL\"");
}

TEST(YamlScalar, TimestampsAndOtherTextStayStrings) {
  EXPECT_EQ(plain_json("2024-01-02"), "\"2024-01-02\"");
  EXPECT_EQ(plain_json("2024-01-02T03:04:05Z"), "\"2024-01-02T03:04:05Z\"");
  EXPECT_EQ(plain_json("1:2"), "\"1:2\"");
  EXPECT_EQ(plain_json("<<"), "\"<<\"");
  EXPECT_EQ(plain_json("busybox:1.36"), "\"busybox:1.36\"");
}

TEST(YamlScalar, QuotedAndBlockScalarsAreAlwaysStrings) {
  EXPECT_EQ(tagged_json("!", "yes"), "\"yes\"");
  EXPECT_EQ(tagged_json("!", "1"), "\"1\"");
  EXPECT_EQ(tagged_json("!", "null"), "\"null\"");
  EXPECT_EQ(tagged_json("?", "yes"), "true");
}

TEST(YamlScalar, ExplicitTagsConvertOrFailLikeGoYaml) {
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:str", "1"), "\"1\"");
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:int", "12"), "12");
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:int", "abc"),
            "ERR cannot decode !!str `abc` as a !!int");
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:float", "3"), "3");
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:bool", "yes"), "true");
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:null", "x"), "ERR cannot decode !!str `x` as a !!null");
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:binary", "aGVsbG8="), "\"hello\"");
  EXPECT_EQ(tagged_json("tag:yaml.org,2002:binary", "a"),
            "ERR !!binary value contains invalid base64 data");
  EXPECT_EQ(tagged_json("!foo", "1"), "\"1\"");
}

TEST(YamlScalar, MapKeysBecomeStringsAsSigsYamlWritesThem) {
  EXPECT_EQ(*scalar_key(resolve_plain("1")), "1");
  EXPECT_EQ(*scalar_key(resolve_plain("0x10")), "16");
  EXPECT_EQ(*scalar_key(resolve_plain("true")), "true");
  EXPECT_EQ(*scalar_key(resolve_plain("yes")), "true");
  EXPECT_EQ(*scalar_key(resolve_plain("1.5")), "1.5");
  EXPECT_EQ(*scalar_key(resolve_plain("1e6")), "1e+06");
  EXPECT_EQ(*scalar_key(resolve_plain("0.0001")), "0.0001");
  EXPECT_EQ(*scalar_key(resolve_plain("0.00001")), "1e-05");
  EXPECT_EQ(*scalar_key(resolve_plain("2024-01-01")), "2024-01-01");
  EXPECT_FALSE(scalar_key(resolve_plain("~")).ok());
  EXPECT_FALSE(scalar_key(resolve_plain("18446744073709551615")).ok());
}

}  // namespace
}  // namespace vc::go
