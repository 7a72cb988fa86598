# Shared by charts/package.sh and manifests/generate.sh (sourced, not run).

charts_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# helm_bin: $HELM, else the helm the e2e harness builds from its Go module (built now if it is
# not yet; a few minutes once), so every machine renders with the same helm (v3.22.0).
helm_bin() {
  if [ -n "${HELM:-}" ]; then echo "$HELM"; return; fi
  local dir
  dir=$("$charts_repo/e2e/cluster/build-binaries.sh" --print-dir helm)
  [ -f "$dir/.complete" ] || "$charts_repo/e2e/cluster/build-binaries.sh" helm >&2
  echo "$dir/helm"
}
