#!/usr/bin/env bash
# Copies Volcano's CRDs (config/crd/volcano/bases and config/crd/jobflow/bases) of the
# volcano.sh/volcano module version that e2e/cluster/volcano/go.mod pins into OUT_DIR, replacing
# what was there. The one place that finds them: the cluster (crds.sh), the chart (package.sh)
# and the build (the CRD schema tests of common/volcano) all call it. Needs Go and the module
# proxy (or the module in the module cache). Prints the module directory.
set -euo pipefail
out=${1:?usage: volcano-crds.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
version=$(awk '$1 == "volcano.sh/volcano" && $2 ~ /^v/ { print $2; exit }' "$here/volcano/go.mod")
[ -n "$version" ] || { echo "volcano-crds.sh: no volcano.sh/volcano version in $here/volcano/go.mod" >&2; exit 1; }
# Module-aware download of that one module: no go.mod is needed and no other module is fetched.
vdir=$(cd "$here" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "volcano.sh/volcano@$version" \
  | awk -F'"' '$2 == "Dir" { print $4 }')
[ -d "$vdir/config/crd/volcano/bases" ] || { echo "volcano-crds.sh: Volcano CRDs not found under '$vdir'" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
cp "$vdir"/config/crd/volcano/bases/*.yaml "$vdir"/config/crd/jobflow/bases/*.yaml "$out/"
chmod -R u+w "$out"
echo "$vdir"
