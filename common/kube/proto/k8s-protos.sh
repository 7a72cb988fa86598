#!/usr/bin/env bash
# Writes DESCRIPTOR_SET: the FileDescriptorSet protoc compiles from the .proto files of the Kubernetes objects our client may exchange in protobuf (core/v1,
# coordination/v1, events/v1 and the apimachinery types they import) from the k8s.io/api and
# k8s.io/apimachinery module versions that e2e/cluster/k8s/go.mod pins (the API server we test
# against), copied first into PROTO_DIR under their import paths
# (PROTO_DIR/k8s.io/api/core/v1/generated.proto, ...), replacing what was there. The build calls
# it (common/CMakeLists.txt); neither the files nor the set are committed. Needs Go and the module
# proxy (or the modules in the module cache), and protoc.
set -euo pipefail
out=${1:?usage: k8s-protos.sh PROTO_DIR DESCRIPTOR_SET}
set_file=${2:?usage: k8s-protos.sh PROTO_DIR DESCRIPTOR_SET}
here=$(cd "$(dirname "$0")" && pwd)
gomod=$here/../../../e2e/cluster/k8s/go.mod

# module_dir MODULE: the module cache directory of MODULE at the version go.mod replaces it with.
module_dir() {
  local version dir
  version=$(awk -v m="$1" '$1 == m && $2 == "=>" && $3 == m { print $4; exit }' "$gomod")
  [ -n "$version" ] || { echo "k8s-protos.sh: no '$1 => $1 vX' line in $gomod" >&2; exit 1; }
  dir=$(cd "$here" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "$1@$version" \
    | awk -F'"' '$2 == "Dir" { print $4 }')
  [ -d "$dir" ] || { echo "k8s-protos.sh: $1@$version not downloaded (got '$dir')" >&2; exit 1; }
  echo "$dir"
}

api=$(module_dir k8s.io/api)
machinery=$(module_dir k8s.io/apimachinery)
rm -rf "$out"
copy() { mkdir -p "$out/$2/$(dirname "$3")"; cp "$1/$3" "$out/$2/$3"; }
for p in core/v1 coordination/v1 events/v1; do copy "$api" k8s.io/api "$p/generated.proto"; done
for p in pkg/api/resource pkg/apis/meta/v1 pkg/runtime pkg/runtime/schema pkg/util/intstr; do
  copy "$machinery" k8s.io/apimachinery "$p/generated.proto"
done
chmod -R u+w "$out"
# The generated files import packages some of them do not use; protoc's warnings about those say
# nothing about our build.
protoc --include_imports -I "$out" -o "$set_file.tmp" \
  k8s.io/api/core/v1/generated.proto k8s.io/api/coordination/v1/generated.proto \
  k8s.io/api/events/v1/generated.proto 2> >(grep -v ' is unused\.$' >&2)
mv "$set_file.tmp" "$set_file"
