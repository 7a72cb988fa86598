// Name tables for regexp.h: the Unicode classes and POSIX classes Go's regexp/syntax knows
// (Go 1.25, Unicode 15.0.0).

#include <array>
#include <set>
#include <string>
#include <string_view>

#include "common/go/regexp.h"

namespace vc::go {
namespace {

constexpr std::array<std::string_view, 38> kCategories = {
    "C",  "Cc", "Cf", "Cn", "Co", "Cs", "L",  "LC", "Ll", "Lm", "Lo", "Lt", "Lu",
    "M",  "Mc", "Me", "Mn", "N",  "Nd", "Nl", "No", "P",  "Pc", "Pd", "Pe", "Pf",
    "Pi", "Po", "Ps", "S",  "Sc", "Sk", "Sm", "So", "Z",  "Zl", "Zp", "Zs"};

constexpr std::array<std::string_view, 163> kScripts = {"Adlam",
                                                        "Ahom",
                                                        "Anatolian_Hieroglyphs",
                                                        "Arabic",
                                                        "Armenian",
                                                        "Avestan",
                                                        "Balinese",
                                                        "Bamum",
                                                        "Bassa_Vah",
                                                        "Batak",
                                                        "Bengali",
                                                        "Bhaiksuki",
                                                        "Bopomofo",
                                                        "Brahmi",
                                                        "Braille",
                                                        "Buginese",
                                                        "Buhid",
                                                        "Canadian_Aboriginal",
                                                        "Carian",
                                                        "Caucasian_Albanian",
                                                        "Chakma",
                                                        "Cham",
                                                        "Cherokee",
                                                        "Chorasmian",
                                                        "Common",
                                                        "Coptic",
                                                        "Cuneiform",
                                                        "Cypriot",
                                                        "Cypro_Minoan",
                                                        "Cyrillic",
                                                        "Deseret",
                                                        "Devanagari",
                                                        "Dives_Akuru",
                                                        "Dogra",
                                                        "Duployan",
                                                        "Egyptian_Hieroglyphs",
                                                        "Elbasan",
                                                        "Elymaic",
                                                        "Ethiopic",
                                                        "Georgian",
                                                        "Glagolitic",
                                                        "Gothic",
                                                        "Grantha",
                                                        "Greek",
                                                        "Gujarati",
                                                        "Gunjala_Gondi",
                                                        "Gurmukhi",
                                                        "Han",
                                                        "Hangul",
                                                        "Hanifi_Rohingya",
                                                        "Hanunoo",
                                                        "Hatran",
                                                        "Hebrew",
                                                        "Hiragana",
                                                        "Imperial_Aramaic",
                                                        "Inherited",
                                                        "Inscriptional_Pahlavi",
                                                        "Inscriptional_Parthian",
                                                        "Javanese",
                                                        "Kaithi",
                                                        "Kannada",
                                                        "Katakana",
                                                        "Kawi",
                                                        "Kayah_Li",
                                                        "Kharoshthi",
                                                        "Khitan_Small_Script",
                                                        "Khmer",
                                                        "Khojki",
                                                        "Khudawadi",
                                                        "Lao",
                                                        "Latin",
                                                        "Lepcha",
                                                        "Limbu",
                                                        "Linear_A",
                                                        "Linear_B",
                                                        "Lisu",
                                                        "Lycian",
                                                        "Lydian",
                                                        "Mahajani",
                                                        "Makasar",
                                                        "Malayalam",
                                                        "Mandaic",
                                                        "Manichaean",
                                                        "Marchen",
                                                        "Masaram_Gondi",
                                                        "Medefaidrin",
                                                        "Meetei_Mayek",
                                                        "Mende_Kikakui",
                                                        "Meroitic_Cursive",
                                                        "Meroitic_Hieroglyphs",
                                                        "Miao",
                                                        "Modi",
                                                        "Mongolian",
                                                        "Mro",
                                                        "Multani",
                                                        "Myanmar",
                                                        "Nabataean",
                                                        "Nag_Mundari",
                                                        "Nandinagari",
                                                        "New_Tai_Lue",
                                                        "Newa",
                                                        "Nko",
                                                        "Nushu",
                                                        "Nyiakeng_Puachue_Hmong",
                                                        "Ogham",
                                                        "Ol_Chiki",
                                                        "Old_Hungarian",
                                                        "Old_Italic",
                                                        "Old_North_Arabian",
                                                        "Old_Permic",
                                                        "Old_Persian",
                                                        "Old_Sogdian",
                                                        "Old_South_Arabian",
                                                        "Old_Turkic",
                                                        "Old_Uyghur",
                                                        "Oriya",
                                                        "Osage",
                                                        "Osmanya",
                                                        "Pahawh_Hmong",
                                                        "Palmyrene",
                                                        "Pau_Cin_Hau",
                                                        "Phags_Pa",
                                                        "Phoenician",
                                                        "Psalter_Pahlavi",
                                                        "Rejang",
                                                        "Runic",
                                                        "Samaritan",
                                                        "Saurashtra",
                                                        "Sharada",
                                                        "Shavian",
                                                        "Siddham",
                                                        "SignWriting",
                                                        "Sinhala",
                                                        "Sogdian",
                                                        "Sora_Sompeng",
                                                        "Soyombo",
                                                        "Sundanese",
                                                        "Syloti_Nagri",
                                                        "Syriac",
                                                        "Tagalog",
                                                        "Tagbanwa",
                                                        "Tai_Le",
                                                        "Tai_Tham",
                                                        "Tai_Viet",
                                                        "Takri",
                                                        "Tamil",
                                                        "Tangsa",
                                                        "Tangut",
                                                        "Telugu",
                                                        "Thaana",
                                                        "Thai",
                                                        "Tibetan",
                                                        "Tifinagh",
                                                        "Tirhuta",
                                                        "Toto",
                                                        "Ugaritic",
                                                        "Vai",
                                                        "Vithkuqi",
                                                        "Wancho",
                                                        "Warang_Citi",
                                                        "Yezidi",
                                                        "Yi",
                                                        "Zanabazar_Square"};

// unicode.CategoryAliases keys; Go looks them up by their canonical form.
constexpr std::array<std::string_view, 42> kCategoryAliases = {"Cased_Letter",
                                                               "Close_Punctuation",
                                                               "Combining_Mark",
                                                               "Connector_Punctuation",
                                                               "Control",
                                                               "Currency_Symbol",
                                                               "Dash_Punctuation",
                                                               "Decimal_Number",
                                                               "Enclosing_Mark",
                                                               "Final_Punctuation",
                                                               "Format",
                                                               "Initial_Punctuation",
                                                               "Letter",
                                                               "Letter_Number",
                                                               "Line_Separator",
                                                               "Lowercase_Letter",
                                                               "Mark",
                                                               "Math_Symbol",
                                                               "Modifier_Letter",
                                                               "Modifier_Symbol",
                                                               "Nonspacing_Mark",
                                                               "Number",
                                                               "Open_Punctuation",
                                                               "Other",
                                                               "Other_Letter",
                                                               "Other_Number",
                                                               "Other_Punctuation",
                                                               "Other_Symbol",
                                                               "Paragraph_Separator",
                                                               "Private_Use",
                                                               "Punctuation",
                                                               "Separator",
                                                               "Space_Separator",
                                                               "Spacing_Mark",
                                                               "Surrogate",
                                                               "Symbol",
                                                               "Titlecase_Letter",
                                                               "Unassigned",
                                                               "Uppercase_Letter",
                                                               "cntrl",
                                                               "digit",
                                                               "punct"};

constexpr std::array<std::string_view, 14> kPosixClasses = {
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
    "lower", "print", "punct", "space", "upper", "word",  "xdigit"};

// Go's canonicalName: drop "_", "-" and " ", upper-case the first letter, lower-case the rest.
std::string canonical_name(std::string_view name) {
  std::string out;
  bool first = true;
  for (char c : name) {
    if (c == '_' || c == '-' || c == ' ') continue;
    if (first) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      first = false;
    } else if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
    out.push_back(c);
  }
  return out;
}

const std::set<std::string, std::less<>>& known_unicode_names() {
  static const std::set<std::string, std::less<>> names = [] {
    std::set<std::string, std::less<>> out = {"Any", "Assigned", "Ascii", "Lc"};
    for (auto c : kCategories) out.emplace(c);
    for (auto s : kScripts) out.emplace(s);
    for (auto a : kCategoryAliases) out.insert(canonical_name(a));
    return out;
  }();
  return names;
}

}  // namespace

bool unicode_class_known(std::string_view name) {
  return known_unicode_names().contains(canonical_name(name));
}

bool posix_class_known(std::string_view name) {
  constexpr std::string_view kOpen = "[:";
  constexpr std::string_view kClose = ":]";
  if (name.size() < 4 || name.substr(0, 2) != kOpen || name.substr(name.size() - 2) != kClose) {
    return false;
  }
  std::string_view inner = name.substr(2, name.size() - 4);
  if (!inner.empty() && inner[0] == '^') inner.remove_prefix(1);
  for (auto c : kPosixClasses) {
    if (c == inner) return true;
  }
  return false;
}

}  // namespace vc::go
