#include "common/kube/proto/wire.h"

#include <gtest/gtest.h>

namespace vc::kube::proto {
namespace {

TEST(KubeProtoWire, WritesAndReadsEveryWireType) {
  WireWriter w;
  w.varint(1, 300);
  w.varint(2, static_cast<uint64_t>(int64_t{-1}));  // ten bytes
  w.bytes(3, "abc");
  w.fixed64(4, 0x0102030405060708ull);
  w.fixed32(5, 0xdeadbeef);
  EXPECT_EQ(w.data().substr(0, 3), std::string("\x08\xac\x02", 3));
  WireReader r(w.data());
  auto f = r.next();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->number, 1u);
  EXPECT_EQ(f->value, 300u);
  f = r.next();
  ASSERT_TRUE(f);
  EXPECT_EQ(static_cast<int64_t>(f->value), -1);
  f = r.next();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->type, WireType::Bytes);
  EXPECT_EQ(f->bytes, "abc");
  f = r.next();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->value, 0x0102030405060708ull);
  f = r.next();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->value, 0xdeadbeefu);
  EXPECT_FALSE(r.next());
  EXPECT_EQ(r.error(), nullptr);
  EXPECT_EQ(zigzag_decode(zigzag_encode(-7)), -7);
  EXPECT_EQ(zigzag_encode(-1), 1u);
}

TEST(KubeProtoWire, MalformedInputStopsWithAnError) {
  for (std::string bad : {std::string("\x0a\x05"
                                      "ab",
                                      4),
                          std::string("\x08\xff", 2), std::string("\x0b", 1) /* group */,
                          std::string("\x00\x01", 2) /* field 0 */,
                          std::string("\x09\x01\x02", 3) /* short fixed64 */,
                          std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12)}) {
    WireReader r(bad);
    while (r.next()) {
    }
    EXPECT_NE(r.error(), nullptr) << bad.size();
  }
}

}  // namespace
}  // namespace vc::kube::proto
