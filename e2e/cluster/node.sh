#!/usr/bin/env bash
# The real node of the local cluster: a kubelet on this machine running pods for real with
# containerd and runc (Debian's), the bridge CNI, kube-proxy for Services, and a registry on
# loopback that holds every image the node may pull (built here by images/build.sh).
#
#   node.sh network   the pod bridge and the kernel settings (before the API server starts: its
#                     address on the bridge is where pods reach the API server)
#   node.sh up        registry, base images, containerd, kubelet, kube-proxy; waits for Ready
#   node.sh down      stops them, kills every container the node ran, unmounts what they left
#
# The node is named $NODE_NAME, labelled and tainted node-role.kubernetes.io/control-plane (as
# kubeadm clusters taint theirs), so only pods that tolerate it run here; test pods meant for
# kwok nodes never do.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$cluster_dir/node-config.sh"

RUNC_ROOT=$NODE_DIR/run/runc
ctr_() { ctr --address "$CONTAINERD_SOCK" --namespace k8s.io "$@"; }

network() {
  local ip addrs
  sysctl -qw net.ipv4.ip_forward=1
  # Service traffic between two pods on the bridge goes through kube-proxy's iptables rules only
  # if bridged packets pass iptables.
  if [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]; then
    sysctl -qw net.bridge.bridge-nf-call-iptables=1
  else
    log "warning: br_netfilter is not loaded: a pod reaching a Service backed by a pod on the same bridge may time out"
  fi
  ip link show "$POD_BRIDGE" >/dev/null 2>&1 || ip link add "$POD_BRIDGE" type bridge
  ip="$POD_GATEWAY/${POD_CIDR#*/}"
  # (captured first: grep -q stopping early would fail the pipeline under pipefail)
  addrs=$(ip -4 -o addr show dev "$POD_BRIDGE")
  [[ $addrs == *" inet $ip "* ]] || ip addr add "$ip" dev "$POD_BRIDGE"
  ip link set "$POD_BRIDGE" up
}

# A unix socket path longer than 107 bytes cannot be bound: say so instead of a cryptic failure.
check_socket_path() {
  [ ${#CONTAINERD_SOCK} -lt 100 ] || die "state directory too deep for a unix socket: $CONTAINERD_SOCK (set STATE_DIR to a shorter path)"
}

registry_has() { curl -fs -o /dev/null --max-time 3 -H 'Accept: application/vnd.oci.image.manifest.v1+json' \
  "http://$REGISTRY/v2/$1/manifests/$2"; }

# The kubelet's first status sync of a pod just bound here GETs the pod, and the Node authorizer
# may not have that binding in its graph yet ("no relationship found between node ... and this
# object": its graph is fed by an informer that can lag the kubelet's own watch on these two busy
# cores). The kubelet retries and nothing is lost, but the denial lands in the logs, where only
# denials of the identities under test should. So the kubelet may also GET pods through RBAC:
# on this one-node cluster that is no pod it could not already read through its watch.
kubelet_pod_reads() {
  kubectl_ apply --server-side --force-conflicts -f - >/dev/null <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "vc-cpp-e2e:kubelet-get-pods"}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "vc-cpp-e2e:kubelet-get-pods"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "vc-cpp-e2e:kubelet-get-pods"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: "system:node:$NODE_NAME"}]
EOF
}

up() {
  check_socket_path
  mkdir -p "$NODE_DIR"
  network
  registry_config
  containerd_config
  kubelet_config

  alive registry || start registry /usr/bin/docker-registry serve "$NODE_DIR/registry.yml"
  wait_until "the registry on $REGISTRY" 30 curl -fsS "http://$REGISTRY/v2/"
  if ! registry_has pause 3.10 || ! registry_has library/busybox latest; then
    REGISTRY=$REGISTRY "$repo/images/build.sh" node
  fi

  alive containerd || start containerd containerd --config "$NODE_DIR/containerd.toml"
  wait_until "containerd" 30 ctr --address "$CONTAINERD_SOCK" version

  kubelet_pod_reads
  if ! alive kubelet; then
    start kubelet "$K8S_BIN/kubelet" --config="$NODE_DIR/kubelet.yaml" \
      --kubeconfig="$STATE_DIR/kubelet.kubeconfig" --hostname-override="$NODE_NAME" \
      --node-ip="$POD_GATEWAY" --root-dir="$NODE_DIR/kubelet" --cert-dir="$NODE_DIR/kubelet-pki" \
      --runtime-cgroups=/ --v=1
  fi
  if ! alive kube-proxy; then
    start kube-proxy "$K8S_BIN/kube-proxy" --kubeconfig="$STATE_DIR/kube-proxy.kubeconfig" \
      --hostname-override="$NODE_NAME" --cluster-cidr="$POD_CIDR" --proxy-mode=iptables \
      --conntrack-max-per-core=0 --conntrack-tcp-timeout-established=0 \
      --conntrack-tcp-timeout-close-wait=0 \
      --metrics-bind-address=127.0.0.1:$KUBE_PROXY_METRICS_PORT \
      --healthz-bind-address=127.0.0.1:$KUBE_PROXY_HEALTHZ_PORT --v=1
  fi
  wait_until "node $NODE_NAME Ready" 120 \
    kubectl_ wait --for=condition=Ready "node/$NODE_NAME" --timeout=2s
  kubectl_ label --overwrite node "$NODE_NAME" node-role.kubernetes.io/control-plane= >/dev/null
  log "real node $NODE_NAME ready (containerd $CONTAINERD_SOCK, registry $REGISTRY)"
}

# The containers the node ran outlive the kubelet and containerd (their shims are re-parented),
# so they are killed through runc's own state; then every mount under the node's directory
# (pod volumes, rootfs snapshots, sandbox /dev/shm) goes, deepest first.
down() {
  local id mnt ns
  stop kube-proxy
  stop kubelet
  if [ -d "$RUNC_ROOT" ]; then
    for id in $(runc --root "$RUNC_ROOT/k8s.io" list -q 2>/dev/null); do
      runc --root "$RUNC_ROOT/k8s.io" kill --all "$id" KILL 2>/dev/null || true
      runc --root "$RUNC_ROOT/k8s.io" delete --force "$id" 2>/dev/null || true
    done
  fi
  stop containerd
  pkill -KILL -f "containerd-shim-runc-v2 .*-address $CONTAINERD_SOCK" 2>/dev/null || true
  stop registry
  if [ -x "$K8S_BIN/kube-proxy" ]; then "$K8S_BIN/kube-proxy" --cleanup >/dev/null 2>&1 || true; fi
  for mnt in $(awk -v d="$NODE_DIR/" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r); do
    umount -l "$mnt" 2>/dev/null || true
  done
  # Sandbox network namespaces whose pods are gone (containerd names them cni-<uuid>).
  for ns in $(ip netns list 2>/dev/null | awk '/^cni-/ {print $1}'); do
    [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && ip netns delete "$ns" 2>/dev/null || true
  done
  rm -rf "$NODE_DIR"
}

case ${1:-} in
  network) network ;;
  up) up ;;
  down) down ;;
  *) die "usage: node.sh network|up|down" ;;
esac
