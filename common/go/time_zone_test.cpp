// Location beyond what golden_test.cpp compares with Go: TZif files built here (v1, v2 with and
// without a footer, malformed ones), slim files against the fat ones they were cut from, the
// $ZONEINFO directory and zip, $TZ for "Local", the cache, and threads.

#include "common/go/time_zone.h"

#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace vc::go {
namespace {

constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kDay = 24 * kHour;

// ---- Building TZif bytes ------------------------------------------------------------------

struct TestZone {
  std::int32_t offset = 0;
  bool dst = false;
  std::string abbrev;
};

struct TestTransition {
  std::int64_t when = 0;
  std::uint8_t zone = 0;
};

void put_be(std::string& out, std::uint64_t v, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>(v >> shift));
  }
}

// A TZif file: version '\0' (v1 only) or '2'..'4' (a 32-bit block, then the 64-bit block and
// the footer, given with its newlines).
std::string build_tzif(char version, const std::vector<TestZone>& zones,
                       const std::vector<TestTransition>& transitions,
                       const std::string& footer = "") {
  std::string chars;
  std::vector<std::uint8_t> abbrev_index;
  for (const auto& z : zones) {
    abbrev_index.push_back(static_cast<std::uint8_t>(chars.size()));
    chars += z.abbrev;
    chars.push_back('\0');
  }
  auto block = [&](int time_size) {
    std::string b = "TZif";
    b.push_back(version);
    b.append(15, '\0');
    for (const std::size_t n : {std::size_t{0}, std::size_t{0}, std::size_t{0}, transitions.size(),
                                zones.size(), chars.size()}) {
      put_be(b, n, 4);
    }
    for (const auto& t : transitions) put_be(b, static_cast<std::uint64_t>(t.when), time_size);
    for (const auto& t : transitions) b.push_back(static_cast<char>(t.zone));
    for (std::size_t i = 0; i < zones.size(); ++i) {
      put_be(b, static_cast<std::uint32_t>(zones[i].offset), 4);
      b.push_back(zones[i].dst ? 1 : 0);
      b.push_back(static_cast<char>(abbrev_index[i]));
    }
    return b + chars;
  };
  std::string out = block(4);
  if (version != '\0') out += block(8) + footer;
  return out;
}

// The 64-bit block of a version 2+ file, read back (to cut a fat file down to a slim one).
struct TzifContent {
  std::vector<TestZone> zones;
  std::vector<TestTransition> transitions;
  std::string footer;
};

TzifContent read_tzif(const std::string& b) {
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(b.at(at + i));
    return v;
  };
  auto counts = [&](std::size_t at) {
    std::array<std::size_t, 6> n{};
    for (std::size_t i = 0; i < 6; ++i) n[i] = u32(at + 4 * i);
    return n;
  };
  const auto v1 = counts(20);
  const std::size_t second = 44 + v1[3] * 5 + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0];
  const auto n = counts(second + 20);
  std::size_t at = second + 44;
  TzifContent out;
  const std::size_t times = at, indices = times + n[3] * 8, types = indices + n[3],
                    chars = types + n[4] * 6;
  for (std::size_t i = 0; i < n[3]; ++i) {
    const auto when =
        static_cast<std::int64_t>(std::uint64_t{u32(times + 8 * i)} << 32 | u32(times + 8 * i + 4));
    out.transitions.push_back({when, static_cast<std::uint8_t>(b.at(indices + i))});
  }
  for (std::size_t i = 0; i < n[4]; ++i) {
    const std::size_t t = types + 6 * i;
    const std::string abbrev = b.substr(chars + static_cast<unsigned char>(b.at(t + 5)));
    out.zones.push_back(
        {static_cast<std::int32_t>(u32(t)), b.at(t + 4) != 0, abbrev.substr(0, abbrev.find('\0'))});
  }
  at = chars + n[5] + n[2] * 12 + n[1] + n[0];
  out.footer = b.substr(at);
  return out;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::shared_ptr<const Location> must_load(std::string_view name) {
  auto loc = Location::load(name);
  EXPECT_TRUE(loc) << name << ": " << loc.error();
  return loc ? *loc : Location::utc();
}

std::shared_ptr<const Location> must_parse(const std::string& bytes) {
  auto loc = Location::from_tzif("test", bytes);
  EXPECT_TRUE(loc) << loc.error();
  return loc ? *loc : Location::utc();
}

// Unix second of a UTC civil time.
std::int64_t utc(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  return date_unix(y, mo, d, h, mi, s, *Location::utc());
}

const std::vector<TestZone> kEastern = {
    {-18000, false, "EST"}, {-14400, true, "EDT"}, {-17762, false, "LMT"}};

// ---- Calendar and time.Date in UTC ----------------------------------------------------------

TEST(TimeZone, CivilTimeInUtc) {
  const auto& z = *Location::utc();
  EXPECT_EQ(civil_time(0, z), (CivilTime{1970, 1, 1, 0, 0, 0, 4, 0, "UTC"}));
  EXPECT_EQ(civil_time(951782400, z), (CivilTime{2000, 2, 29, 0, 0, 0, 2, 0, "UTC"}));
  EXPECT_EQ(civil_time(-1, z), (CivilTime{1969, 12, 31, 23, 59, 59, 3, 0, "UTC"}));
  // 0000-01-01 (year 0 exists, as in Go) was a Saturday; 1 BC is year 0, 2 BC year -1.
  EXPECT_EQ(civil_time(-62167219200, z), (CivilTime{0, 1, 1, 0, 0, 0, 6, 0, "UTC"}));
  EXPECT_EQ(civil_time(-62167219201, z), (CivilTime{-1, 12, 31, 23, 59, 59, 5, 0, "UTC"}));
  EXPECT_EQ(civil_time(253402300799, z), (CivilTime{9999, 12, 31, 23, 59, 59, 5, 0, "UTC"}));
  const Location::Zone whole = z.lookup(123);
  EXPECT_EQ(whole.start, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(whole.end, std::numeric_limits<std::int64_t>::max());
}

TEST(TimeZone, DateNormalisesFieldsAsGoDoes) {
  EXPECT_EQ(utc(2024, 13, 1), utc(2025, 1, 1));
  EXPECT_EQ(utc(2024, 3, 0), utc(2024, 2, 29));
  EXPECT_EQ(utc(2023, 3, 0), utc(2023, 2, 28));
  EXPECT_EQ(utc(2024, 1, 32), utc(2024, 2, 1));
  EXPECT_EQ(utc(2024, 3, 9, 25), utc(2024, 3, 10, 1));
  EXPECT_EQ(utc(2024, 3, 10, 0, -1), utc(2024, 3, 9, 23, 59));
  EXPECT_EQ(utc(2024, 0, 1), utc(2023, 12, 1));
  EXPECT_EQ(utc(2024, -12, 1), utc(2022, 12, 1));
  EXPECT_EQ(utc(2024, 1, 1, 0, 0, -1), utc(2023, 12, 31, 23, 59, 59));
  EXPECT_EQ(utc(1970, 1, 1), 0);
  EXPECT_EQ(utc(0, 1, 1), -62167219200);
  // Extreme fields wrap rather than being undefined.
  (void)date_unix(std::numeric_limits<std::int64_t>::max(),
                  std::numeric_limits<std::int64_t>::min(),
                  std::numeric_limits<std::int64_t>::max(), 0, 0, 0, *Location::utc());
}

// ---- TZif files ---------------------------------------------------------------------------

TEST(TimeZone, VersionOneFile) {
  // Transitions as 32-bit times. Before the first one: the first standard zone (the first
  // transition uses zone 0, so tzcode's "unused first zone" does not apply).
  const auto loc =
      must_parse(build_tzif('\0', kEastern, {{-2717650800, 0}, {1710054000, 1}, {1730613600, 0}}));
  EXPECT_EQ(loc->lookup(-2717650801).abbrev, "EST");
  EXPECT_EQ(loc->lookup(1710053999).abbrev, "EST");
  EXPECT_EQ(loc->lookup(1710054000).abbrev, "EDT");
  const auto after = loc->lookup(1730613600);
  EXPECT_EQ(after.abbrev, "EST");
  EXPECT_EQ(after.start, 1730613600);
  EXPECT_EQ(after.end, std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(loc->lookup(utc(2030, 7, 1)).abbrev, "EST");  // no footer: no more changes
}

TEST(TimeZone, VersionTwoFooterGovernsAfterTheLastTransition) {
  const std::string footer = "\nEST5EDT,M3.2.0,M11.1.0\n";
  const auto loc = must_parse(build_tzif('2', kEastern, {{-2717650800, 0}}, footer));
  EXPECT_EQ(loc->lookup(utc(2030, 3, 10, 6, 59, 59)).abbrev, "EST");
  EXPECT_EQ(loc->lookup(utc(2030, 3, 10, 7)).abbrev, "EDT");
  EXPECT_EQ(loc->lookup(utc(2030, 11, 3, 5, 59, 59)).abbrev, "EDT");
  EXPECT_EQ(loc->lookup(utc(2030, 11, 3, 6)).abbrev, "EST");
  EXPECT_EQ(civil_time(utc(2030, 7, 4, 16), *loc),
            (CivilTime{2030, 7, 4, 12, 0, 0, 4, -14400, "EDT"}));
  // Versions 3 and 4 read the same.
  for (const char version : {'3', '4'}) {
    const auto same = must_parse(build_tzif(version, kEastern, {{-2717650800, 0}}, footer));
    EXPECT_EQ(same->lookup(utc(2030, 7, 1)).abbrev, "EDT") << version;
  }
  // An empty footer, or one without its newlines, leaves the last zone in force.
  for (const std::string other :
       {"\n\n", "", "\nEST5EDT,M3.2.0,M11.1.0", "EST5EDT,M3.2.0,M11.1.0\n"}) {
    const auto loc2 = must_parse(build_tzif('2', kEastern, {{-2717650800, 0}}, other));
    EXPECT_EQ(loc2->lookup(utc(2030, 7, 1)).abbrev, "EST") << other;
  }
  // A footer Go cannot parse is ignored the same way.
  const auto bad = must_parse(build_tzif('2', kEastern, {{-2717650800, 1}}, "\nEST5EDT,M3.2.0\n"));
  EXPECT_EQ(bad->lookup(utc(2030, 1, 1)).abbrev, "EDT");
}

TEST(TimeZone, RulesBeyondTheUsualForms) {
  // Israel: Thursday of the fourth week of March at 26:00, i.e. Friday 02:00.
  const auto israel =
      must_parse(build_tzif('2', {{7200, false, "IST"}}, {}, "\nIST-2IDT,M3.4.4/26,M10.5.0\n"));
  EXPECT_EQ(civil_time(utc(2024, 3, 29, 0), *israel).abbrev, "IDT");  // 2024-03-29 is a Friday
  EXPECT_EQ(civil_time(utc(2024, 3, 28, 23, 59, 59), *israel).abbrev, "IST");
  // Jn never counts February 29; n does.
  const auto julian = must_parse(build_tzif('2', {{0, false, "AAA"}}, {}, "\nAAA0BBB,J60/0,300\n"));
  EXPECT_EQ(julian->lookup(utc(2024, 3, 1)).abbrev, "BBB");  // J60 is March 1, even in 2024
  EXPECT_EQ(julian->lookup(utc(2024, 2, 29, 23)).abbrev, "AAA");
  // Negative rule times, and a zone east of UTC given as <+0530>-5:30 with no daylight time.
  const auto india = must_parse(build_tzif('2', {{19800, false, "IST"}}, {}, "\n<+0530>-5:30\n"));
  EXPECT_EQ(civil_time(0, *india), (CivilTime{1970, 1, 1, 5, 30, 0, 4, 19800, "+0530"}));
  const auto south = must_parse(
      build_tzif('2', {{-10800, false, "-03"}}, {}, "\n<-03>3<-02>,M3.5.0/-2,M10.5.0/-1\n"));
  EXPECT_EQ(south->lookup(utc(2024, 1, 15)).abbrev, "-03");
  EXPECT_EQ(south->lookup(utc(2024, 6, 15)).abbrev, "-02");
  EXPECT_TRUE(south->lookup(utc(2024, 6, 15)).dst);
}

struct Malformed {
  const char* what;
  std::string bytes;
};

TEST(TimeZone, MalformedFilesAreRefusedWithAReason) {
  const std::string valid =
      build_tzif('2', kEastern, {{0, 1}, {100000, 0}}, "\nEST5EDT,M3.2.0,M11.1.0\n");
  std::string bad_magic = valid;
  bad_magic[0] = 'X';
  std::string version_one = valid;
  version_one[4] = '1';
  std::string past_end = build_tzif('\0', kEastern, {{0, 1}});
  past_end[43] = 100;  // 100 abbreviation characters, in a version 1 file
  std::string huge = valid;
  huge[32] = '\xff';  // 4 billion transitions
  std::string abbrev_past_end = valid;
  abbrev_past_end[valid.size() - 24 - 12 - 1] = 12;  // last type's abbreviation index
  const std::vector<Malformed> cases = {
      {"empty", ""},
      {"truncated magic", "TZi"},
      {"truncated header", valid.substr(0, 30)},
      {"bad magic", bad_magic},
      {"version '1'", version_one},
      {"counts past the end", past_end},
      {"huge count", huge},
      {"truncated 64-bit block", valid.substr(0, 150)},
      {"no zones", build_tzif('2', {}, {})},
      {"zone index out of range", build_tzif('2', kEastern, {{0, 3}})},
      {"abbreviation index out of range", abbrev_past_end},
  };
  for (const auto& c : cases) {
    auto loc = Location::from_tzif("bad", c.bytes);
    ASSERT_FALSE(loc) << c.what;
    EXPECT_TRUE(loc.error().starts_with("malformed time zone information: ")) << loc.error();
    EXPECT_GT(loc.error().size(), 34u) << c.what;  // and says what is wrong
  }
}

TEST(TimeZone, DamagedFilesNeverCrash) {
  const std::string fat = read_bytes("/usr/share/zoneinfo/America/New_York");
  ASSERT_FALSE(fat.empty());
  for (std::size_t n = 0; n < fat.size(); n += 7) {
    auto loc = Location::from_tzif("cut", fat.substr(0, n));
    if (loc) (void)(*loc)->lookup(utc(2030, 1, 1));
  }
  std::mt19937 random(20261204);
  for (int i = 0; i < 2000; ++i) {
    std::string damaged = fat;
    for (int flips = 0; flips < 3; ++flips) {
      damaged[random() % damaged.size()] = static_cast<char>(random());
    }
    auto loc = Location::from_tzif("damaged", damaged);
    if (!loc) continue;
    for (const std::int64_t t :
         {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1} << 40, std::int64_t{0},
          utc(2030, 6, 1), std::numeric_limits<std::int64_t>::max()}) {
      (void)civil_time(t, **loc);
      (void)date_unix(2030, 6, 1, 2, 30, 0, **loc);
    }
  }
}

// ---- Slim files ---------------------------------------------------------------------------

// A slim file answers as the fat one it was cut from, from `from` to 2045: the zone, offset and
// daylight flag at an instant, and time.Date for the same civil time (read in UTC). Every 15
// minutes within a day of the fat zone's period bounds, every 4 hours elsewhere.
void expect_same_answers(const Location& slim, const Location& fat, std::int64_t from) {
  const std::int64_t to = utc(2045, 1, 1);
  for (std::int64_t t = from; t < to;) {
    const auto a = slim.lookup(t), b = fat.lookup(t);
    const std::int64_t step = b.start > t - kDay || b.end < t + kDay ? 900 : 4 * kHour;
    ASSERT_EQ(a.abbrev + " " + std::to_string(a.offset) + (a.dst ? " dst" : ""),
              b.abbrev + " " + std::to_string(b.offset) + (b.dst ? " dst" : ""))
        << fat.name() << " at " << t;
    const CivilTime c = civil_time(t, *Location::utc());
    ASSERT_EQ(date_unix(c.year, c.month, c.day, c.hour, c.minute, c.second, slim),
              date_unix(c.year, c.month, c.day, c.hour, c.minute, c.second, fat))
        << fat.name() << " civil " << c.year << "-" << c.month << "-" << c.day << " " << c.hour
        << ":" << c.minute;
    t += step;
  }
}

TEST(TimeZone, SlimFilesAnswerAsFatOnes) {
  // Debian installs fat files; cut each down to its transitions before 2008 (the footer rule
  // describes every later one in these zones), as zic -b slim would.
  const std::int64_t cut = utc(2008, 1, 1);
  for (const char* name : {"America/New_York", "Europe/London", "Australia/Lord_Howe",
                           "Pacific/Chatham", "Europe/Berlin"}) {
    const std::string path = std::string("/usr/share/zoneinfo/") + name;
    TzifContent content = read_tzif(read_bytes(path));
    std::erase_if(content.transitions, [&](const TestTransition& t) { return t.when >= cut; });
    ASSERT_FALSE(content.footer.empty()) << name;
    const auto slim =
        must_parse(build_tzif('2', content.zones, content.transitions, content.footer));
    expect_same_answers(*slim, *must_load(name), cut + kDay);
  }
}

TEST(TimeZone, RuleOnlyZoneAnswersAsNewYork) {
  // No transitions at all: the footer answers for every time.
  const auto rule_only =
      must_parse(build_tzif('2', {{-18000, false, "EST"}}, {}, "\nEST5EDT,M3.2.0,M11.1.0\n"));
  expect_same_answers(*rule_only, *must_load("America/New_York"), utc(2007, 6, 1));
}

// ---- Loading ------------------------------------------------------------------------------

TEST(TimeZone, LoadsSystemZonesAndCachesThem) {
  auto a = Location::load("Europe/Berlin");
  auto b = Location::load("Europe/Berlin");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ((*a)->name(), "Europe/Berlin");
  EXPECT_EQ(Location::load("")->get(), Location::utc().get());
  EXPECT_EQ(Location::load("UTC")->get(), Location::utc().get());
  EXPECT_EQ(Location::load("America/Nowhere").error(), "unknown time zone America/Nowhere");
  for (const char* bad : {"../etc/passwd", "/etc/localtime", "\\x", "a..b"}) {
    EXPECT_EQ(Location::load(bad).error(), "time: invalid location name") << bad;
  }
  EXPECT_EQ(Location::load("Europe").error(), "is a directory");
  EXPECT_EQ(Location::load("America/New_York/x").error(), "not a directory");
  EXPECT_EQ(Location::load(std::string("a\0b", 3)).error(), "invalid argument");
}

TEST(TimeZone, ConcurrentLoadsAgree) {
  const std::vector<std::string> names = {"America/New_York", "Asia/Kolkata", "Pacific/Apia",
                                          "Nowhere/Zone", "Europe/London"};
  std::vector<std::thread> threads;
  std::vector<std::vector<std::string>> seen(8);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&, i] {
      for (int round = 0; round < 20; ++round) {
        for (const auto& n : names) {
          auto loc = Location::load(n);
          seen[i].push_back(loc ? civil_time(1700000000, **loc).abbrev : loc.error());
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& s : seen) EXPECT_EQ(s, seen.front());
}

// A directory under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() /
              ("vc_time_zone_test." + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& name, const std::string& bytes) const {
    const auto file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Sets an environment variable for one scope, then puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }
  ~ScopedEnv() { set(old_); }

 private:
  void set(const std::optional<std::string>& value) const {
    if (value) {
      ::setenv(name_, value->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  const char* name_;
  std::optional<std::string> old_;
};

void put_le(std::string& out, std::uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

// A zip archive of stored (method 0) or claimed-deflated (method 8) files, no CRCs (Go checks
// none), no archive comment.
std::string build_zip(const std::vector<std::pair<std::string, std::string>>& files,
                      std::uint16_t method = 0) {
  std::string out, directory;
  for (const auto& [name, data] : files) {
    const auto offset = static_cast<std::uint32_t>(out.size());
    put_le(out, 0x04034b50, 4);
    put_le(out, 20, 2);  // version needed
    put_le(out, 0, 2);   // flags
    put_le(out, method, 2);
    put_le(out, 0, 4);  // time, date
    put_le(out, 0, 4);  // crc
    put_le(out, static_cast<std::uint32_t>(data.size()), 4);
    put_le(out, static_cast<std::uint32_t>(data.size()), 4);
    put_le(out, static_cast<std::uint32_t>(name.size()), 2);
    put_le(out, 0, 2);  // extra
    out += name + data;
    put_le(directory, 0x02014b50, 4);
    put_le(directory, 20, 2);
    put_le(directory, 20, 2);
    put_le(directory, 0, 2);
    put_le(directory, method, 2);
    put_le(directory, 0, 4);
    put_le(directory, 0, 4);
    put_le(directory, static_cast<std::uint32_t>(data.size()), 4);
    put_le(directory, static_cast<std::uint32_t>(data.size()), 4);
    put_le(directory, static_cast<std::uint32_t>(name.size()), 2);
    put_le(directory, 0, 2);  // extra
    put_le(directory, 0, 2);  // comment
    put_le(directory, 0, 2);  // disk
    put_le(directory, 0, 2);  // internal attributes
    put_le(directory, 0, 4);  // external attributes
    put_le(directory, offset, 4);
    directory += name;
  }
  const auto directory_offset = static_cast<std::uint32_t>(out.size());
  out += directory;
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 4);  // disks
  put_le(out, static_cast<std::uint32_t>(files.size()), 2);
  put_le(out, static_cast<std::uint32_t>(files.size()), 2);
  put_le(out, static_cast<std::uint32_t>(directory.size()), 4);
  put_le(out, directory_offset, 4);
  put_le(out, 0, 2);  // comment length
  return out;
}

TEST(TimeZone, ZoneinfoDirectoryComesFirst) {
  const TempDir dir;
  const std::string plus3 = build_tzif('2', {{10800, false, "+03"}}, {}, "\n<+03>-3\n");
  dir.write("zoneinfo/Test/Plus3", plus3);
  dir.write("zoneinfo/Test/Broken", "not a zone");
  // A name the system also has: $ZONEINFO's file wins.
  dir.write("zoneinfo/Asia/Kolkata", plus3);
  const ScopedEnv env("ZONEINFO", dir.path() + "/zoneinfo");
  auto zone = Location::load("Test/Plus3");
  ASSERT_TRUE(zone) << zone.error();
  EXPECT_EQ(civil_time(0, **zone).abbrev, "+03");
  EXPECT_EQ(civil_time(0, *must_load("Asia/Kolkata")).abbrev, "+03");
  EXPECT_EQ(Location::load("Test/Broken").error(), "malformed time zone information");
  EXPECT_EQ(Location::load("Test/Nowhere").error(), "unknown time zone Test/Nowhere");
  EXPECT_TRUE(Location::load("Europe/Paris"));  // the system's, after $ZONEINFO
}

TEST(TimeZone, ZoneinfoZipArchive) {
  const TempDir dir;
  const std::string plus3 = build_tzif('2', {{10800, false, "+03"}}, {}, "\n<+03>-3\n");
  const std::string zip =
      dir.write("zoneinfo.zip", build_zip({{"Zip/Other", "x"}, {"Zip/Plus3", plus3}}));
  const std::string deflated = dir.write("deflated.zip", build_zip({{"Zip/Plus3", plus3}}, 8));
  const std::string corrupt = dir.write("corrupt.zip", "PK not really");
  {
    const ScopedEnv env("ZONEINFO", zip);
    auto zone = Location::load("Zip/Plus3");
    ASSERT_TRUE(zone) << zone.error();
    EXPECT_EQ(civil_time(0, **zone).offset, 10800);
    EXPECT_EQ(Location::load("Zip/Other").error(), "malformed time zone information");
    EXPECT_EQ(Location::load("Zip/Missing").error(), "unknown time zone Zip/Missing");
    EXPECT_TRUE(Location::load("America/New_York"));
  }
  {
    const ScopedEnv env("ZONEINFO", deflated);
    EXPECT_EQ(Location::load("Zip/Plus3").error(),
              "unsupported compression for Zip/Plus3 in " + deflated);
  }
  {
    const ScopedEnv env("ZONEINFO", corrupt);
    EXPECT_EQ(Location::load("Zip/Plus3").error(), "corrupt zip file " + corrupt);
  }
  {
    const ScopedEnv env("ZONEINFO", dir.path() + "/absent.zip");
    EXPECT_EQ(Location::load("Zip/Plus3").error(), "unknown time zone Zip/Plus3");
  }
}

TEST(TimeZone, LocalFollowsTz) {
  const TempDir dir;
  const std::string file =
      dir.write("zone", build_tzif('2', {{10800, false, "+03"}}, {}, "\n<+03>-3\n"));
  {
    const ScopedEnv tz("TZ", std::nullopt);
    const auto local = must_load("Local");
    // /etc/localtime when it loads, else UTC.
    if (auto etc = Location::from_tzif("Local", read_bytes("/etc/localtime"))) {
      EXPECT_EQ(local->name(), "Local");
      EXPECT_EQ(civil_time(1700000000, *local), civil_time(1700000000, **etc));
    } else {
      EXPECT_EQ(local.get(), Location::utc().get());
    }
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "UTC"},
      {":", "UTC"},
      {"UTC", "UTC"},
      {"America/New_York", "America/New_York"},
      {":Europe/Berlin", "Europe/Berlin"},
      {"Nowhere/Zone", "UTC"},
      {file, file},
      {":" + file, file},
      {dir.path() + "/absent", "UTC"},
  };
  for (const auto& [value, name] : cases) {
    const ScopedEnv tz("TZ", value);
    EXPECT_EQ(must_load("Local")->name(), name) << "TZ=" << value;
  }
  const ScopedEnv tz("TZ", file);
  EXPECT_EQ(civil_time(0, *must_load("Local")).abbrev, "+03");
}

}  // namespace
}  // namespace vc::go
