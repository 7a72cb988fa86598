#pragma once
// The protobuf wire format (varints, fixed 32/64-bit words, length-delimited runs): the reading
// and writing our Kubernetes protobuf codec (schema.h, to_json.h, from_json.h) is built on.
// Reading never goes past the end of its input: a truncated or malformed run makes next() fail.
//
// Thread-safety: plain values; one object per thread.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vc::kube::proto {

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

// One field of a message as read: its number and wire type, and the value (a varint or fixed
// word in `number`, a length-delimited run in `bytes`).
struct WireField {
  uint32_t number = 0;
  WireType type = WireType::Varint;
  uint64_t value = 0;      // Varint, Fixed64, Fixed32
  std::string_view bytes;  // Bytes
};

class WireReader {
 public:
  explicit WireReader(std::string_view data) : data_(data) {}
  // The next field, nullopt at the end; a malformed field (bad tag, truncated value, a group or
  // an unknown wire type) sets error() and also returns nullopt.
  std::optional<WireField> next();
  // Varints one after another (a packed repeated field's run); false when malformed.
  bool next_varint(uint64_t& out);
  bool at_end() const { return pos_ >= data_.size(); }
  const char* error() const { return error_; }

 private:
  bool varint(uint64_t& out);
  std::string_view data_;
  size_t pos_ = 0;
  const char* error_ = nullptr;
};

class WireWriter {
 public:
  void varint(uint32_t number, uint64_t value);
  void bytes(uint32_t number, std::string_view value);
  void fixed64(uint32_t number, uint64_t value);
  void fixed32(uint32_t number, uint32_t value);
  // A nested message or length-delimited run is written by the caller into its own writer and
  // then appended with bytes(); the output so far:
  const std::string& data() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void raw_varint(uint64_t value);
  std::string out_;
};

// Protobuf's ZigZag encoding of sint32/sint64.
inline int64_t zigzag_decode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
inline uint64_t zigzag_encode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

}  // namespace vc::kube::proto
