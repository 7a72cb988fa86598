# Shared settings and helpers of the local cluster scripts (sourced, not run).
# Everything listens on 127.0.0.1 on non-default ports; all state and logs live in $STATE_DIR.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cluster_dir=$repo/e2e/cluster
STATE_DIR=${STATE_DIR:-$repo/.state}
PKI=$STATE_DIR/pki
LOGS=$STATE_DIR/logs
# The API server's audit log: writes by $FENCED_SA, and every request of the controller
# benchmark's identities $BENCH_SAS (up.sh, audit-policy.yaml; bench/controller/api-work.sh).
AUDIT_LOG=$LOGS/audit.log
FENCED_SA=vc-cpp-e2e-fenced
BENCH_SAS="vc-cpp-bench-ours vc-cpp-bench-reference"
PIDS=$STATE_DIR/pids
export NO_PROXY=127.0.0.1,127.0.0.2,localhost${NO_PROXY:+,$NO_PROXY}

ETCD_PORT=${ETCD_PORT:-22379}
ETCD_PEER_PORT=${ETCD_PEER_PORT:-22380}
APISERVER_PORT=${APISERVER_PORT:-26443}
# Every client's address of the API server: a loopback address of their own, so that while the
# API server (re)starts, apiserver_gate can keep them out and still let in the API server's own
# loopback client and the /readyz probe, which use 127.0.0.1.
APISERVER_HOST=127.0.0.2
KCM_PORT=${KCM_PORT:-20257}
WEBHOOK_PORT=${WEBHOOK_PORT:-28443}
WEBHOOK_HEALTHZ_PORT=${WEBHOOK_HEALTHZ_PORT:-21251}
CONTROLLERS_HEALTHZ_PORT=${CONTROLLERS_HEALTHZ_PORT:-21252}
CONTROLLERS_METRICS_PORT=${CONTROLLERS_METRICS_PORT:-28081}
SCHEDULER_HEALTHZ_PORT=${SCHEDULER_HEALTHZ_PORT:-21253}
SCHEDULER_METRICS_PORT=${SCHEDULER_METRICS_PORT:-28080}
# The lagging-cache mode: with CONTROLLER_WATCH_LAG set (a Go duration: 300ms, 2s), the process-mode
# controller-manager reaches the API server through e2e/tests/cmd/lagproxy on this port, which
# holds every watch stream back by that long (its lists, gets and writes pass at once).
CONTROLLER_WATCH_LAG=${CONTROLLER_WATCH_LAG:-}
LAG_PROXY_PORT=${LAG_PROXY_PORT:-26445}

# The real node (REAL_NODE=1, the default): a kubelet on this machine with containerd, runc and
# the bridge CNI from Debian, kube-proxy, and a registry on loopback that serves every image its
# pods ask for (built here, nothing is pulled from outside). REAL_NODE=0 leaves it out.
REAL_NODE=${REAL_NODE:-1}
NODE_NAME=${NODE_NAME:-vc-node}
KUBELET_PORT=${KUBELET_PORT:-20250}
KUBELET_HEALTHZ_PORT=${KUBELET_HEALTHZ_PORT:-20248}
KUBE_PROXY_METRICS_PORT=${KUBE_PROXY_METRICS_PORT:-20249}
KUBE_PROXY_HEALTHZ_PORT=${KUBE_PROXY_HEALTHZ_PORT:-20256}
KUBE_SCHEDULER_PORT=${KUBE_SCHEDULER_PORT:-20259}
REGISTRY_PORT=${REGISTRY_PORT:-25000}
REGISTRY=127.0.0.1:$REGISTRY_PORT
# Pods of the real node live on bridge $POD_BRIDGE in $POD_CIDR, in network namespaces the
# bridge CNI makes on this machine; the gateway address is also where pods reach the API server
# (the `kubernetes` Service's endpoint). Services get ClusterIPs from $SERVICE_CIDR.
POD_BRIDGE=${POD_BRIDGE:-vc-br0}
POD_CIDR=${POD_CIDR:-10.88.0.0/16}
POD_GATEWAY=${POD_GATEWAY:-10.88.0.1}
SERVICE_CIDR=${SERVICE_CIDR:-10.96.0.0/16}
NODE_DIR=$STATE_DIR/node
CONTAINERD_SOCK=$NODE_DIR/run/containerd.sock  # the real node's containerd (node.sh)
VC_CACHE=${VC_CACHE:-$HOME/.cache/vc-cpp}

# kwok gives its pods addresses from this range. No host here has one, so the range is made
# unreachable on this machine (up.sh): a client dialling a kwok pod (a JobFlow probe, say) gets an
# immediate error instead of sending traffic out through the default route.
KWOK_POD_CIDR=10.244.0.0/16

CLUSTER_NODES=${CLUSTER_NODES:-4}
NODE_CPU=${NODE_CPU:-8}
NODE_MEMORY=${NODE_MEMORY:-32Gi}

# IMPL sets both components; IMPL_WEBHOOK / IMPL_CONTROLLERS override one each.
# ours = our C++ binaries from the CMake build, reference = Volcano's Go binaries, none = not run.
IMPL_WEBHOOK=${IMPL_WEBHOOK:-${IMPL:-ours}}
IMPL_CONTROLLERS=${IMPL_CONTROLLERS:-${IMPL:-ours}}
BUILD_DIR=${BUILD_DIR:-$repo/build}

ADMIN_KUBECONFIG=$STATE_DIR/admin.kubeconfig
WEBHOOK_URL=https://127.0.0.1:$WEBHOOK_PORT
# The webhook paths registered with the API server (Volcano e2e's full list).
WEBHOOK_PATHS=/pods/mutate,/queues/mutate,/podgroups/mutate,/jobs/mutate,/jobs/validate,/jobflows/validate,/pods/validate,/queues/validate,/podgroups/validate,/hypernodes/validate,/cronjobs/validate

bin_dir() { "$cluster_dir/build-binaries.sh" --print-dir "$1"; }
K8S_BIN=$(bin_dir k8s)
ETCD_BIN=$(bin_dir etcd)
KWOK_BIN=$(bin_dir kwok)
VOLCANO_BIN=$(bin_dir volcano)
HELM=$(bin_dir helm)/helm
# Where the chart installs the stack (IMPL=chart, e2e/cluster/install.sh), and its release name.
VC_NAMESPACE=${VC_NAMESPACE:-volcano-system}
VC_RELEASE=${VC_RELEASE:-vc-cpp}

kubectl_() { "$K8S_BIN/kubectl" --kubeconfig="$ADMIN_KUBECONFIG" "$@"; }

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# alive NAME: the process recorded for NAME is running.
alive() {
  local f=$PIDS/$1.pid
  [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

# down_on_exit_unless_running: for the test runners. When no cluster is up yet, the one the
# runner is about to start is stopped again when it exits, unless KEEP_CLUSTER=1; a cluster that
# was already up is left as it was.
down_on_exit_unless_running() {
  rm -f "$FAILED_TESTS"
  if alive kube-apiserver || [ "${KEEP_CLUSTER:-0}" = 1 ]; then
    trap 'print_failed_tests' EXIT
  else
    trap 'down_then_print_failed_tests' EXIT
  fi
}

# The failed tests of a runner's go test outputs, with their error lines, are printed as the very
# last thing it does (after the component logs and the cluster's shutdown): CI keeps only the tail
# of a long output, and that tail must name what failed.
FAILED_TESTS=$LOGS/failed-tests.txt

# collect_failed_tests FILE...: writes the failed tests of `go test -v` outputs to $FAILED_TESTS:
# each "--- FAIL" line, then the last 10 of that test's file:line messages (where a failure is
# reported), cut to 400 characters.
collect_failed_tests() {
  mkdir -p "$LOGS"
  awk '
    /^=== (RUN|CONT|NAME|PAUSE) / { cur = $3; next }
    /^ *--- FAIL: / { if (!($3 in failed)) { failed[$3] = 1; order[++n] = $3 }; next }
    /^ *[A-Za-z0-9_]+_test\.go:[0-9]+:/ {
      msgs[cur, cnt[cur]++] = substr($0, 1, 400)
    }
    /^panic: / { panics = panics substr($0, 1, 400) "\n" }
    END {
      for (i = 1; i <= n; i++) {
        t = order[i]
        print "--- FAIL: " t
        for (j = (cnt[t] > 10 ? cnt[t] - 10 : 0); j < cnt[t]; j++) print msgs[t, j]
      }
      printf "%s", panics
    }' "$@" > "$FAILED_TESTS" 2>/dev/null || true
}

# The runner's exit status stays its own; a failed shutdown turns a pass into a failure.
down_then_print_failed_tests() {
  local rc=$?
  "$cluster_dir/down.sh" || { [ "$rc" != 0 ] || rc=1; }
  print_failed_tests
  exit "$rc"
}

print_failed_tests() {
  [ -s "$FAILED_TESTS" ] || return 0
  echo "===== failed tests (the full outputs are in $LOGS)"
  cat "$FAILED_TESTS"
}

# start NAME CMD...: runs CMD in the background with its output in $LOGS/NAME.log and records its
# PID. The process gets its own session so stopping it never signals this shell.
start() {
  local name=$1; shift
  mkdir -p "$LOGS" "$PIDS"
  setsid "$@" >>"$LOGS/$name.log" 2>&1 < /dev/null &
  echo $! > "$PIDS/$name.pid"
  log "started $name (pid $!)"
}

# stop NAME: TERM, then KILL after 10 s, the process recorded for NAME (never by name matching).
stop() {
  local name=$1 f=$PIDS/$1.pid pid i
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name (pid $pid) ignored TERM; killing"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "stopped $name (pid $pid)"
  fi
  rm -f "$f"
}

# wait_until DESCRIPTION TIMEOUT_SECONDS CMD...: polls CMD every 0.5 s; on timeout prints the
# last output of CMD and the tail of the named log, then fails.
wait_until() {
  local what=$1 timeout=$2 deadline out; shift 2
  deadline=$(( $(date +%s) + timeout ))
  while true; do
    if out=$("$@" 2>&1); then return 0; fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "timed out after ${timeout}s waiting for $what; last output:"
      printf '%s\n' "$out" | tail -20 >&2
      return 1
    fi
    sleep 0.5
  done
}

# tail_logs [N]: the last N lines of every component log, for failure reports.
tail_logs() {
  local n=${1:-40} f
  for f in "$LOGS"/*.log; do
    [ -f "$f" ] || continue
    echo "===== $(basename "$f") (last $n lines) ====="
    tail -n "$n" "$f"
  done
}

# apiserver_gate close|open. A starting kube-apiserver serves requests before its RBAC caches are
# filled and denies them meanwhile (every client, every verb: upstream behaviour, which real
# clusters hide behind a load balancer that waits for /readyz). Closed, the gate resets every
# connection to the API server port except on 127.0.0.1; up.sh closes it before it starts the API
# server and opens it once /readyz answers, so clients retry until the server can authorize them.
apiserver_gate() {
  local rule=(INPUT -p tcp --dport "$APISERVER_PORT" ! -d 127.0.0.1
    -m comment --comment vc-cpp-apiserver-gate -j REJECT --reject-with tcp-reset)
  case $1 in
    close) iptables -C "${rule[@]}" 2>/dev/null || iptables -I "${rule[@]}" ;;
    open) while iptables -D "${rule[@]}" 2>/dev/null; do :; done ;;
    *) die "apiserver_gate: close or open, not '$1'" ;;
  esac
}
