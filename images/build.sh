#!/usr/bin/env bash
# Builds container images without Docker and without pulling anything: buildah (Debian) assembles
# each image from scratch out of files on this machine and pushes it to a registry.
#
#   images/build.sh ours        vc-webhook-manager and vc-controller-manager from $BUILD_DIR
#   images/build.sh volcano [BINARY...]  Volcano's vc-scheduler, vc-webhook-manager, vc-controller-manager
#                               from the binaries the e2e harness builds (e2e/cluster/volcano)
#   images/build.sh node        the pod sandbox (pause) and busybox images the real node needs
#   images/build.sh all         all of the above
#   images/build.sh sizes       each image's size next to the size of the binary it runs
#
# A binary's image holds the binary, exactly the shared libraries `ldd` says it loads (none for
# Go's static binaries), the CA certificates, and /etc/passwd with the non-root user 65532 it runs
# as; nothing else, no shell. Images go to $REGISTRY (default: the local cluster's registry on
# loopback, see e2e/cluster/node.sh) under the names clusters ask for:
#   docker.io/vc-cpp/vc-{webhook,controller}-manager:{$VC_IMAGE_VERSION,<content tag>}
#   docker.io/volcanosh/vc-{scheduler,webhook-manager,controller-manager}:v1.15.1
#   registry.k8s.io/pause:3.10, docker.io/library/busybox:{latest,1.24,1.28,1.36}
# The content tag (c-<12 hex>) is a hash of everything that goes into the image, so a rebuilt
# binary gets a new tag and `helm upgrade --set ...tag=` rolls it out; it is printed and written
# to $BUILD_DIR/images/<name>.tag.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$repo/build}
VC_CACHE=${VC_CACHE:-$HOME/.cache/vc-cpp}
REGISTRY=${REGISTRY:-127.0.0.1:${REGISTRY_PORT:-25000}}
VC_IMAGE_VERSION=${VC_IMAGE_VERSION:-$(sed -n 's/^project(vc-cpp VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")}
VOLCANO_VERSION=v1.15.1
# buildah keeps its working storage in the cache (vfs: no overlay mounts to clean up).
bah() { buildah --root "$VC_CACHE/containers/storage" --runroot "$VC_CACHE/containers/run" \
  --storage-driver vfs "$@"; }

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "images: error: $*"; exit 1; }

command -v buildah >/dev/null || die "buildah is not installed (make deps)"
mkdir -p "$BUILD_DIR/images"

# Scratch space: every root filesystem is assembled under one directory, and it and any working
# container still alive go when the script exits, however it exits. One EXIT trap rather than a
# RETURN trap per function: bash has a single RETURN trap, so a callee's replaced its caller's
# and each image's tree (tens of MiB) was left in /tmp.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/vc-images.XXXXXX")
live_ctr=""
cleanup() {
  [ -z "$live_ctr" ] || bah rm "$live_ctr" >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# registry_up: the target registry answers the v2 API.
registry_up() { curl -fsS -o /dev/null --max-time 3 "http://$REGISTRY/v2/"; }

# size_key REF: the file name under $BUILD_DIR/images/ that records REF's sizes.
size_key() { local p; p=$(registry_path "$1"); echo "${p//\//_}"; }

# registry_path REF: the repository path of REF inside the registry (docker.io/library/x -> library/x).
registry_path() { local r=${1#*/}; echo "${r%:*}"; }

# rootfs_base DIR: the files every image has: CA certificates, passwd/group with user 65532,
# name resolution through files then DNS (glibc has both built in).
rootfs_base() {
  local d=$1
  mkdir -p "$d/etc/ssl/certs" "$d/tmp"
  chmod 1777 "$d/tmp"
  cp /etc/ssl/certs/ca-certificates.crt "$d/etc/ssl/certs/"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$d/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$d/etc/group"
  echo 'hosts: files dns' > "$d/etc/nsswitch.conf"
}

# copy_libs BINARY DIR: the shared libraries BINARY loads, at the same paths under DIR.
copy_libs() {
  local bin=$1 d=$2 lib
  # "not a dynamic executable" (static binaries) prints nothing on stdout that has a path.
  for lib in $(ldd "$bin" 2>/dev/null | grep -oE '/[^ ]+' || true); do
    mkdir -p "$d$(dirname "$lib")"
    cp -L "$lib" "$d$lib"
  done
  # Fail here, not in a pod, if a library could not be found.
  if ldd "$bin" 2>/dev/null | grep -q 'not found'; then
    die "$bin links a library this machine lacks: $(ldd "$bin" | grep 'not found')"
  fi
}

# commit ROOTFS NAME REFS... -- CONFIG...: an image of ROOTFS with the buildah config options
# CONFIG, committed, pushed to the registry under every REF. Prints the first REF.
commit() {
  local rootfs=$1 name=$2; shift 2
  local refs=() cfg=() ctr ref
  while [ $# -gt 0 ] && [ "$1" != -- ]; do refs+=("$1"); shift; done
  shift
  cfg=("$@")
  ctr=$(bah from --quiet scratch)
  live_ctr=$ctr
  bah copy --quiet "$ctr" "$rootfs/" / >/dev/null
  bah config "${cfg[@]}" \
    --label org.opencontainers.image.title="$name" \
    --label org.opencontainers.image.source=vc-cpp "$ctr"
  bah commit --quiet --rm=false --timestamp 0 "$ctr" "${refs[0]}" >/dev/null
  du -sb "$rootfs" | cut -f1 > "$BUILD_DIR/images/$(size_key "${refs[0]}").unpacked"
  for ref in "${refs[@]}"; do
    [ "$ref" = "${refs[0]}" ] || bah tag "${refs[0]}" "$ref"
    bah push --quiet --tls-verify=false "$ref" "docker://$REGISTRY/$(registry_path "$ref"):${ref##*:}"
  done
  bah rm "$ctr" >/dev/null
  live_ctr=""
  log "pushed ${refs[*]}"
}

# binary_image NAME BINARY REPO VERSION_TAG [CONTENT_TAG]: BINARY as /usr/local/bin/NAME, run as
# 65532:65532 with NAME as the entrypoint. With CONTENT_TAG=yes a c-<hash> tag is added too.
binary_image() {
  local name=$1 bin=$2 image_repo=$3 version=$4 content=${5:-no} tmp hash refs
  [ -x "$bin" ] || die "$bin is not built"
  tmp=$(mktemp -d "$scratch/$name.XXXXXX")
  rootfs_base "$tmp/rootfs"
  install -D -m 0755 "$bin" "$tmp/rootfs/usr/local/bin/$name"
  strip --strip-debug "$tmp/rootfs/usr/local/bin/$name" 2>/dev/null || true
  stat -c %s "$tmp/rootfs/usr/local/bin/$name" > "$BUILD_DIR/images/$(size_key "$image_repo").binary"
  copy_libs "$bin" "$tmp/rootfs"
  refs=("$image_repo:$version")
  if [ "$content" = yes ]; then
    hash=$( (cd "$tmp/rootfs" && find . -type f -print0 | sort -z | xargs -0 sha256sum; \
      sha256sum "$here/build.sh") | sha256sum | cut -c1-12)
    refs+=("$image_repo:c-$hash")
    echo "c-$hash" > "$BUILD_DIR/images/$name.tag"
  fi
  commit "$tmp/rootfs" "$name" "${refs[@]}" -- \
    --entrypoint "[\"/usr/local/bin/$name\"]" --cmd '[]' --user 65532:65532 --workingdir / \
    --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
  rm -rf "$tmp"
}

build_ours() {
  binary_image vc-webhook-manager "$BUILD_DIR/webhook/vc-webhook-manager" \
    docker.io/vc-cpp/vc-webhook-manager "$VC_IMAGE_VERSION" yes
  binary_image vc-controller-manager "$BUILD_DIR/controllers/vc-controller-manager" \
    docker.io/vc-cpp/vc-controller-manager "$VC_IMAGE_VERSION" yes
}

# build_volcano [BINARY...]: images of Volcano's binaries (default: the scheduler, the webhook
# and the controller-manager); binaries not built yet are built first.
build_volcano() {
  local vbin n names=("$@")
  [ ${#names[@]} -gt 0 ] || names=(vc-scheduler vc-webhook-manager vc-controller-manager)
  vbin=$("$repo/e2e/cluster/build-binaries.sh" --print-dir volcano)
  "$repo/e2e/cluster/build-binaries.sh" "volcano:$(IFS=,; echo "${names[*]}")"
  for n in "${names[@]}"; do
    binary_image "$n" "$vbin/$n" "docker.io/volcanosh/$n" "$VOLCANO_VERSION"
  done
}

build_node() {
  local tmp
  tmp=$(mktemp -d "$scratch/node.XXXXXX")
  # The sandbox: our own pause (images/pause/pause.c), static, as registry.k8s.io/pause.
  mkdir -p "$tmp/pause/bin"
  gcc -static -O2 -s -o "$tmp/pause/bin/pause" "$here/pause/pause.c"
  commit "$tmp/pause" pause registry.k8s.io/pause:3.10 -- \
    --entrypoint '["/bin/pause"]' --cmd '[]' --user 65535:65535
  # busybox from Debian's busybox-static, with every applet linked, root like the real image.
  command -v busybox >/dev/null || die "busybox-static is not installed (make deps)"
  rootfs_base "$tmp/busybox"
  mkdir -p "$tmp/busybox/bin"
  cp "$(command -v busybox)" "$tmp/busybox/bin/busybox"
  local applet
  for applet in $("$tmp/busybox/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$tmp/busybox/bin/$applet"
  done
  commit "$tmp/busybox" busybox docker.io/library/busybox:latest docker.io/library/busybox:1.24 \
    docker.io/library/busybox:1.28 docker.io/library/busybox:1.36 -- \
    --cmd '["sh"]' --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  rm -rf "$tmp"
}

# sizes: per image, what a node pulls (compressed layers), what it unpacks to, and the size of
# the binary it runs.
sizes() {
  local ref name path tag manifest pulled unpacked
  printf '%-44s %11s %13s %11s\n' IMAGE PULLED_MiB UNPACKED_MiB BINARY_MiB
  for ref in docker.io/vc-cpp/vc-webhook-manager:$VC_IMAGE_VERSION \
             docker.io/vc-cpp/vc-controller-manager:$VC_IMAGE_VERSION \
             docker.io/volcanosh/vc-webhook-manager:$VOLCANO_VERSION \
             docker.io/volcanosh/vc-controller-manager:$VOLCANO_VERSION \
             docker.io/volcanosh/vc-scheduler:$VOLCANO_VERSION; do
    path=$(registry_path "$ref") tag=${ref##*:} name=$(size_key "$ref")
    manifest=$(curl -fsS -H 'Accept: application/vnd.oci.image.manifest.v1+json' \
      -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' \
      "http://$REGISTRY/v2/$path/manifests/$tag") || { printf '%-44s %11s\n' "$ref" missing; continue; }
    pulled=$(jq '[.layers[].size] | add' <<<"$manifest")
    unpacked=$(cat "$BUILD_DIR/images/$name.unpacked" 2>/dev/null || echo 0)
    printf '%-44s %11.1f %13.1f %11.1f\n' "$ref" "$(mib "$pulled")" "$(mib "$unpacked")" \
      "$(mib "$(cat "$BUILD_DIR/images/$name.binary" 2>/dev/null || echo 0)")"
  done
}
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

registry_up || die "no registry answers at http://$REGISTRY/v2/ (start the cluster: make cluster-up)"
case ${1:-all} in
  ours) build_ours ;;
  volcano) shift; build_volcano "$@" ;;
  node) build_node ;;
  all) build_node; build_ours; build_volcano ;;
  sizes) sizes ;;
  *) die "usage: images/build.sh ours|volcano|node|all|sizes" ;;
esac
