// Every answer of Go's own strconv, time (durations, zones), encoding/json (floats, strings),
// regexp and sigs.k8s.io/yaml that golden/main.go (and golden/zones.go) recorded for its table of
// inputs, compared with ours. The build runs the Go program (common/CMakeLists.txt) and passes the
// path of its output as VC_GO_GOLDEN.

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/go/duration.h"
#include "common/go/json_float.h"
#include "common/go/json_marshal.h"
#include "common/go/regexp.h"
#include "common/go/regexp_match.h"
#include "common/go/strconv.h"
#include "common/go/time_zone.h"
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

TEST(Golden, RegexpMatchStringMatchesGo) {
  for (const json& r : table("regexp_match")) {
    const std::string pattern = unhex(r["pattern_hex"]);
    const std::string text = unhex(r["text_hex"]);
    const Regexp re = Regexp::compile(pattern);
    if (!r["compiles"].get<bool>()) {
      EXPECT_EQ(re.status(), Regexp::Status::go_refuses) << "pattern hex " << r["pattern_hex"];
      continue;
    }
    ASSERT_EQ(re.status(), Regexp::Status::ok)
        << "pattern hex " << r["pattern_hex"] << ": " << re.error();
    EXPECT_EQ(re.match_string(text), r["match"].get<bool>())
        << "pattern hex " << r["pattern_hex"] << " text hex " << r["text_hex"];
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

// ---- Time zones (golden/zones.go) ----------------------------------------------------------

std::string bound_text(const json& b) {
  return b.is_null() ? "none" : std::to_string(b.get<std::int64_t>());
}

// Go's ZoneBounds answers the zero Time both for an unbounded side (INT64_MIN, INT64_MAX here)
// and for a bound at 0001-01-01 00:00:00 UTC.
std::string bound_text(std::int64_t b, std::int64_t none) {
  constexpr std::int64_t kGoZeroTime = -62135596800;
  return b == none || b == kGoZeroTime ? "none" : std::to_string(b);
}

// One instant as Go recorded it and as we see it, in the same words, so that a difference shows
// every field at once.
std::string go_instant(const json& r) {
  return std::to_string(r["year"].get<int>()) + "-" + std::to_string(r["month"].get<int>()) + "-" +
         std::to_string(r["day"].get<int>()) + " " + std::to_string(r["hour"].get<int>()) + ":" +
         std::to_string(r["min"].get<int>()) + ":" + std::to_string(r["sec"].get<int>()) +
         " weekday " + std::to_string(r["weekday"].get<int>()) + " " + unhex(r["abbrev_hex"]) +
         " " + std::to_string(r["offset"].get<int>()) + (r["dst"].get<bool>() ? " dst" : " std") +
         " [" + bound_text(r["start"]) + ", " + bound_text(r["end"]) + ")";
}

std::string our_instant(const Location& loc, std::int64_t unix) {
  const CivilTime c = civil_time(unix, loc);
  const Location::Zone z = loc.lookup(unix);
  EXPECT_EQ(c.abbrev, z.abbrev);
  EXPECT_EQ(c.offset, z.offset);
  return std::to_string(c.year) + "-" + std::to_string(c.month) + "-" + std::to_string(c.day) +
         " " + std::to_string(c.hour) + ":" + std::to_string(c.minute) + ":" +
         std::to_string(c.second) + " weekday " + std::to_string(c.weekday) + " " + c.abbrev + " " +
         std::to_string(c.offset) + (z.dst ? " dst" : " std") + " [" +
         bound_text(z.start, std::numeric_limits<std::int64_t>::min()) + ", " +
         bound_text(z.end, std::numeric_limits<std::int64_t>::max()) + ")";
}

// The instants (t.In(loc) and its ZoneBounds) and time.Date calls Go recorded for one zone.
void expect_zone_matches_go(const Location& loc, const json& r, const std::string& label) {
  EXPECT_FALSE(r["instants"].empty()) << label;
  for (const json& i : r["instants"]) {
    const std::int64_t unix = i["unix"];
    EXPECT_EQ(our_instant(loc, unix), go_instant(i))
        << label << ": time.Unix(" << unix << ", 0).In(loc)";
  }
  for (const json& d : r["dates"]) {
    const auto& f = d["fields"];
    EXPECT_EQ(date_unix(f[0], f[1], f[2], f[3], f[4], f[5], loc), d["unix"].get<std::int64_t>())
        << label << ": time.Date" << f.dump() << ".Unix()";
  }
}

TEST(Golden, ZonesMatchGo) {
  for (const json& r : table("zone")) {
    const std::string name = r["zone"];
    auto loc = Location::load(name);
    ASSERT_TRUE(loc) << name << ": " << loc.error();
    EXPECT_EQ((*loc)->name(), name);
    expect_zone_matches_go(**loc, r, name);
  }
}

TEST(Golden, TzifFilesReadAsGoReadsThem) {
  for (const json& r : table("tzif")) {
    const std::string label = r["label"];
    const std::string go_error = r["err"];
    auto loc = Location::from_tzif(label, unhex(r["hex"]));
    if (label == "version '4'") {
      // Go 1.26 refuses version 4 files; we read them (time_zone.h).
      EXPECT_EQ(go_error, "malformed time zone information");
      EXPECT_TRUE(loc) << loc.error();
      continue;
    }
    if (!go_error.empty()) {
      ASSERT_FALSE(loc) << label << ": Go says " << go_error;
      EXPECT_TRUE(loc.error().starts_with(go_error)) << label << ": " << loc.error();
      continue;
    }
    ASSERT_TRUE(loc) << label << ": " << loc.error();
    expect_zone_matches_go(**loc, r, label);
  }
}

TEST(Golden, LoadLocationMatchesGo) {
  for (const json& r : table("load_location")) {
    const std::string name = unhex(r["in_hex"]);
    auto loc = Location::load(name);
    EXPECT_EQ(loc ? std::string() : loc.error(), r["err"].get<std::string>())
        << "LoadLocation(hex " << r["in_hex"] << ")";
    if (loc && r.contains("name")) {
      EXPECT_EQ((*loc)->name(), r["name"].get<std::string>()) << name;
    }
  }
}

}  // namespace
}  // namespace vc::go
