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

vdir=$("$charts_repo/e2e/cluster/volcano-crds.sh" "$chart/crds")
log "chart: $(ls "$chart/crds" | wc -l) CRDs from $(basename "$vdir")"

"$helm" lint "$chart" >&2
mkdir -p "$BUILD_DIR/chart"
out=$("$helm" package "$chart" --destination "$BUILD_DIR/chart")
echo "${out##*: }"
