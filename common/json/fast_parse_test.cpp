#include "common/json/fast_parse.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace vc::fastjson {
namespace {

using nlohmann::json;

// The fast path, when it answers, must give nlohmann's tree; when it declines, nlohmann decides.
void expect_like_nlohmann(const std::string& text) {
  const json reference = json::parse(text, nullptr, false);
  const auto fast = try_parse(text);
  if (fast) {
    ASSERT_FALSE(reference.is_discarded()) << "fast path accepted invalid JSON: " << text;
    EXPECT_TRUE(identical(*fast, reference))
        << text << "\nfast: " << fast->dump() << "\nnlohmann: " << reference.dump();
  }
  const json combined = parse_or_discarded(text);
  EXPECT_EQ(combined.is_discarded(), reference.is_discarded()) << text;
  if (!reference.is_discarded()) {
    EXPECT_TRUE(identical(combined, reference)) << text;
  }
}

TEST(FastParse, ParsesTheShapesTheApiServerSends) {
  const std::string text =
      R"({"kind":"AdmissionReview","request":{"uid":"a-b","dryRun":false,"object":{"spec":)"
      R"({"minAvailable":3,"tasks":[{"name":"head","replicas":1,"template":{"spec":{)"
      R"("containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}]},)"
      R"("metadata":{"labels":{},"annotations":null,"generation":-1,"ratio":0.25}}}})";
  const auto fast = try_parse(text);
  ASSERT_TRUE(fast.has_value());
  EXPECT_TRUE(identical(*fast, json::parse(text)));
  const json& meta = (*fast)["request"]["object"]["metadata"];
  EXPECT_TRUE(meta["generation"].is_number_integer() && !meta["generation"].is_number_unsigned());
  EXPECT_TRUE((*fast)["request"]["object"]["spec"]["minAvailable"].is_number_unsigned());
  EXPECT_TRUE(meta["ratio"].is_number_float());
  EXPECT_TRUE(meta["annotations"].is_null());
}

TEST(FastParse, DecodesEscapesAndSurrogatePairs) {
  const auto fast = try_parse(R"(["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20ac\ud83d\ude00\u0000"])");
  ASSERT_TRUE(fast.has_value());
  EXPECT_EQ((*fast)[0].get<std::string>(), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ((*fast)[1].get<std::string>(),
            std::string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\0", 10));
}

TEST(FastParse, LastDuplicatedKeyWinsAsInNlohmann) {
  expect_like_nlohmann(R"({"a":1,"b":2,"a":{"x":[]}})");
  EXPECT_EQ(try_parse(R"({"a":1,"a":"z"})")->at("a"), "z");
}

TEST(FastParse, NumbersKeepNlohmannsTypes) {
  for (const char* text :
       {"0", "-0", "7", "-7", "18446744073709551615", "-9223372036854775808", "1.5", "-2.5e-3",
        "1E5", "1e+2", "0.1", "123456789.123456789e10", "4.9e-324"}) {
    SCOPED_TRACE(text);
    ASSERT_TRUE(try_parse(text).has_value());
    expect_like_nlohmann(text);
  }
}

TEST(FastParse, LeavesWhatItDoesNotHandleToNlohmann) {
  // Beyond 64-bit integers, beyond double, below the smallest denormal, non-ASCII bytes, lone
  // surrogates, control characters, deep nesting: nullopt, and parse() gives nlohmann's answer.
  const std::vector<std::string> declined = {"18446744073709551616",
                                             "-9223372036854775809",
                                             "1e309",
                                             "1e-400",
                                             "\"caf\xc3\xa9\"",
                                             R"("\ud800")",
                                             R"("\udc00x")",
                                             std::string("\"a\x01\""),
                                             std::string(300, '[') + std::string(300, ']')};
  for (const std::string& text : declined) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(try_parse(text).has_value());
    expect_like_nlohmann(text);
  }
  EXPECT_EQ(parse("\"caf\xc3\xa9\"").get<std::string>(), "caf\xc3\xa9");
  EXPECT_TRUE(parse(std::string(300, '[') + std::string(300, ']')).is_array());
}

TEST(FastParse, InvalidJsonThrowsNlohmannsError) {
  for (const char* text :
       {"",    " ",     "{",    "{\"a\"}", "{\"a\":}",  "[1,]",        "[1 2]",
        "01",  "1.",    ".5",   "+1",      "-",         "1e",          "tru",
        "nul", "\"abc", "{} x", "{'a':1}", "[\"\\x\"]", "\"\\u12g4\"", "{\"a\":1,}"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(try_parse(text).has_value());
    std::string fast_error;
    std::string reference_error;
    try {
      parse(text);
    } catch (const json::exception& e) {
      fast_error = e.what();
    }
    try {
      const json parsed = json::parse(text);
      ADD_FAILURE() << "nlohmann accepted " << parsed.dump();
    } catch (const json::exception& e) {
      reference_error = e.what();
    }
    EXPECT_FALSE(reference_error.empty());
    EXPECT_EQ(fast_error, reference_error);
    EXPECT_TRUE(parse_or_discarded(text).is_discarded());
  }
}

TEST(FastParse, DropsTheNamedMemberOnBothPaths) {
  const std::string pod =
      R"({"metadata":{"name":"p","managedFields":[{"manager":"kwok","fieldsV1":{"f:status":{}}}],)"
      R"("labels":{"managedFields":"kept only as a value"}},"spec":{"managedFields":1}})";
  const auto fast = try_parse(pod, "managedFields");
  ASSERT_TRUE(fast.has_value());
  const json want = json::parse(R"({"metadata":{"name":"p","labels":{}},"spec":{}})");
  EXPECT_TRUE(identical(*fast, want)) << fast->dump();
  // Non-ASCII text sends the document to nlohmann's parser, which drops the member too.
  const std::string slow = pod.substr(0, pod.size() - 1) + ",\"note\":\"caf\\u00e9 \xc3\xa9\"}";
  EXPECT_FALSE(try_parse(slow, "managedFields").has_value());
  const json dropped = parse_or_discarded(slow, "managedFields");
  ASSERT_FALSE(dropped.is_discarded());
  EXPECT_FALSE(dropped["metadata"].contains("managedFields"));
  EXPECT_FALSE(dropped["spec"].contains("managedFields"));
  EXPECT_EQ(dropped["metadata"]["name"], "p");
  // A dropped value is still checked: invalid JSON inside it is still an error.
  EXPECT_FALSE(try_parse(R"({"managedFields":[1,}], "a":1})", "managedFields").has_value());
  EXPECT_TRUE(
      parse_or_discarded(R"({"managedFields":[1,}], "a":1})", "managedFields").is_discarded());
  EXPECT_FALSE(try_parse(R"({"managedFields":1e999})", "managedFields").has_value());
}

TEST(FastParse, BuildsOnlyTheMembersAFilterKeeps) {
  const auto filter = MemberFilter::only(
      {"metadata.name", "metadata.labels", "spec.containers.resources", "status.phase"});
  const std::string pod =
      R"({"kind":"Pod","metadata":{"name":"p","uid":"u","labels":{"a":"1","b":"2"}},)"
      R"("spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}}},)"
      R"({"name":"d"}],"volumes":[{"name":"v"}]},"status":{"phase":"Running","conditions":[]}})";
  const json want =
      json::parse(R"({"metadata":{"name":"p","labels":{"a":"1","b":"2"}},)"
                  R"("spec":{"containers":[{"resources":{"requests":{"cpu":"1"}}},{}]},)"
                  R"("status":{"phase":"Running"}})");
  const auto fast = try_parse(pod, filter);
  ASSERT_TRUE(fast.has_value());
  EXPECT_TRUE(identical(*fast, want)) << fast->dump();
  // nlohmann's path (non-ASCII text) applies the same filter to its tree.
  const std::string slow = pod.substr(0, pod.size() - 1) + ",\"note\":\"\xc3\xa9\"}";
  EXPECT_FALSE(try_parse(slow, filter).has_value());
  const json pruned = parse(slow, filter);
  EXPECT_TRUE(identical(pruned, want)) << pruned.dump();
  // A value of another type than the filter expects is kept as it is, never reshaped.
  const json odd = parse(R"({"metadata":"oops","status":[{"phase":"x","y":1},2]})", filter);
  EXPECT_TRUE(identical(odd, json::parse(R"({"metadata":"oops","status":[{"phase":"x"},2]})")))
      << odd.dump();
  // Skipped members are still checked: invalid JSON inside them is an error.
  EXPECT_TRUE(parse_or_discarded(R"({"spec":{"volumes":[1,}]}})", filter).is_discarded());
  EXPECT_THROW(parse(R"({"kind":tru})", filter), json::parse_error);
  // The filter combines with a dropped member.
  const json both = parse(R"({"metadata":{"name":"n","labels":{"managedFields":1,"k":2}}})", filter,
                          "managedFields");
  EXPECT_TRUE(identical(both, json::parse(R"({"metadata":{"name":"n","labels":{"k":2}}})")));
}

TEST(MemberFilter, PathsComposeAndAWholeMemberWins) {
  auto f = MemberFilter::only({"a.b.c", "a.b", "x.y"});
  ASSERT_NE(f.find("a"), nullptr);
  ASSERT_NE(f.find("a")->find("b"), nullptr);
  EXPECT_TRUE(f.find("a")->find("b")->keeps_all());  // "a.b" covers "a.b.c"
  EXPECT_FALSE(f.find("a")->keeps_all());
  EXPECT_EQ(f.find("a")->find("z"), nullptr);
  EXPECT_EQ(f.find("b"), nullptr);
  f.keep("x");
  EXPECT_TRUE(f.find("x")->keeps_all());
  f.keep("x.y.z");  // beneath a whole member: nothing changes
  EXPECT_TRUE(f.find("x")->keeps_all());
  MemberFilter all;
  EXPECT_TRUE(all.keeps_all());
  all.keep("a.b");  // a filter that keeps everything stays so
  EXPECT_TRUE(all.keeps_all());
  all.member("object") = f;
  EXPECT_FALSE(all.keeps_all());
  EXPECT_NE(all.find("object")->find("a"), nullptr);
  EXPECT_EQ(all.find("type"), nullptr);
  EXPECT_THROW(MemberFilter::only({""}), std::invalid_argument);
  EXPECT_THROW(MemberFilter::only({"a..b"}), std::invalid_argument);
  EXPECT_THROW(MemberFilter::only({"a."}), std::invalid_argument);
}

TEST(MemberFilter, AllButLeavesOutOnlyTheListedMembers) {
  const auto f = MemberFilter::all_but({"a.b.c", "a.d", "a.b.c.e", "x"});
  const std::string text =
      R"({"a":{"b":[{"c":1,"k":2},{"c":3}],"d":{"z":1},"q":{"c":4}},"x":[1],"y":{"x":5},"c":6})";
  const json want = json::parse(R"({"a":{"b":[{"k":2},{}],"q":{"c":4}},"y":{"x":5},"c":6})");
  const auto fast = try_parse(text, f);
  ASSERT_TRUE(fast.has_value());
  EXPECT_TRUE(identical(*fast, want)) << fast->dump();
  // nlohmann's path (non-ASCII text) gives the same document.
  const std::string slow = text.substr(0, text.size() - 1) + ",\"n\":\"\xc3\xa9\"}";
  json with_n = want;
  with_n["n"] = "\xc3\xa9";
  const json pruned = parse(slow, f);
  EXPECT_TRUE(identical(pruned, with_n)) << pruned.dump();
  EXPECT_FALSE(f.keeps_all());
  ASSERT_NE(f.find("y"), nullptr);
  EXPECT_TRUE(f.find("y")->keeps_all());
  EXPECT_EQ(f.find("x"), nullptr);
  MemberFilter copy = f;
  EXPECT_THROW(copy.keep("a"), std::logic_error);
  EXPECT_THROW(MemberFilter::all_but({""}), std::invalid_argument);
  EXPECT_THROW(MemberFilter::all_but({"a..b"}), std::invalid_argument);
}

// Random documents, then each with one byte changed: wherever the fast path answers it must
// answer as nlohmann does.
class RandomJson {
 public:
  explicit RandomJson(std::uint32_t seed) : rng_(seed) {}

  std::string document() {
    std::string out;
    value(out, 0);
    return out;
  }

  std::string mutate(std::string text) {
    if (text.empty()) return text;
    static const char kBytes[] = "{}[]\",:\\u0123456789.eE+-tfn \x01\x7f\xc3\xa9";
    std::uniform_int_distribution<std::size_t> at(0, text.size() - 1);
    std::uniform_int_distribution<std::size_t> pick(0, sizeof(kBytes) - 2);
    text[at(rng_)] = kBytes[pick(rng_)];
    return text;
  }

 private:
  int roll(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  void value(std::string& out, int depth) {
    switch (depth > 4 ? 3 + roll(5) : roll(8)) {
      case 0:
      case 1: {
        out += '{';
        const int n = roll(5);
        for (int i = 0; i < n; ++i) {
          if (i) out += ',';
          string(out);
          out += roll(4) == 0 ? " : " : ":";
          value(out, depth + 1);
        }
        out += '}';
        break;
      }
      case 2: {
        out += '[';
        const int n = roll(5);
        for (int i = 0; i < n; ++i) {
          if (i) out += roll(3) == 0 ? " ,\n" : ",";
          value(out, depth + 1);
        }
        out += ']';
        break;
      }
      case 3:
      case 4:
        string(out);
        break;
      case 5: {
        static const char* kNumbers[] = {"0",
                                         "-0",
                                         "12",
                                         "-34",
                                         "5.5",
                                         "-0.001",
                                         "1e3",
                                         "2E-2",
                                         "9007199254740993",
                                         "-1.7976931348623157e308"};
        out += kNumbers[roll(10)];
        break;
      }
      case 6:
        out += std::to_string(static_cast<std::int64_t>(rng_()) - (1LL << 31));
        break;
      default: {
        static const char* kWords[] = {"true", "false", "null"};
        out += kWords[roll(3)];
      }
    }
  }

  void string(std::string& out) {
    static const char* kParts[] = {"name",     "a",   "",        "\\\"",
                                   "\\\\",     "\\n", "\\u00e9", "\\ud83d\\ude00",
                                   "metadata", "x y", "\\/",     "9"};
    out += '"';
    const int n = roll(4);
    for (int i = 0; i < n; ++i) out += kParts[roll(12)];
    out += '"';
  }

  std::mt19937 rng_;
};

TEST(FastParse, AgreesWithNlohmannOnRandomDocumentsAndMutations) {
  RandomJson gen(20261129);
  const auto filter = MemberFilter::only({"name", "metadata.a", "a.name.x y", "9"});
  int fast_answers = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string doc = gen.document();
    ASSERT_TRUE(try_parse(doc).has_value()) << doc;  // generated documents are valid, plain JSON
    ++fast_answers;
    expect_like_nlohmann(doc);
    const std::string mutated = gen.mutate(doc);
    expect_like_nlohmann(mutated);
    // Skipped members are checked as strictly as kept ones: a mutation inside one (a control
    // character, a bad escape) still leaves the document to nlohmann, which rejects it.
    json reference_mutated = json::parse(mutated, nullptr, false);
    const json filtered_mutated = parse_or_discarded(mutated, filter);
    EXPECT_EQ(filtered_mutated.is_discarded(), reference_mutated.is_discarded()) << mutated;
    if (!reference_mutated.is_discarded()) {
      prune(reference_mutated, filter);
      EXPECT_TRUE(identical(filtered_mutated, reference_mutated)) << mutated;
    }
    // Dropping "a" (a generated key) agrees with nlohmann's callback-based drop.
    const json fast_dropped = parse_or_discarded(doc, "a");
    const json reference_dropped = json::parse(
        doc,
        [](int, json::parse_event_t e, json& v) {
          return !(e == json::parse_event_t::key && v == "a");
        },
        false);
    EXPECT_TRUE(identical(fast_dropped, reference_dropped)) << doc;
    // A filter over generated keys builds exactly what pruning nlohmann's tree leaves.
    json reference_filtered = json::parse(doc);
    prune(reference_filtered, filter);
    EXPECT_TRUE(identical(parse(doc, filter), reference_filtered)) << doc;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(fast_answers, 3000);
}

}  // namespace
}  // namespace vc::fastjson
