// Every answer of Go's own strconv, time, encoding/json (floats, strings), regexp and
// sigs.k8s.io/yaml that golden/main.go recorded for its table of inputs, compared with ours. The
// build runs the Go program (common/CMakeLists.txt) and passes the path of its output as
// VC_GO_GOLDEN.

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/go/duration.h"
#include "common/go/json_float.h"
#include "common/go/json_marshal.h"
#include "common/go/regexp.h"
#include "common/go/strconv.h"
#include "common/go/yaml_scalar.h"

namespace vc::go {
namespace {

using nlohmann::json;

const json& golden() {
  static const json doc = [] {
    std::ifstream in(VC_GO_GOLDEN);
    if (!in) throw std::runtime_error(std::string("cannot read ") + VC_GO_GOLDEN);
    return json::parse(in);
  }();
  return doc;
}

const json& table(const char* name) {
  const json& t = golden().at(name);
  // A table that came out empty would make its test pass without checking anything.
  EXPECT_FALSE(t.empty()) << name;
  return t;
}

std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

double from_bits(std::uint64_t bits) {
  return std::bit_cast<double>(bits);
}

TEST(Golden, ParseIntMatchesGo) {
  for (const json& r : table("parse_int")) {
    const std::string in = r["in"];
    const int base = r["base"], bits = r["bits"];
    const IntParse got = parse_int_full(in, base, bits);
    SCOPED_TRACE("ParseInt(\"" + in + "\", " + std::to_string(base) + ", " + std::to_string(bits) +
                 ")");
    EXPECT_EQ(got.value, r["value"].get<std::int64_t>());
    const std::string err = r["err"];
    EXPECT_EQ(got.error != NumError::None, !err.empty());
    if (base == 0 && bits == 64) {
      auto e = parse_int(in, 64);
      EXPECT_EQ(e.ok() ? std::string() : e.error(), err);
    }
    if (base == 10) {
      auto e = parse_decimal_int(in, bits);
      EXPECT_EQ(e.ok() ? std::string() : e.error(), err);
    }
  }
}

TEST(Golden, ParseUintMatchesGo) {
  for (const json& r : table("parse_uint")) {
    const std::string in = r["in"];
    const int bits = r["bits"];
    SCOPED_TRACE("ParseUint(\"" + in + "\", 0, " + std::to_string(bits) + ")");
    auto got = parse_uint(in, bits);
    const std::string err = r["err"];
    EXPECT_EQ(got.ok() ? std::string() : got.error(), err);
    if (got.ok()) {
      EXPECT_EQ(*got, r["value"].get<std::uint64_t>());
    }
  }
}

TEST(Golden, ParseFloatMatchesGo) {
  for (const json& r : table("parse_float")) {
    const std::string in = r["in"];
    const int bits = r["bits_size"];
    SCOPED_TRACE("ParseFloat(\"" + in + "\", " + std::to_string(bits) + ")");
    auto got = parse_float(in, bits);
    const std::string err = r["err"];
    EXPECT_EQ(got.ok() ? std::string() : got.error(), err);
    if (!got.ok() || !err.empty()) continue;
    if (r["nan"].get<bool>()) {
      EXPECT_TRUE(std::isnan(*got));
    } else {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(*got), r["bits"].get<std::uint64_t>()) << *got;
    }
  }
}

TEST(Golden, FormatFloatMatchesGo) {
  for (const json& r : table("format_float")) {
    const double v = from_bits(r["bits"]);
    const int size = r["size"];
    EXPECT_EQ(format_float(v, size), r["out"].get<std::string>())
        << "bits " << r["bits"] << " size " << size;
  }
}

TEST(Golden, JsonFloatMatchesEncodingJson) {
  for (const json& r : table("json_float")) {
    EXPECT_EQ(format_json_float(from_bits(r["bits"])), r["out"].get<std::string>())
        << "bits " << r["bits"];
  }
}

TEST(Golden, JsonStringsAndKeysMatchEncodingJson) {
  for (const json& r : table("json_string")) {
    const std::string in = unhex(r["in_hex"]);
    EXPECT_EQ(marshal_json(json(in)), unhex(r["out_hex"])) << "input hex " << r["in_hex"];
    EXPECT_EQ(marshal_json(json{{in, 1}}), unhex(r["key_hex"])) << "key hex " << r["in_hex"];
  }
}

TEST(Golden, JsonFloatValuesMatchEncodingJson) {
  for (const json& r : table("json_float")) {
    EXPECT_EQ(marshal_json(json(from_bits(r["bits"]))), r["out"].get<std::string>())
        << "bits " << r["bits"];
  }
}

TEST(Golden, RandomDocumentsRoundTripToGosBytes) {
  // Each is Go's encoding of a random document: parsed and written again, the bytes must be Go's.
  for (const json& r : table("json_doc")) {
    const std::string go_text = r["out"];
    EXPECT_EQ(marshal_json(json::parse(go_text)), go_text);
  }
}

TEST(Golden, ParseBoolMatchesGo) {
  for (const json& r : table("parse_bool")) {
    const std::string in = r["in"];
    auto got = parse_bool(in);
    EXPECT_EQ(got.ok() ? std::string() : got.error(), r["err"].get<std::string>()) << in;
    if (got.ok()) {
      EXPECT_EQ(*got, r["value"].get<bool>()) << in;
    }
  }
}

TEST(Golden, QuoteMatchesGo) {
  for (const json& r : table("quote")) {
    const std::string in = unhex(r["in_hex"]);
    EXPECT_EQ(quote(in), unhex(r["out_hex"])) << "input hex " << r["in_hex"];
  }
}

TEST(Golden, ParseDurationMatchesGo) {
  for (const json& r : table("parse_duration")) {
    const std::string in = unhex(r["in_hex"]);
    const std::string err = unhex(r["err_hex"]);
    auto got = parse_duration(in);
    EXPECT_EQ(got.ok() ? std::string() : got.error(), err) << "input hex " << r["in_hex"];
    if (got.ok() && err.empty()) {
      EXPECT_EQ(got->count(), r["ns"].get<std::int64_t>()) << in;
    }
  }
}

TEST(Golden, FormatDurationMatchesGo) {
  for (const json& r : table("format_duration")) {
    const std::int64_t ns = r["ns"];
    EXPECT_EQ(format_duration(std::chrono::nanoseconds(ns)), r["out"].get<std::string>()) << ns;
  }
}

TEST(Golden, RegexpSyntaxErrorsMatchGo) {
  for (const json& r : table("regexp")) {
    const std::string pattern = unhex(r["in_hex"]);
    EXPECT_EQ(regexp_error(pattern), unhex(r["err_hex"])) << "pattern hex " << r["in_hex"];
  }
}

// The value text after "k: " as yaml-cpp would hand it over: an optional !!tag, then a plain,
// single- or double-quoted scalar (the table has no escapes inside quotes).
struct Scalar {
  std::string tag = "?";
  std::string value;
};

Scalar split_scalar(std::string text) {
  Scalar s;
  if (text.starts_with("!!")) {
    const std::size_t space = text.find(' ');
    s.tag = "tag:yaml.org,2002:" + text.substr(2, space - 2);
    text = text.substr(space + 1);
  }
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front()) {
    if (s.tag == "?") s.tag = "!";
    text = text.substr(1, text.size() - 2);
  }
  s.value = text;
  return s;
}

TEST(Golden, YamlScalarsResolveAsKubectlDoes) {
  for (const json& r : table("yaml_scalar")) {
    const std::string in = r["in"];
    const Scalar s = split_scalar(in);
    SCOPED_TRACE("k: " + in);
    std::string got;
    auto resolved = resolve_tagged(s.tag, s.value);
    if (!resolved) {
      got = "yaml: " + resolved.error();
    } else if (auto value = scalar_to_json(*resolved); !value) {
      got = value.error();
    } else {
      // What YAMLToJSON writes, re-read as a value so that number spelling does not matter
      // beyond what JSON itself distinguishes (integer, float, string).
      got = json{{"k", *value}}.dump();
    }
    const std::string err = r["err"];
    if (!err.empty()) {
      EXPECT_EQ(got, err);
    } else {
      EXPECT_EQ(got, json::parse(r["json"].get<std::string>()).dump());
    }
  }
}

}  // namespace
}  // namespace vc::go
