#include "common/api/label_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vc::api {
namespace {

const std::string kNamePartRegexError =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kLabelValueRegexError =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const std::string kSubdomainRegexError =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

TEST(LabelKey, AcceptsQualifiedNamesWithOptionalDnsPrefix) {
  for (const std::string& key : std::vector<std::string>{
           "a", "A", "1", "a-b", "a.b", "a_b", "MyName", "my.name", "123-abc", "example.com/MyName",
           "kubernetes.io/hostname", "volcano.sh/job-name", "a/b", std::string(63, 'x'),
           std::string(253, 'p') + "/name"}) {
    EXPECT_EQ(validate_label_key(key).error(), "") << key;
  }
}

TEST(LabelKey, RejectsBadNamesWithKubernetesMessages) {
  EXPECT_EQ(validate_label_key("a b").error(), kNamePartRegexError);
  EXPECT_EQ(validate_label_key("-a").error(), kNamePartRegexError);
  EXPECT_EQ(validate_label_key("a-").error(), kNamePartRegexError);
  EXPECT_EQ(validate_label_key("").error(), "name part must be non-empty; " + kNamePartRegexError);
  EXPECT_EQ(validate_label_key(std::string(64, 'x')).error(),
            "name part must be no more than 63 bytes");
  EXPECT_EQ(validate_label_key("a/").error(),
            "name part must be non-empty; " + kNamePartRegexError);
}

TEST(LabelKey, LengthCountsBytesLikeGoLen) {
  // 32 two-byte characters: 32 characters but 64 bytes, so too long, and not alphanumeric.
  std::string accented;
  for (int i = 0; i < 32; ++i) accented += "\xc3\xa9";
  EXPECT_EQ(
      is_qualified_name(accented),
      (std::vector<std::string>{"name part must be no more than 63 bytes", kNamePartRegexError}));
}

TEST(LabelKey, RejectsBadPrefixes) {
  EXPECT_EQ(validate_label_key("/a").error(), "prefix part must be non-empty");
  EXPECT_EQ(validate_label_key("Example.com/a").error(), "prefix part " + kSubdomainRegexError);
  EXPECT_EQ(validate_label_key(std::string(254, 'p') + "/a").error(),
            "prefix part must be no more than 253 bytes");
  EXPECT_EQ(is_qualified_name(std::string(254, 'p') + "/-"),
            (std::vector<std::string>{"prefix part must be no more than 253 bytes",
                                      kNamePartRegexError}));
}

TEST(LabelKey, MoreThanOneSlashGivesTheSingleLabelKeyMessage) {
  const std::vector<std::string> expected{
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must "
      "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
      "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
      "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"};
  EXPECT_EQ(is_qualified_name("a/b/c"), expected);
  // The prefix and name are not looked at once the split gives more than two parts.
  EXPECT_EQ(is_qualified_name("//"), expected);
  EXPECT_EQ(is_qualified_name("Bad_Prefix/x/" + std::string(64, 'y')), expected);
}

TEST(LabelValue, AcceptsEmptyAndNamesUpTo63) {
  for (const std::string& value : std::vector<std::string>{"", "a", "MyValue", "my_value", "12345",
                                                           "a.b-c_d", std::string(63, 'v')}) {
    EXPECT_EQ(validate_label_value(value).error(), "") << value;
  }
}

TEST(LabelValue, RejectsLongAndMalformedValues) {
  EXPECT_EQ(validate_label_value(std::string(64, 'v')).error(), "must be no more than 63 bytes");
  EXPECT_EQ(validate_label_value("a b").error(), kLabelValueRegexError);
  EXPECT_EQ(validate_label_value("a/b").error(), kLabelValueRegexError);
  EXPECT_EQ(validate_label_value("_a").error(), kLabelValueRegexError);
  EXPECT_EQ(is_valid_label_value(std::string(64, '-')),
            (std::vector<std::string>{"must be no more than 63 bytes", kLabelValueRegexError}));
}

TEST(DnsNames, SubdomainsAndLabels) {
  EXPECT_TRUE(is_dns1123_subdomain("example.com").empty());
  EXPECT_TRUE(is_dns1123_subdomain("a").empty());
  EXPECT_EQ(is_dns1123_subdomain("a..b"), std::vector<std::string>{kSubdomainRegexError});
  EXPECT_FALSE(is_dns1123_subdomain("-a").empty());
  EXPECT_FALSE(is_dns1123_subdomain("a.").empty());
  // pkg/util/validation wording, as the PVC name check reports it.
  EXPECT_EQ(is_dns1123_subdomain(std::string(254, 'a')),
            std::vector<std::string>{"must be no more than 253 characters"});
  EXPECT_TRUE(is_dns1123_subdomain(std::string(253, 'a')).empty());
  EXPECT_TRUE(is_dns1123_label("my-name").empty());
  EXPECT_TRUE(is_dns1123_label("123-abc").empty());
  EXPECT_EQ(is_dns1123_label("a.b"), std::vector<std::string>{"must not contain dots"});
  EXPECT_EQ(is_dns1123_label("My-Name"),
            std::vector<std::string>{
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                "or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
                "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"});
  EXPECT_EQ(is_dns1123_label(std::string(64, 'a')),
            std::vector<std::string>{"must be no more than 63 characters"});
}

TEST(DnsNames, ContentSubdomainSaysBytes) {
  EXPECT_TRUE(is_dns1123_subdomain_content("example.com").empty());
  EXPECT_TRUE(is_dns1123_subdomain_content(std::string(253, 'a')).empty());
  EXPECT_EQ(is_dns1123_subdomain_content(std::string(254, 'a')),
            std::vector<std::string>{"must be no more than 253 bytes"});
  EXPECT_EQ(is_dns1123_subdomain_content("Example.com"),
            std::vector<std::string>{kSubdomainRegexError});
  EXPECT_EQ(is_dns1123_subdomain_content(std::string(254, 'A')),
            (std::vector<std::string>{"must be no more than 253 bytes", kSubdomainRegexError}));
}

}  // namespace
}  // namespace vc::api
