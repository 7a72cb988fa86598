#pragma once
// For the tests: Debian's protobuf library loaded with the same descriptor set our binaries
// embed, to check our codec against the reference implementation of the wire format.

#include <memory>
#include <string>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/text_format.h>

extern "C" const unsigned char vc_k8s_descriptor_set[];
extern "C" const unsigned long vc_k8s_descriptor_set_size;

namespace vc::kube::proto::testing {

class ReferencePool {
 public:
  ReferencePool() {
    google::protobuf::FileDescriptorSet set;
    if (!set.ParseFromArray(vc_k8s_descriptor_set, static_cast<int>(vc_k8s_descriptor_set_size)))
      throw std::runtime_error("descriptor set does not parse");
    for (const auto& file : set.file())
      if (pool_.BuildFile(file) == nullptr) throw std::runtime_error("cannot build " + file.name());
  }
  // A new empty message of full_name, owned by the caller.
  std::unique_ptr<google::protobuf::Message> make(const std::string& full_name) {
    const auto* d = pool_.FindMessageTypeByName(full_name);
    if (d == nullptr) throw std::runtime_error("no message " + full_name);
    return std::unique_ptr<google::protobuf::Message>(factory_.GetPrototype(d)->New());
  }
  // A message from protobuf's text format, serialized.
  std::string bytes_of(const std::string& full_name, const std::string& text) {
    auto m = make(full_name);
    if (!google::protobuf::TextFormat::ParseFromString(text, m.get()))
      throw std::runtime_error("bad text proto for " + full_name);
    return m->SerializeAsString();
  }
  // Bytes parsed by the library, printed in text format ("" when they do not parse).
  std::string text_of(const std::string& full_name, const std::string& bytes) {
    auto m = make(full_name);
    if (!m->ParseFromString(bytes)) return "";
    std::string out;
    google::protobuf::TextFormat::Printer printer;
    printer.SetSingleLineMode(true);
    printer.PrintToString(*m, &out);
    return out;
  }

 private:
  google::protobuf::DescriptorPool pool_;
  google::protobuf::DynamicMessageFactory factory_{&pool_};
};

}  // namespace vc::kube::proto::testing
