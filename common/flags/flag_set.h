#pragma once
// FlagSet: a command-line parser that accepts what Volcano's binaries accept (spf13/pflag with
// klog's Go flags merged in, and Kubernetes' word-separator normalisation), so deployments can
// pass the same arguments to our binaries.
//
//   struct Options { int port = 8443; bool healthz = false; };
//   Options o;
//   FlagSet fs("vc-webhook-manager");
//   fs.int_var("port", &o.port, "The HTTPS port.");
//   fs.bool_var("enable-healthz", &o.healthz, "Serve /healthz.");
//   auto parsed = fs.parse({"--port=9443", "--enable-healthz", "2>&1"});
//   // parsed->args == {"2>&1"}, o.port == 9443
//
// Syntax, as pflag:
//   --name=value, --name value; -name=value and -name value for names of two or more letters
//   (Go's flag package allows one dash; pflag alone would read it as shorthands);
//   -v=3, -v 3, -v3 for a one-letter name (Go flags merged into pflag get their name as
//   shorthand); booleans: --x, --x=true|false (a following "false" is not consumed);
//   "--" ends the flags; anything else not starting with '-' (and "-" itself) is positional.
//   Underscores in names are dashes: --log_dir == --log-dir.
//   -h / --help stop parsing with help set (unless a flag of that name exists).
// Errors use pflag's texts: "unknown flag: --x", "unknown shorthand flag: 'x' in -xyz",
// "flag needs an argument: --port", "bad flag syntax: ---x",
// `invalid argument "abc" for "--port" flag: strconv.ParseInt: parsing "abc": invalid syntax`.
//
// Thread-safety: none; build and parse on one thread at start-up.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"
#include "common/flags/value.h"

namespace vc::flags {

struct Flag {
  std::string name;  // normalised: dashes, no leading "--"
  char shorthand = 0;
  std::string usage;
  std::string default_text;  // value.str() at registration
  std::string deprecated;    // non-empty: using the flag prints a deprecation warning
  bool hidden = false;       // left out of usage()
  bool changed = false;      // set on the command line
  std::unique_ptr<Value> value;
};

struct ParseResult {
  std::vector<std::string> args;      // positional arguments, in order
  bool help = false;                  // -h or --help was given; parsing stopped there
  std::vector<std::string> warnings;  // "Flag --x has been deprecated, <why>"
};

class FlagSet {
 public:
  explicit FlagSet(std::string program) : program_(std::move(program)) {}

  // Each *_var registers a flag writing to target; the target's current value is the default.
  // A name that is registered twice is a programming error (std::logic_error).
  void string_var(std::string_view name, std::string* target, std::string usage);
  void bool_var(std::string_view name, bool* target, std::string usage);
  void int_var(std::string_view name, int* target, std::string usage);
  void int64_var(std::string_view name, std::int64_t* target, std::string usage);
  void uint32_var(std::string_view name, std::uint32_t* target, std::string usage);
  void float32_var(std::string_view name, double* target, std::string usage);
  void float64_var(std::string_view name, double* target, std::string usage);
  void duration_var(std::string_view name, std::chrono::nanoseconds* target, std::string usage);
  // Repeatable; each occurrence is one element (no comma splitting).
  void string_array_var(std::string_view name, std::vector<std::string>* target, std::string usage);
  // Repeatable; each occurrence is split as a CSV record ("a,b" -> a, b).
  void string_slice_var(std::string_view name, std::vector<std::string>* target, std::string usage);
  // Any other type.
  void var(std::string_view name, std::unique_ptr<Value> value, std::string usage);

  // Marks a registered flag (std::logic_error when unknown).
  void deprecate(std::string_view name, std::string message);
  void hide(std::string_view name);

  // Parses args (without the program name). On error, flags before the bad one keep the values
  // they were given.
  api::Expected<ParseResult> parse(const std::vector<std::string>& args);

  const Flag* lookup(std::string_view name) const;
  bool changed(std::string_view name) const;
  // Every flag, sorted by name: (name, current value as text).
  std::vector<std::pair<std::string, std::string>> values() const;
  // "Usage of <program>:" and one line per visible flag, sorted by name, with its type, help
  // and non-zero default, aligned as pflag prints them.
  std::string usage() const;

  // Kubernetes' WordSepNormalizeFunc: '_' -> '-'.
  static std::string normalize(std::string_view name);

 private:
  using Args = std::vector<std::string>;

  Flag& add(std::string_view name, std::unique_ptr<Value> value, std::string usage);
  Flag* find(std::string_view name);
  // Sets flag to value; the error is pflag's "invalid argument ..." text.
  api::Status set(Flag& flag, std::string_view value, ParseResult& result);
  // Each may consume the next argument (index i advances).
  api::Status parse_long(std::string_view arg, std::string_view name_and_value, const Args& args,
                         size_t& i, ParseResult& result);
  api::Status parse_short(std::string_view arg, const Args& args, size_t& i, ParseResult& result);

  std::string program_;
  std::map<std::string, Flag, std::less<>> flags_;
  std::map<char, std::string> shorthands_;  // shorthand -> flag name
};

}  // namespace vc::flags
