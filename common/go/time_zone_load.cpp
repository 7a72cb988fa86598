// Location::load: time.LoadLocation's search of the zoneinfo places, its errors, and the zone of
// "Local"; with a cache of what was loaded.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/go/time_zone.h"

namespace vc::go {
namespace {

constexpr std::string_view kMalformed = "malformed time zone information";
constexpr std::string_view kInvalidName = "time: invalid location name";
constexpr std::uint64_t kMaxZoneFile = 10 << 20;  // Go refuses larger files
// Distinct spellings of valid names ("America//New_York") are unbounded; past this many the
// cache stops growing and further zones are read each time.
constexpr std::size_t kMaxCached = 1024;

// Where Go looks after $ZONEINFO (the first two with a trailing '/', as Go writes them: the
// doubled slash shows in the "is too large" message).
const std::vector<std::string>& system_sources() {
  static const std::vector<std::string> kSources = {
      "/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo"};
  return kSources;
}

// errno as Go's syscall.Errno prints it (Linux wording, lower case).
std::string errno_text(int error) {
  static const std::map<int, std::string_view> kText = {
      {EPERM, "operation not permitted"},
      {EINTR, "interrupted system call"},
      {EIO, "input/output error"},
      {ENXIO, "no such device or address"},
      {EAGAIN, "resource temporarily unavailable"},
      {ENOMEM, "cannot allocate memory"},
      {EACCES, "permission denied"},
      {ENODEV, "no such device"},
      {ENOTDIR, "not a directory"},
      {EISDIR, "is a directory"},
      {EINVAL, "invalid argument"},
      {ENFILE, "too many open files in system"},
      {EMFILE, "too many open files"},
      {EFBIG, "file too large"},
      {ENAMETOOLONG, "file name too long"},
      {ELOOP, "too many levels of symbolic links"},
      {EOVERFLOW, "value too large for defined data type"},
      {ESTALE, "stale file handle"},
  };
  const auto it = kText.find(error);
  return it != kText.end() ? std::string(it->second) : "errno " + std::to_string(error);
}

// What one place gave for a name: the file's bytes, or an error; neither means "not there"
// (ENOENT), which Go never reports.
struct Found {
  std::optional<std::string> bytes;
  std::string error;
};

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

Found from_errno(int error) {
  return error == ENOENT ? Found{} : Found{std::nullopt, errno_text(error)};
}

// Opens a path as Go's syscall.Open does (a NUL in it is EINVAL, not a shorter path).
int open_file(const std::string& path) {
  if (path.find('\0') != std::string::npos) {
    errno = EINVAL;
    return -1;
  }
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

Found read_file(const std::string& path) {
  const Fd fd(open_file(path));
  if (fd.get() < 0) return from_errno(errno);
  std::string data;
  char buf[4096];
  while (true) {
    const ssize_t n = ::read(fd.get(), buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return from_errno(errno);
    if (n == 0) return {std::move(data), ""};
    data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > kMaxZoneFile) return {std::nullopt, "time: file " + path + " is too large"};
  }
}

// Reads exactly out.size() bytes at `offset` (from the end when negative).
bool read_at(int fd, std::string& out, std::int64_t offset) {
  if (offset < 0) {
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size < 0 || size + offset < 0) return false;
    offset += size;
  }
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done,
                              static_cast<off_t>(offset + static_cast<std::int64_t>(done)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::uint32_t little_endian(std::string_view b, std::size_t at, std::size_t width) {
  std::uint32_t v = 0;
  for (std::size_t i = at + width; i > at; --i) {
    v = v << 8 | (i - 1 < b.size() ? static_cast<unsigned char>(b[i - 1]) : 0);
  }
  return v;
}

// A file stored uncompressed in a zip archive without a trailing comment, as Go reads
// $ZONEINFO when it names a .zip (Go's lib/time/zoneinfo.zip is such an archive).
Found read_from_zip(const std::string& zip, const std::string& name) {
  const Fd fd(open_file(zip));
  if (fd.get() < 0) return from_errno(errno);
  const Found corrupt{std::nullopt, "corrupt zip file " + zip};
  constexpr std::uint32_t kEndOfDirectory = 0x06054b50, kDirectoryEntry = 0x02014b50,
                          kLocalHeader = 0x04034b50;
  std::string tail(22, '\0');
  if (!read_at(fd.get(), tail, -22) || little_endian(tail, 0, 4) != kEndOfDirectory) {
    return corrupt;
  }
  const std::uint32_t entries = little_endian(tail, 10, 2);
  std::string directory(little_endian(tail, 12, 4), '\0');
  if (!read_at(fd.get(), directory, little_endian(tail, 16, 4))) return corrupt;

  std::string_view rest = directory;
  for (std::uint32_t i = 0; i < entries; ++i) {
    if (little_endian(rest, 0, 4) != kDirectoryEntry) break;
    const std::uint32_t method = little_endian(rest, 10, 2);
    const std::uint32_t size = little_endian(rest, 24, 4);
    const std::uint32_t name_length = little_endian(rest, 28, 2);
    const std::uint32_t entry_length =
        46 + name_length + little_endian(rest, 30, 2) + little_endian(rest, 32, 2);
    const std::uint32_t offset = little_endian(rest, 42, 4);
    if (rest.size() < entry_length) return corrupt;  // where Go would index out of range
    const std::string_view entry_name = rest.substr(46, name_length);
    rest.remove_prefix(entry_length);
    if (entry_name != name) continue;
    if (method != 0) return {std::nullopt, "unsupported compression for " + name + " in " + zip};
    std::string local(30 + name_length, '\0');
    if (!read_at(fd.get(), local, offset) || little_endian(local, 0, 4) != kLocalHeader ||
        little_endian(local, 8, 2) != method || little_endian(local, 26, 2) != name_length ||
        std::string_view(local).substr(30) != name) {
      return corrupt;
    }
    std::string data(size, '\0');
    if (!read_at(fd.get(), data,
                 std::int64_t{offset} + 30 + name_length + little_endian(local, 28, 2))) {
      return corrupt;
    }
    return {std::move(data), ""};
  }
  return {};
}

// One place Go searches: a directory ("" for a path used as is) or a zip archive.
Found read_zone_file(const std::string& source, const std::string& name) {
  if (source.size() > 4 && source.ends_with(".zip")) return read_from_zip(source, name);
  return read_file(source.empty() ? name : source + "/" + name);
}

using LocationPtr = std::shared_ptr<const Location>;
using Loaded = api::Expected<LocationPtr>;

// The first place of `sources` holding a zone file `file` that parses, named `name`; else the
// first error met, else "unknown time zone".
Loaded load_from(const std::string& file, const std::vector<std::string>& sources,
                 std::string name) {
  std::string first_error;
  for (const auto& source : sources) {
    Found found = read_zone_file(source, file);
    std::string error = std::move(found.error);
    if (found.bytes) {
      auto zone = Location::from_tzif(name, *found.bytes);
      if (zone) return zone;
      error = kMalformed;  // Go's text, without our detail
    }
    if (first_error.empty()) first_error = std::move(error);
  }
  if (!first_error.empty()) return api::Unexpected{std::move(first_error)};
  return api::Unexpected{"unknown time zone " + file};
}

// Go's zone for "Local", from $TZ (`tz`, null when unset).
LocationPtr load_local(const char* tz) {
  if (tz == nullptr) {
    if (auto zone = load_from("localtime", {"/etc"}, "Local")) return *zone;
    return Location::utc();
  }
  std::string name = tz;
  if (name.starts_with(':')) name.erase(0, 1);
  if (name.starts_with('/')) {
    const std::string shown = name == "/etc/localtime" ? "Local" : name;
    if (auto zone = load_from(name, {""}, shown)) return *zone;
  } else if (!name.empty() && name != "UTC") {
    if (auto zone = load_from(name, system_sources(), name)) return *zone;
  }
  return Location::utc();
}

std::string getenv_or_empty(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr ? value : "";
}

class Cache {
 public:
  std::optional<LocationPtr> find(const std::string& key) {
    const std::lock_guard lock(mu_);
    const auto it = zones_.find(key);
    if (it == zones_.end()) return std::nullopt;
    return it->second;
  }
  void add(const std::string& key, const LocationPtr& zone) {
    const std::lock_guard lock(mu_);
    if (zones_.size() < kMaxCached) zones_.emplace(key, zone);
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, LocationPtr> zones_;
};

Cache& cache() {
  static Cache kCache;
  return kCache;
}

}  // namespace

api::Expected<std::shared_ptr<const Location>> Location::load(std::string_view name) {
  if (name.empty() || name == "UTC") return utc();
  if (name == "Local") {
    const char* tz = std::getenv("TZ");
    // A NUL cannot occur in an environment value, so it separates the key's parts.
    const std::string key =
        tz == nullptr ? std::string("\0Local", 6) : std::string("\0Local\0", 7) + tz;
    if (auto hit = cache().find(key)) return *hit;
    LocationPtr zone = load_local(tz);
    cache().add(key, zone);
    return zone;
  }
  if (name.find("..") != std::string_view::npos || name.front() == '/' || name.front() == '\\') {
    return api::Unexpected{std::string(kInvalidName)};
  }
  const std::string zoneinfo = getenv_or_empty("ZONEINFO");
  const std::string key = std::string(name) + '\0' + zoneinfo;
  if (auto hit = cache().find(key)) return *hit;

  const std::string file(name);
  std::string first_error;
  if (!zoneinfo.empty()) {
    Found found = read_zone_file(zoneinfo, file);
    if (found.bytes) {
      if (auto zone = from_tzif(file, *found.bytes)) {
        cache().add(key, *zone);
        return zone;
      }
      first_error = kMalformed;
    } else {
      first_error = std::move(found.error);
    }
  }
  auto zone = load_from(file, system_sources(), file);
  if (zone) {
    cache().add(key, *zone);
    return zone;
  }
  if (first_error.empty()) return zone;
  return api::Unexpected{std::move(first_error)};
}

}  // namespace vc::go
