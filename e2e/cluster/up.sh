#!/usr/bin/env bash
# Brings the local control plane up (idempotent): etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, the real node (REAL_NODE=1: kubelet, containerd, kube-proxy, registry), Volcano
# CRDs and RBAC, the admission webhook and controller-manager chosen by IMPL_WEBHOOK /
# IMPL_CONTROLLERS (ours | reference as processes on loopback, chart as installed by
# e2e/cluster/install.sh, none), the Volcano scheduler, and kwok with fake nodes.
# Components already running with the requested implementation are left alone.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

for impl in "$IMPL_WEBHOOK" "$IMPL_CONTROLLERS"; do
  case $impl in ours|reference|chart|none) ;; *) die "IMPL must be ours, reference, chart or none (got '$impl')";; esac
done
# chart: the chart installs the webhook, the controller-manager and the scheduler together.
if [ "$IMPL_WEBHOOK" = chart ] || [ "$IMPL_CONTROLLERS" = chart ]; then
  [ "$IMPL_WEBHOOK" = "$IMPL_CONTROLLERS" ] || die "IMPL=chart is for both components (got webhook=$IMPL_WEBHOOK controllers=$IMPL_CONTROLLERS)"
  [ "$REAL_NODE" = 1 ] || die "IMPL=chart runs the components as pods: it needs the real node (REAL_NODE=1)"
fi

# Volcano's own webhook and controller-manager (and vcctl) only when they run here as the
# reference implementation; the chart's reference images build them on demand (install.sh).
volcano=volcano:vc-scheduler
if [ "$IMPL_WEBHOOK" = reference ] || [ "$IMPL_CONTROLLERS" = reference ]; then volcano=volcano; fi
"$cluster_dir/build-binaries.sh" k8s etcd kwok "$volcano" helm
mkdir -p "$STATE_DIR" "$LOGS" "$PIDS"
NODE_NAME=$NODE_NAME POD_GATEWAY=$POD_GATEWAY "$repo/certs/gen-certs.sh" "$PKI"
# The pod bridge first: the API server advertises its address on it to pods.
"$cluster_dir/node.sh" network
ip route replace unreachable "$KWOK_POD_CIDR" || die "cannot make $KWOK_POD_CIDR unreachable"

# ---------------------------------------------------------------- etcd, apiserver, KCM
if ! alive etcd; then
  start etcd "$ETCD_BIN/etcd" --name=vc-e2e --data-dir="$STATE_DIR/etcd" \
    --listen-client-urls=http://127.0.0.1:$ETCD_PORT --advertise-client-urls=http://127.0.0.1:$ETCD_PORT \
    --listen-peer-urls=http://127.0.0.1:$ETCD_PEER_PORT \
    --initial-advertise-peer-urls=http://127.0.0.1:$ETCD_PEER_PORT \
    --initial-cluster=vc-e2e=http://127.0.0.1:$ETCD_PEER_PORT \
    --unsafe-no-fsync --log-level=warn
fi
wait_until "etcd health" 60 curl -fsS http://127.0.0.1:$ETCD_PORT/health

# The API server audits two kinds of identity only: the writes of the one the e2e test that
# fences a leader off the API server (e2e/tests/deployed/fence_test.go) runs that replica under
# (it reads from the log which of its writes arrived when), and every request of the controller
# benchmark's identities (bench/controller/api-work.sh counts them). Everything else goes
# unaudited (no cost to other tests).
bench_users=$(printf '"system:serviceaccount:%s:%s", ' $(for sa in $BENCH_SAS; do echo "$VC_NAMESPACE $sa"; done))
cat > "$STATE_DIR/audit-policy.yaml" <<EOF_POLICY
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    users: ["system:serviceaccount:$VC_NAMESPACE:$FENCED_SA"]
    verbs: [create, update, patch, delete, deletecollection]
  - level: Metadata
    users: [${bench_users%, }]
  - level: None
EOF_POLICY
if ! alive kube-apiserver; then
  apiserver_gate close
  start kube-apiserver "$K8S_BIN/kube-apiserver" \
    --audit-policy-file="$STATE_DIR/audit-policy.yaml" --audit-log-path="$AUDIT_LOG" \
    --audit-log-format=json --audit-log-mode=blocking \
    --etcd-servers=http://127.0.0.1:$ETCD_PORT \
    --bind-address=0.0.0.0 --secure-port=$APISERVER_PORT --advertise-address=$POD_GATEWAY \
    --service-cluster-ip-range=$SERVICE_CIDR \
    --kubelet-client-certificate="$PKI/admin.crt" --kubelet-client-key="$PKI/admin.key" \
    --kubelet-preferred-address-types=InternalIP,Hostname \
    --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --client-ca-file="$PKI/ca.crt" --authorization-mode=Node,RBAC \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-signing-key-file="$PKI/sa.key" --service-account-key-file="$PKI/sa.pub" \
    --disable-admission-plugins=TaintNodesByCondition --allow-privileged=true \
    --profiling=false --v=1
fi
wait_until "kube-apiserver /readyz" 120 \
  curl -fsS --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
  "https://127.0.0.1:$APISERVER_PORT/readyz"
apiserver_gate open

# kubeconfig FILE CREDENTIAL-ARGS...: a kubeconfig for the local cluster with embedded CA.
kubeconfig() {
  local f=$1; shift
  local k=("$K8S_BIN/kubectl" config --kubeconfig="$f")
  "${k[@]}" set-cluster local --server=https://$APISERVER_HOST:$APISERVER_PORT \
    --certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null
  "${k[@]}" set-credentials user "$@" >/dev/null
  "${k[@]}" set-context local --cluster=local --user=user >/dev/null
  "${k[@]}" use-context local >/dev/null
}
[ -f "$ADMIN_KUBECONFIG" ] || kubeconfig "$ADMIN_KUBECONFIG" \
  --client-certificate="$PKI/admin.crt" --client-key="$PKI/admin.key" --embed-certs=true
for who in kubelet-client kube-proxy kube-scheduler; do
  f=$STATE_DIR/${who%-client}.kubeconfig
  [ -f "$f" ] || kubeconfig "$f" --client-certificate="$PKI/$who.crt" \
    --client-key="$PKI/$who.key" --embed-certs=true
done

if ! alive kube-controller-manager; then
  start kube-controller-manager "$K8S_BIN/kube-controller-manager" \
    --kubeconfig="$ADMIN_KUBECONFIG" --bind-address=127.0.0.1 --secure-port=$KCM_PORT \
    --leader-elect=false --service-account-private-key-file="$PKI/sa.key" \
    --root-ca-file="$PKI/ca.crt" --v=1
fi
wait_until "the default ServiceAccount" 120 kubectl_ -n default get serviceaccount default

# kube-scheduler places every pod that does not ask for Volcano (Deployments, plain pods).
if ! alive kube-scheduler; then
  start kube-scheduler "$K8S_BIN/kube-scheduler" --kubeconfig="$STATE_DIR/kube-scheduler.kubeconfig" \
    --authentication-kubeconfig="$STATE_DIR/kube-scheduler.kubeconfig" \
    --authorization-kubeconfig="$STATE_DIR/kube-scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port=$KUBE_SCHEDULER_PORT --leader-elect=false --v=1
fi

if [ "$REAL_NODE" = 1 ]; then
  "$cluster_dir/node.sh" up
fi

# ---------------------------------------------------------------- CRDs, namespace, identities
"$cluster_dir/crds.sh"
# Leaving chart mode: the release goes first (its webhook configurations and roles share names
# with the process-mode ones, and its pods would run next to the processes).
if [ "$(cat "$STATE_DIR/impl-webhook" 2>/dev/null)" = chart ] && [ "$IMPL_WEBHOOK" != chart ]; then
  "$cluster_dir/install.sh" uninstall
  echo none > "$STATE_DIR/impl-webhook"
  echo none > "$STATE_DIR/impl-controllers"
fi

kubectl_ get namespace volcano-system >/dev/null 2>&1 || kubectl_ create namespace volcano-system
# The processes' identities; in chart mode the chart makes its own under the same names.
if [ "$IMPL_WEBHOOK" = chart ]; then
  if [ "$(cat "$STATE_DIR/impl-webhook" 2>/dev/null)" != chart ]; then
    # The process-mode scheduler and controller-manager may run under these identities: they go
    # first, or they run for a while without their roles (the chart starts its own below).
    stop scheduler
    stop controllers
    "$cluster_dir/rbac.sh" delete
  fi
else
  "$cluster_dir/rbac.sh"
fi

# ---------------------------------------------------------------- admission webhook
webhook_running_impl=$(cat "$STATE_DIR/impl-webhook" 2>/dev/null || echo none)
if [ "$IMPL_WEBHOOK" = chart ]; then
  # Installed by install.sh; a process from an earlier mode goes with its URL registrations, which
  # would otherwise keep the names the chart's configurations need.
  if [ "$webhook_running_impl" != chart ]; then
    stop webhook
    "$cluster_dir/webhooks.sh" delete
    echo chart > "$STATE_DIR/impl-webhook"
  fi
elif [ "$webhook_running_impl" != "$IMPL_WEBHOOK" ] || { [ "$IMPL_WEBHOOK" != none ] && ! alive webhook; }; then
  stop webhook
  case $IMPL_WEBHOOK in
    # Each implementation runs under its own manifest's identity, as for the controllers below.
    reference) wh_bin=$VOLCANO_BIN/vc-webhook-manager wh_identity=volcano-admission ;;
    ours) wh_bin=$BUILD_DIR/webhook/vc-webhook-manager wh_identity=vc-cpp-admission
          [ -x "$wh_bin" ] || die "IMPL_WEBHOOK=ours but $wh_bin is not built (run make binaries)" ;;
    none) wh_bin= ;;
  esac
  if [ -n "$wh_bin" ]; then
    # Volcano's webhook-manager waits for its configurations to exist before it listens (it only
    # patches their caBundle), so they are registered first.
    "$cluster_dir/webhooks.sh" apply
    start webhook "$wh_bin" --kubeconfig="$STATE_DIR/$wh_identity.kubeconfig" \
      --listen-address=127.0.0.1 --port=$WEBHOOK_PORT \
      --tls-cert-file="$PKI/webhook.crt" --tls-private-key-file="$PKI/webhook.key" \
      --ca-cert-file="$PKI/ca.crt" --webhook-url="$WEBHOOK_URL" --scheduler-name=volcano \
      --enabled-admission="$WEBHOOK_PATHS" \
      --enable-healthz=true --healthz-address=127.0.0.1:$WEBHOOK_HEALTHZ_PORT --logtostderr -v=3
  fi
  echo "$IMPL_WEBHOOK" > "$STATE_DIR/impl-webhook"
fi
if [ "$IMPL_WEBHOOK" = none ]; then
  "$cluster_dir/webhooks.sh" delete
elif [ "$IMPL_WEBHOOK" != chart ]; then
  # Any HTTP answer over TLS verified against the cluster CA means the server is up.
  "$cluster_dir/webhooks.sh" apply
  wait_until "the webhook to serve TLS" 60 \
    curl -sS -o /dev/null --max-time 2 --cacert "$PKI/ca.crt" "$WEBHOOK_URL/healthz"
fi

# ---------------------------------------------------------------- controller-manager
controllers_running_impl=$(cat "$STATE_DIR/impl-controllers" 2>/dev/null || echo none)
# The watch lag the running one was started under (lagging-cache mode; empty: none).
controllers_running_lag=$(cat "$STATE_DIR/impl-controllers-lag" 2>/dev/null || true)
if [ "$IMPL_CONTROLLERS" = chart ]; then
  stop controllers
  stop lagproxy
  echo chart > "$STATE_DIR/impl-controllers"
elif [ "$controllers_running_impl" != "$IMPL_CONTROLLERS" ] || [ "$controllers_running_lag" != "$CONTROLLER_WATCH_LAG" ] ||
     { [ "$IMPL_CONTROLLERS" != none ] && ! alive controllers; }; then
  stop controllers
  stop lagproxy
  # Each implementation runs under its own manifest's identity: Volcano's ClusterRole for the
  # reference, ours (manifests/controllers, see rbac.sh) for ours.
  case $IMPL_CONTROLLERS in
    reference) cm_bin=$VOLCANO_BIN/vc-controller-manager cm_identity=volcano-controllers cm_ours=() ;;
    # Our opt-ins that e2e tests cover (TestControllersJobFlowProbesGateSteps,
    # TestControllersJobFlowPatchesMergeIntoTheTemplate), and pods, events and nodes in protobuf
    # (every controller test runs through it; TestControllersSpeakProtobuf checks it is in use).
    # The deployed tests run the chart's default, JSON.
    ours) cm_bin=$BUILD_DIR/controllers/vc-controller-manager cm_identity=vc-cpp-controllers
          cm_ours=(--jobflow-probes=true --jobflow-patches=true
                   --kube-api-content-type=application/vnd.kubernetes.protobuf)
          [ -x "$cm_bin" ] || die "IMPL_CONTROLLERS=ours but $cm_bin is not built (run make binaries)" ;;
    none) cm_bin= ;;
  esac
  if [ -n "$cm_bin" ]; then
    cm_kubeconfig=$STATE_DIR/$cm_identity.kubeconfig
    [ -z "$CONTROLLER_WATCH_LAG" ] || cm_kubeconfig=$("$cluster_dir/lagproxy.sh" "$cm_identity")
    start controllers "$cm_bin" --kubeconfig="$cm_kubeconfig" \
      --scheduler-name=volcano --leader-elect=false --worker-threads=3 \
      --enable-healthz=true --healthz-address=127.0.0.1:$CONTROLLERS_HEALTHZ_PORT \
      --enable-metrics=true --listen-address=127.0.0.1:$CONTROLLERS_METRICS_PORT --logtostderr -v=3 \
      "${cm_ours[@]}"
  fi
  echo "$IMPL_CONTROLLERS" > "$STATE_DIR/impl-controllers"
  echo "$CONTROLLER_WATCH_LAG" > "$STATE_DIR/impl-controllers-lag"
fi
if [ "$IMPL_CONTROLLERS" = ours ] || [ "$IMPL_CONTROLLERS" = reference ]; then
  wait_until "the controller-manager healthz" 60 \
    curl -fsS "http://127.0.0.1:$CONTROLLERS_HEALTHZ_PORT/healthz"
fi

# ---------------------------------------------------------------- scheduler
cp "$cluster_dir/scheduler.conf" "$STATE_DIR/volcano-scheduler.conf"
if [ "$IMPL_WEBHOOK" = chart ]; then
  stop scheduler   # the chart's scheduler runs on the real node
elif ! alive scheduler; then
  start scheduler "$VOLCANO_BIN/vc-scheduler" --kubeconfig="$STATE_DIR/volcano-scheduler.kubeconfig" \
    --scheduler-conf="$STATE_DIR/volcano-scheduler.conf" --scheduler-name=volcano \
    --leader-elect=false --schedule-period=1s \
    --enable-healthz=true --healthz-address=127.0.0.1:$SCHEDULER_HEALTHZ_PORT \
    --listen-address=127.0.0.1:$SCHEDULER_METRICS_PORT --logtostderr -v=3
fi
if [ "$IMPL_WEBHOOK" != chart ]; then
  wait_until "queues root and default (created by the scheduler)" 120 \
    kubectl_ get queue root default
fi

# ---------------------------------------------------------------- kwok and nodes
if ! alive kwok; then
  start kwok "$KWOK_BIN/kwok" --kubeconfig="$ADMIN_KUBECONFIG" \
    -c "$cluster_dir/kwok-stages.yaml" --manage-all-nodes=false \
    --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --cidr="$KWOK_POD_CIDR" --node-ip=127.0.0.1
fi
"$cluster_dir/nodes.sh"
# One attempt may have to look at many nodes (a benchmark adds dozens): give it room.
wait_until "all nodes Ready" 120 kubectl_ wait --for=condition=Ready node --all --timeout=30s
log "cluster up: KUBECONFIG=$ADMIN_KUBECONFIG webhook=$IMPL_WEBHOOK controllers=$IMPL_CONTROLLERS"
