#!/usr/bin/env bash
# Packages charts/vc-cpp with Volcano's CRDs: copies the v1.15.1 CRDs from the volcano.sh/volcano
# Go module (the version e2e/cluster/volcano pins, as e2e/cluster/crds.sh does) into
# charts/vc-cpp/crds/ (git-ignored: never committed), lints the chart and packages it into
# $BUILD_DIR/chart/. Prints the package's path. `make chart` runs it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BUILD_DIR=${BUILD_DIR:-$charts_repo/build}
chart=$charts_repo/charts/vc-cpp
helm=$(helm_bin)

export GOTOOLCHAIN=local GOFLAGS=-mod=mod
# .Dir is empty until the module is in the module cache (a fresh machine): download it first.
vdir=$(cd "$charts_repo/e2e/cluster/volcano" && go mod download volcano.sh/volcano \
  && go list -m -f '{{.Dir}}' volcano.sh/volcano)
[ -d "$vdir/config/crd/volcano/bases" ] || die "Volcano CRDs not found under '$vdir'"
rm -rf "$chart/crds"
mkdir -p "$chart/crds"
cp "$vdir"/config/crd/volcano/bases/*.yaml "$vdir"/config/crd/jobflow/bases/*.yaml "$chart/crds/"
chmod -R u+w "$chart/crds"
log "chart: $(ls "$chart/crds" | wc -l) CRDs from $(basename "$vdir")"

"$helm" lint "$chart" >&2
mkdir -p "$BUILD_DIR/chart"
out=$("$helm" package "$chart" --destination "$BUILD_DIR/chart")
echo "${out##*: }"
