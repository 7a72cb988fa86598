#include "webhook/check/yaml_document.h"

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "common/api/expected.h"
#include "common/go/utf8.h"
#include "common/go/yaml_scalar.h"

namespace vc::webhook::check {
namespace {

// The parsed tree with aliases resolved to shared subtrees; converting it to JSON expands them.
struct Node {
  enum class Kind { Null, Scalar, Sequence, Map };
  Kind kind = Kind::Null;
  std::string tag;    // yaml-cpp's: "?" plain, "!" quoted or block, else the full tag
  std::string value;  // scalars
  std::vector<std::shared_ptr<const Node>> children;  // maps: key, value, key, value, ...
  YAML::Mark mark;
};
using NodePtr = std::shared_ptr<const Node>;

// Builds the tree from parser events. yaml-cpp reports problems by throwing ParserException, so
// this handler reports its own (a self-referencing alias) the same way.
class TreeBuilder : public YAML::EventHandler {
 public:
  NodePtr root() const { return root_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto node = std::make_shared<Node>();
    node->mark = mark;
    finish(node, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      throw YAML::ParserException(mark, open_anchors_.count(anchor)
                                            ? "anchor value contains itself"
                                            : "alias refers to an unknown anchor");
    }
    attach(it->second);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::Scalar;
    node->tag = tag;
    node->value = value;
    node->mark = mark;
    finish(node, anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(Node::Kind::Sequence, mark, tag, anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(Node::Kind::Map, mark, tag, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Open {
    std::shared_ptr<Node> node;
    YAML::anchor_t anchor;
  };

  void open(Node::Kind kind, const YAML::Mark& mark, const std::string& tag,
            YAML::anchor_t anchor) {
    auto node = std::make_shared<Node>();
    node->kind = kind;
    node->tag = tag;
    node->mark = mark;
    if (anchor != YAML::NullAnchor) open_anchors_.insert(anchor);
    stack_.push_back({std::move(node), anchor});
  }

  void close() {
    Open top = std::move(stack_.back());
    stack_.pop_back();
    if (top.anchor != YAML::NullAnchor) open_anchors_.erase(top.anchor);
    finish(std::move(top.node), top.anchor);
  }

  void finish(NodePtr node, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) anchors_[anchor] = node;
    attach(std::move(node));
  }

  void attach(NodePtr node) {
    if (stack_.empty()) {
      root_ = std::move(node);
    } else {
      stack_.back().node->children.push_back(std::move(node));
    }
  }

  std::vector<Open> stack_;
  std::map<YAML::anchor_t, NodePtr> anchors_;
  std::set<YAML::anchor_t> open_anchors_;
  NodePtr root_;
};

// Swallows the events of documents after the first.
class DiscardEvents : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

TextError error_at(const YAML::Mark& mark, std::string message) {
  return TextError{mark.line + 1, mark.column + 1, std::move(message)};
}

class Converter {
 public:
  api::Expected<nlohmann::json> convert(const Node& node, int depth) {
    if (depth > kMaxDepth) return fail(node, "nesting deeper than " + std::to_string(kMaxDepth));
    if (++values_ > kMaxValues) {
      return fail(node, "the document expands to more than " + std::to_string(kMaxValues) +
                            " values (excessive aliasing)");
    }
    switch (node.kind) {
      case Node::Kind::Null:
        return nlohmann::json(nullptr);
      case Node::Kind::Scalar: {
        auto resolved = go::resolve_tagged(node.tag, node.value);
        if (!resolved) return fail(node, resolved.error());
        auto value = go::scalar_to_json(*resolved);
        if (!value) return fail(node, value.error());
        return std::move(*value);
      }
      case Node::Kind::Sequence: {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& child : node.children) {
          auto v = convert(*child, depth + 1);
          if (!v) return v;
          out.push_back(std::move(*v));
        }
        return out;
      }
      case Node::Kind::Map: {
        nlohmann::json out = nlohmann::json::object();
        if (auto merged = fill_map(node, depth, out); !merged) return merged;
        return out;
      }
    }
    return nlohmann::json(nullptr);
  }

  const std::optional<TextError>& error() const { return error_; }

 private:
  api::Expected<nlohmann::json> fail(const Node& node, std::string message) {
    if (!error_) error_ = error_at(node.mark, message);
    return api::Unexpected{std::move(message)};
  }

  static bool is_merge_key(const Node& key) {
    return key.kind == Node::Kind::Scalar && key.value == "<<" &&
           (key.tag == "?" || key.tag == "tag:yaml.org,2002:merge");
  }

  api::Expected<nlohmann::json> fill_map(const Node& node, int depth, nlohmann::json& out) {
    for (std::size_t i = 0; i + 1 < node.children.size(); i += 2) {
      const Node& key = *node.children[i];
      const Node& value = *node.children[i + 1];
      if (is_merge_key(key)) {
        if (auto merged = merge(value, depth, out); !merged) return merged;
        continue;
      }
      if (key.kind == Node::Kind::Sequence || key.kind == Node::Kind::Map) {
        return fail(key, "invalid map key: a sequence or mapping cannot be a key");
      }
      if (key.kind == Node::Kind::Null) return fail(key, "unsupported map key: null");
      auto resolved = go::resolve_tagged(key.tag, key.value);
      if (!resolved) return fail(key, resolved.error());
      auto name = go::scalar_key(*resolved);
      if (!name) return fail(key, name.error());
      auto v = convert(value, depth + 1);
      if (!v) return v;
      out[*name] = std::move(*v);
    }
    return nlohmann::json(nullptr);
  }

  // go-yaml merges a map, or a sequence of maps walked from the last to the first, so that
  // earlier maps win; keys written after the merge key override merged ones.
  api::Expected<nlohmann::json> merge(const Node& value, int depth, nlohmann::json& out) {
    if (value.kind == Node::Kind::Map) return fill_map(value, depth + 1, out);
    const std::string not_maps = "map merge requires map or sequence of maps as the value";
    if (value.kind != Node::Kind::Sequence) return fail(value, not_maps);
    for (const auto& child : value.children) {
      if (child->kind != Node::Kind::Map) return fail(*child, not_maps);
    }
    for (auto it = value.children.rbegin(); it != value.children.rend(); ++it) {
      if (auto merged = fill_map(**it, depth + 2, out); !merged) return merged;
    }
    return nlohmann::json(nullptr);
  }

  std::size_t values_ = 0;
  std::optional<TextError> error_;
};

}  // namespace

std::optional<TextError> find_invalid_utf8(std::string_view text) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = go::utf8_sequence_length(text, i);
    if (len == 0) return TextError{line, column, "invalid UTF-8"};
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += len;
  }
  return std::nullopt;
}

YamlDocument yaml_to_json(std::string_view text) {
  YamlDocument doc;
  if (auto bad = find_invalid_utf8(text)) {
    doc.error = std::move(bad);
    return doc;
  }
  std::istringstream in{std::string(text)};
  YAML::Parser parser(in);
  TreeBuilder builder;
  try {
    doc.present = parser.HandleNextDocument(builder);
  } catch (const YAML::Exception& e) {
    doc.error = error_at(e.mark, e.msg);
    return doc;
  }
  if (!doc.present || !builder.root()) return doc;
  try {
    DiscardEvents discard;
    doc.more_after = parser.HandleNextDocument(discard);
  } catch (const YAML::Exception&) {
    doc.more_after = true;  // more text follows; kubectl never reads it either
  }
  Converter converter;
  auto value = converter.convert(*builder.root(), 1);
  if (!value) {
    doc.error = converter.error().value_or(TextError{1, 1, value.error()});
    return doc;
  }
  doc.value = std::move(*value);
  return doc;
}

}  // namespace vc::webhook::check
