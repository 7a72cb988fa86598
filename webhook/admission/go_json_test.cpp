// go_json() against go_json_via_dump(), the nlohmann-based encoder it replaced: the same bytes
// for hand-picked edge cases and for thousands of random documents.
#include "webhook/admission/go_json.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace vc::webhook {
namespace {

using nlohmann::json;

void expect_same(const json& v) {
  EXPECT_EQ(go_json(v), go_json_via_dump(v)) << "document: " << go_json_via_dump(v);
}

TEST(GoJson, EdgeCasesMatchTheDumpEncoder) {
  const std::string control(
      "\x01\x02\x07\b\t\n\x0b\f\r\x0e\x1f"
      "\x7f",
      12);
  for (const json& v : {
           json(nullptr),
           json(true),
           json(false),
           json(0),
           json(-1),
           json(42u),
           json(std::numeric_limits<std::int64_t>::min()),
           json(std::numeric_limits<std::uint64_t>::max()),
           json(0.5),
           json(1e300),
           json(-0.0),
           json(1.0),
           json(123456789.125),
           json(std::numeric_limits<double>::quiet_NaN()),
           json(std::numeric_limits<double>::infinity()),
           json(""),
           json("plain"),
           json("quote \" and backslash \\ and slash /"),
           json(control),
           json("<script>&amp;</script>"),
           json("a\u2028b\u2029c\u20ac\u2027\u202a"),
           json("\xe2"),
           json("x\xe2\x80"),
           json("\xe2\x80\xa8\xe2"),
           json("caf\xc3\xa9 \xf0\x9f\x98\x80"),
           json(std::string("nul\0inside", 10)),
           json::array(),
           json::object(),
           json{{"b", 1}, {"a", {1, 2, {{"<", ">"}}}}, {"\u2028", nullptr}},
           json::array({json::array(), json::object(), json::array({json::array()})}),
       }) {
    expect_same(v);
  }
}

TEST(GoJson, DiscardedValueIsWrittenAsBefore) {
  json discarded(json::value_t::discarded);
  expect_same(discarded);
  expect_same(json::array({1, discarded}));
}

TEST(GoJson, InvalidUtf8IsReplacedAsBefore) {
  // Overlong, surrogate, beyond U+10FFFF, lone continuation, truncated: dump()'s replacement.
  for (const char* bad : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x80", "ab\xc3",
                          "\xf0\x9f\x98", "ok\xffok"}) {
    expect_same(json(bad));
    expect_same(json{{bad, "value"}});
    expect_same(json::array({"fine", json{{"k", bad}}}));
  }
}

// Random documents over an alphabet heavy in the bytes that need care.
class RandomDocs {
 public:
  explicit RandomDocs(std::uint32_t seed) : rng_(seed) {}

  json value(int depth) {
    switch (pick(depth > 4 ? 6 : 8)) {
      case 0:
        return nullptr;
      case 1:
        return pick(2) == 0;
      case 2:
        return static_cast<std::int64_t>(rng_()) - static_cast<std::int64_t>(rng_());
      case 3:
        return static_cast<std::uint64_t>(rng_()) << 32 | rng_();
      case 4:
        return std::ldexp(static_cast<double>(rng_()) - 2e9, static_cast<int>(pick(80)) - 40);
      case 5:
        return text();
      case 6: {
        json a = json::array();
        for (std::uint32_t i = pick(5); i > 0; --i) a.push_back(value(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (std::uint32_t i = pick(5); i > 0; --i) o[text()] = value(depth + 1);
        return o;
      }
    }
  }

 private:
  std::uint32_t pick(std::uint32_t n) { return rng_() % n; }

  std::string text() {
    static const std::string pieces[] = {"a",
                                         "Z",
                                         "0",
                                         " ",
                                         "\"",
                                         "\\",
                                         "/",
                                         "<",
                                         ">",
                                         "&",
                                         "\n",
                                         "\t",
                                         "\x01",
                                         "\x1f",
                                         "\x7f",
                                         "\xc3\xa9",
                                         "\xe2\x82\xac",
                                         "\xe2\x80\xa8",
                                         "\xe2\x80\xa9",
                                         "\xe2",
                                         "\x80",
                                         "\xf0\x9f\x98\x80",
                                         "\xed\xa0\x80",
                                         "\xc0\xaf",
                                         "\xff",
                                         "long run of plain ascii text "};
    std::string s;
    for (std::uint32_t i = pick(8); i > 0; --i) s += pieces[pick(std::size(pieces))];
    return s;
  }

  std::mt19937 rng_;
};

TEST(GoJson, RandomDocumentsMatchTheDumpEncoder) {
  RandomDocs docs(20261201);
  for (int i = 0; i < 5000; ++i) {
    const json v = docs.value(0);
    ASSERT_EQ(go_json(v), go_json_via_dump(v)) << "document " << i;
  }
}

}  // namespace
}  // namespace vc::webhook
