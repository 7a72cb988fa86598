#include "common/kube/proto/wire.h"

namespace vc::kube::proto {

bool WireReader::varint(uint64_t& out) {
  out = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) {
      error_ = "truncated varint";
      return false;
    }
    auto byte = static_cast<uint8_t>(data_[pos_++]);
    out |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  error_ = "varint longer than 10 bytes";
  return false;
}

bool WireReader::next_varint(uint64_t& out) {
  return !at_end() && varint(out);
}

std::optional<WireField> WireReader::next() {
  if (at_end() || error_ != nullptr) return std::nullopt;
  uint64_t tag = 0;
  if (!varint(tag)) return std::nullopt;
  WireField f;
  f.number = static_cast<uint32_t>(tag >> 3);
  if (f.number == 0 || (tag >> 3) > 0x1fffffff) {
    error_ = "bad field number";
    return std::nullopt;
  }
  auto need = [&](size_t n) {
    if (data_.size() - pos_ < n) {
      error_ = "truncated field";
      return false;
    }
    return true;
  };
  switch (tag & 7) {
    case 0:
      f.type = WireType::Varint;
      if (!varint(f.value)) return std::nullopt;
      return f;
    case 1:
      f.type = WireType::Fixed64;
      if (!need(8)) return std::nullopt;
      for (int i = 7; i >= 0; --i) f.value = (f.value << 8) | static_cast<uint8_t>(data_[pos_ + i]);
      pos_ += 8;
      return f;
    case 2: {
      f.type = WireType::Bytes;
      uint64_t len = 0;
      if (!varint(len) || !need(len)) {
        if (error_ == nullptr) error_ = "truncated field";
        return std::nullopt;
      }
      f.bytes = data_.substr(pos_, len);
      pos_ += len;
      return f;
    }
    case 5:
      f.type = WireType::Fixed32;
      if (!need(4)) return std::nullopt;
      for (int i = 3; i >= 0; --i) f.value = (f.value << 8) | static_cast<uint8_t>(data_[pos_ + i]);
      pos_ += 4;
      return f;
    default:
      error_ = "unsupported wire type (group or reserved)";
      return std::nullopt;
  }
}

void WireWriter::raw_varint(uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

void WireWriter::varint(uint32_t number, uint64_t value) {
  raw_varint(static_cast<uint64_t>(number) << 3);
  raw_varint(value);
}

void WireWriter::bytes(uint32_t number, std::string_view value) {
  raw_varint((static_cast<uint64_t>(number) << 3) | 2);
  raw_varint(value.size());
  out_.append(value);
}

void WireWriter::fixed64(uint32_t number, uint64_t value) {
  raw_varint((static_cast<uint64_t>(number) << 3) | 1);
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(value >> (8 * i)));
}

void WireWriter::fixed32(uint32_t number, uint32_t value) {
  raw_varint((static_cast<uint64_t>(number) << 3) | 5);
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(value >> (8 * i)));
}

}  // namespace vc::kube::proto
