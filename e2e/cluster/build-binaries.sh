#!/usr/bin/env bash
# Builds the Go control-plane binaries the e2e cluster runs, once per harness version.
#
# Each harness module (k8s, etcd, kwok, volcano, helm) pins its upstream versions in go.mod/go.sum.
# Binaries land in $VC_CACHE/bin/<harness>-<hash>/ so fresh clones and CI reuse them; they are
# never written into the repository. The hash covers the harness's go.mod, go.sum, compat files
# and RECIPE below: bump RECIPE when a change here changes what gets built.
#
# Usage: build-binaries.sh [harness[:binary,...]...]  (default: every binary of every harness)
#        build-binaries.sh --print-dir NAME  (print the binary directory of one harness)
#        build-binaries.sh --download        (fetch every harness's modules, build nothing)
# "volcano:vc-scheduler" builds just that binary (what `make up` needs); a later call for the
# rest of the harness builds only what is missing. A binary is ready once it is in $dir (it is
# moved there only after its go build succeeded); $dir/.complete marks a harness with all of them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${VC_CACHE:-$HOME/.cache/vc-cpp}
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false
export NO_PROXY=127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}

RECIPE=1

bin_dir() {
  local h
  h=$( { echo "recipe $RECIPE"; cat "$here/$1/go.mod" "$here/$1/go.sum" \
    $(ls "$here/$1"/compat/* 2>/dev/null); } | sha256sum | cut -c1-16)
  echo "$cache/bin/$1-$h"
}

k8s_ldflags() {
  local kv=v1.35.3 date p f="-s -w"
  date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    f="$f -X $p.gitVersion=$kv -X $p.gitMajor=1 -X $p.gitMinor=35 -X $p.gitTreeState=clean -X $p.buildDate=$date"
  done
  echo "$f"
}

volcano_ldflags() {
  echo "-s -w -X volcano.sh/volcano/pkg/version.Version=v1.15.1" \
    "-X volcano.sh/volcano/pkg/version.GitSHA=0a56ed331897f5455916a44d3075671376d731d6" \
    "-X volcano.sh/volcano/pkg/version.Built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}

# volcano_workdir OUT: a copy of the volcano harness in OUT/src whose volcano.sh/apis is a local
# copy of the v1.14.0 module plus compat/*.go.txt, the identifiers v1.15.1 needs that it lacks
# (see volcano/README.md; the module cache itself is read-only and may not be overlaid).
volcano_workdir() {
  local out=$1 apis src=$1/src
  # .Dir is empty until the module is in the module cache (a fresh machine): download it first.
  (cd "$here/volcano" && go mod download volcano.sh/apis) || return 1
  apis=$(cd "$here/volcano" && go list -m -f '{{.Dir}}' volcano.sh/apis) || return 1
  if [ -z "$apis" ] || [ ! -d "$apis" ]; then
    echo "[volcano] module volcano.sh/apis not found in the module cache" >&2
    return 1
  fi
  # Each step checked: errexit does not apply in a command substitution (the caller's).
  rm -rf "$src" && mkdir -p "$src" || return 1
  cp "$here/volcano/go.mod" "$here/volcano/go.sum" "$here/volcano/tools.go" "$src/" || return 1
  cp -r "$apis" "$src/apis" && chmod -R u+w "$src/apis" || return 1
  cp "$here/volcano/compat/scheduling_queue_gate.go.txt" \
    "$src/apis/pkg/apis/scheduling/v1beta1/zz_vc_cpp_queue_gate.go" || return 1
  cp "$here/volcano/compat/scheduling_internal_queue_gate.go.txt" \
    "$src/apis/pkg/apis/scheduling/zz_vc_cpp_queue_gate.go" || return 1
  (cd "$src" && go mod edit -replace volcano.sh/apis=./apis) || return 1
  echo "$src"
}

# targets HARNESS -> "output=package" pairs
targets() {
  case $1 in
    k8s) echo "kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver" \
              "kube-controller-manager=k8s.io/kubernetes/cmd/kube-controller-manager" \
              "kubectl=k8s.io/kubernetes/cmd/kubectl" \
              "kube-scheduler=k8s.io/kubernetes/cmd/kube-scheduler" \
              "kube-proxy=k8s.io/kubernetes/cmd/kube-proxy" \
              "kubelet=k8s.io/kubernetes/cmd/kubelet" ;;
    etcd) echo "etcd=go.etcd.io/etcd/server/v3" ;;
    kwok) echo "kwok=sigs.k8s.io/kwok/cmd/kwok" ;;
    helm) echo "helm=helm.sh/helm/v3/cmd/helm" ;;
    volcano) echo "vc-scheduler=volcano.sh/volcano/cmd/scheduler" \
                  "vc-controller-manager=volcano.sh/volcano/cmd/controller-manager" \
                  "vc-webhook-manager=volcano.sh/volcano/cmd/webhook-manager" \
                  "vcctl=volcano.sh/volcano/cmd/cli" ;;
    *) echo "unknown harness: $1" >&2; return 1 ;;
  esac
}

# build HARNESS [BINARY...]: the named binaries of the harness (default: all of them).
build() {
  local name=$1 out ldf t start dir wanted=() missing=()
  shift
  out=$(bin_dir "$name")
  for t in $(targets "$name"); do
    if [ $# -eq 0 ] || [[ " $* " == *" ${t%%=*} "* ]]; then wanted+=("$t"); fi
  done
  if [ ${#wanted[@]} -eq 0 ] || { [ $# -gt 0 ] && [ ${#wanted[@]} -ne $# ]; }; then
    echo "[$name] unknown binary in: $* (known: $(targets "$name" | tr ' ' '\n' | cut -d= -f1 | tr '\n' ' '))" >&2
    return 1
  fi
  for t in "${wanted[@]}"; do
    [ -f "$out/.complete" ] || [ -f "$out/${t%%=*}" ] || missing+=("$t")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "[$name] cached in $out"
    return 0
  fi
  case $name in
    k8s) ldf=$(k8s_ldflags) ;;
    volcano) ldf=$(volcano_ldflags) ;;
    helm) ldf="-s -w -X helm.sh/helm/v3/internal/version.version=v3.22.0" ;;
    *) ldf="-s -w" ;;
  esac
  mkdir -p "$out"
  dir=$here/$name
  if [ "$name" = volcano ]; then
    dir=$(volcano_workdir "$out") || { echo "[volcano] could not prepare the build tree" >&2; return 1; }
  fi
  start=$(date +%s)
  # One go build for all of a harness's binaries: their shared packages compile once and the
  # links overlap with compiling instead of running one after another. go build names each
  # binary after its package (the element before a /vN suffix); they are renamed after.
  local pkgs=() built
  for t in "${missing[@]}"; do pkgs+=("${t#*=}"); done
  echo "[$name] building $(printf '%s\n' "${missing[@]}" | cut -d= -f1 | tr '\n' ' ')"
  rm -rf "$out/.tmp" && mkdir -p "$out/.tmp"
  (cd "$dir" && go build -p 2 -trimpath -pgo=off -tags=notest,grpcnotrace \
    -ldflags "$ldf" -o "$out/.tmp/" "${pkgs[@]}")
  for t in "${missing[@]}"; do
    built=${t#*=}
    [[ ${built##*/} =~ ^v[0-9]+$ ]] && built=${built%/*}
    mv "$out/.tmp/${built##*/}" "$out/${t%%=*}"
  done
  rm -rf "$out/.tmp" "$out/src"
  echo "$(( $(date +%s) - start ))" > "$out/.build-seconds"
  local all=1
  for t in $(targets "$name"); do [ -f "$out/${t%%=*}" ] || all=0; done
  [ $all = 0 ] || touch "$out/.complete"
  # Older builds of this harness are dead weight (hundreds of MB each).
  find "$cache/bin" -maxdepth 1 -name "$name-*" ! -path "$out" -exec rm -rf {} +
  echo "[$name] built in $(cat "$out/.build-seconds") s into $out"
}

# Every harness's modules into the module cache. Network-bound: `make up` runs it in the
# background while the C++ binaries compile, so the Go builds after it find their sources.
download() {
  local h
  for h in k8s etcd kwok volcano helm; do
    (cd "$here/$h" && go mod download) || { echo "[$h] go mod download failed" >&2; return 1; }
  done
  echo "modules of every harness downloaded"
}

if [ "${1:-}" = --print-dir ]; then
  bin_dir "$2"
  exit 0
fi
if [ "${1:-}" = --download ]; then
  download
  exit
fi
for h in "${@:-k8s etcd kwok volcano helm}"; do
  for n in $h; do
    if [[ $n == *:* ]]; then
      # shellcheck disable=SC2046 # the binary list is comma-separated names without spaces
      build "${n%%:*}" $(tr ',' ' ' <<<"${n#*:}")
    else
      build "$n"
    fi
  done
done
