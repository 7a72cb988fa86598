#include "common/go/json_types/object_meta.h"

#include <vector>

namespace vc::go {

const GoType* object_meta(GoTypes& types, bool with_timestamps) {
  const GoType* str = types.scalar(GoKind::String, "string");
  const GoType* string_map = types.map(str);
  std::vector<GoField> fields = {{"name", str},
                                 {"generateName", str},
                                 {"namespace", str},
                                 {"uid", types.scalar(GoKind::String, "types.UID")},
                                 {"resourceVersion", str},
                                 {"generation", types.scalar(GoKind::Int64, "int64")},
                                 {"labels", string_map},
                                 {"annotations", string_map},
                                 {"finalizers", types.slice(str)}};
  if (with_timestamps) {
    const GoType* time = types.scalar(GoKind::Time, "v1.Time");
    fields.push_back({"creationTimestamp", time});
    fields.push_back({"deletionTimestamp", time, true});
  }
  return types.structure("v1.ObjectMeta", std::move(fields), true);
}

}  // namespace vc::go
