#pragma once
// A faster JSON parser that builds the same nlohmann::json tree as nlohmann's own parser.
//
// Why: every admission review and every watch event is parsed once, and nlohmann's lexer (one
// character at a time, each string grown by push_back) was the largest single CPU cost of both
// binaries. This parser scans strings in runs, builds values in place and moves them into their
// parents; the tree it returns is identical to nlohmann::json::parse's (same value types: unsigned
// for non-negative integers, signed for negative ones, double for the rest; the last of duplicated
// keys wins).
//
// It takes the fast path only for the JSON the API server actually sends. Anything else (non-ASCII
// bytes or control characters in strings, a lone UTF-16 surrogate escape, an integer beyond 64
// bits, a float beyond double's range or below its smallest denormal, nesting deeper than
// kMaxFastDepth, and of course invalid JSON) makes try_parse return nullopt, and parse() then runs
// nlohmann's parser, so results and error messages (offsets included) are exactly nlohmann's.
//
// `drop_member`, when not empty, names object members left out of the tree wherever they occur
// (their values are still checked): informers pass "managedFields", which no controller reads
// and which is a third of a pod's JSON, so it is never built only to be thrown away. Both the
// fast path and nlohmann's (a parser callback) drop it.
//
// `filter` (member_filter.h), in the overloads that take one, builds only the members it keeps;
// the others are checked like the rest of the text and skipped. On nlohmann's path the filter is
// applied to its tree, so both paths return the same document.
//
// Thread-safety: pure functions.

#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json/member_filter.h"

namespace vc::fastjson {

// Deeper documents go to nlohmann's parser (which keeps its own explicit stack): the fast parser
// recurses, so this bounds its stack use.
inline constexpr int kMaxFastDepth = 256;

// The parsed document, or nullopt when the text is not on the fast path (see above).
std::optional<nlohmann::json> try_parse(std::string_view text, std::string_view drop_member = {});
// max_values: a document with more values (objects, arrays and scalars, each counted once; the
// members `filter` skips are not) is left to nlohmann's parser too, having built no more than
// that: a caller that bounds the size of what it builds counts the values there (e.g. with a
// parser callback) and refuses the document.
std::optional<nlohmann::json> try_parse(
    std::string_view text, const MemberFilter& filter, std::string_view drop_member = {},
    std::size_t max_values = std::numeric_limits<std::size_t>::max());

// nlohmann::json::parse(text) with the fast path first: throws nlohmann's parse_error or
// out_of_range for bad input, with nlohmann's messages.
nlohmann::json parse(std::string_view text, std::string_view drop_member = {});
nlohmann::json parse(std::string_view text, const MemberFilter& filter,
                     std::string_view drop_member = {});

// nlohmann::json::parse(text, nullptr, false) with the fast path first: a discarded value
// (is_discarded()) for bad input.
nlohmann::json parse_or_discarded(std::string_view text, std::string_view drop_member = {});
nlohmann::json parse_or_discarded(std::string_view text, const MemberFilter& filter,
                                  std::string_view drop_member = {});

// Equal values of equal nlohmann types all the way down, member order included (json's own ==
// treats 1u and 1 as equal; the admit functions do not, e.g. is_number_unsigned). For tests and
// the differential fuzzer.
bool identical(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace vc::fastjson
