#!/usr/bin/env bash
# Installs Volcano's CRDs, pinned to the volcano.sh/volcano module version of the harness
# (v1.15.1). They are copied from the Go module cache at run time and never committed.
# Server-side apply: jobs and jobflows CRDs exceed the client-side apply annotation limit.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

out=$STATE_DIR/crds
vdir=$("$(dirname "$0")/volcano-crds.sh" "$out")
kubectl_ apply --server-side --force-conflicts -f "$out/" >/dev/null
# A CRD created a moment ago may have no status.conditions yet, which kubectl wait reports as an
# error rather than waiting: retry until every CRD is Established.
wait_until "Volcano CRDs Established" 60 kubectl_ wait --for=condition=Established crd --all --timeout=5s
log "CRDs installed: $(ls "$out" | wc -l) files from $(basename "$vdir")"
