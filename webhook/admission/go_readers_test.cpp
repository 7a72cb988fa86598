#include "webhook/admission/go_readers.h"

#include <gtest/gtest.h>

namespace vc::webhook {
namespace {

using nlohmann::json;

TEST(GoReaders, ReadZeroValuesFromAnything) {
  const json odd =
      json::parse(R"({"spec":[1],"metadata":{"name":7,"annotations":{"a":"b","c":1}}})");
  EXPECT_EQ(go_get_string(odd, {"metadata", "name"}), "");
  EXPECT_EQ(go_get_int(odd, {"spec", "weight"}), 0);
  EXPECT_EQ(go_get_string_map(odd, {"metadata", "annotations"}),
            (std::map<std::string, std::string>{{"a", "b"}}));
  EXPECT_EQ(go_find(json(3), {"x"}), nullptr);
}

}  // namespace
}  // namespace vc::webhook
