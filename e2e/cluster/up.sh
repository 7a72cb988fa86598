#!/usr/bin/env bash
# Brings the local control plane up (idempotent): etcd, kube-apiserver, kube-controller-manager,
# Volcano CRDs and RBAC, the admission webhook and controller-manager chosen by IMPL_WEBHOOK /
# IMPL_CONTROLLERS (ours | reference | none), the Volcano scheduler, and kwok with fake nodes.
# Components already running with the requested implementation are left alone.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

for impl in "$IMPL_WEBHOOK" "$IMPL_CONTROLLERS"; do
  case $impl in ours|reference|none) ;; *) die "IMPL must be ours, reference or none (got '$impl')";; esac
done

"$cluster_dir/build-binaries.sh" k8s etcd kwok volcano
mkdir -p "$STATE_DIR" "$LOGS" "$PIDS"
"$repo/certs/gen-certs.sh" "$PKI"

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

if ! alive kube-apiserver; then
  start kube-apiserver "$K8S_BIN/kube-apiserver" \
    --etcd-servers=http://127.0.0.1:$ETCD_PORT \
    --bind-address=127.0.0.1 --secure-port=$APISERVER_PORT --advertise-address=127.0.0.1 \
    --endpoint-reconciler-type=none --service-cluster-ip-range=10.96.0.0/16 \
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

# kubeconfig FILE CREDENTIAL-ARGS...: a kubeconfig for the local cluster with embedded CA.
kubeconfig() {
  local f=$1; shift
  local k=("$K8S_BIN/kubectl" config --kubeconfig="$f")
  "${k[@]}" set-cluster local --server=https://127.0.0.1:$APISERVER_PORT \
    --certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null
  "${k[@]}" set-credentials user "$@" >/dev/null
  "${k[@]}" set-context local --cluster=local --user=user >/dev/null
  "${k[@]}" use-context local >/dev/null
}
[ -f "$ADMIN_KUBECONFIG" ] || kubeconfig "$ADMIN_KUBECONFIG" \
  --client-certificate="$PKI/admin.crt" --client-key="$PKI/admin.key" --embed-certs=true

if ! alive kube-controller-manager; then
  start kube-controller-manager "$K8S_BIN/kube-controller-manager" \
    --kubeconfig="$ADMIN_KUBECONFIG" --bind-address=127.0.0.1 --secure-port=$KCM_PORT \
    --leader-elect=false \
    --controllers=garbage-collector-controller,namespace-controller,serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller,pod-garbage-collector-controller,resourcequota-controller,deployment-controller,replicaset-controller,statefulset-controller,job-controller,disruption-controller \
    --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" --v=1
fi
wait_until "the default ServiceAccount" 120 kubectl_ -n default get serviceaccount default

# ---------------------------------------------------------------- CRDs, namespace, identities
"$cluster_dir/crds.sh"
kubectl_ get namespace volcano-system >/dev/null 2>&1 || kubectl_ create namespace volcano-system
"$cluster_dir/rbac.sh"

# ---------------------------------------------------------------- admission webhook
webhook_running_impl=$(cat "$STATE_DIR/impl-webhook" 2>/dev/null || echo none)
if [ "$webhook_running_impl" != "$IMPL_WEBHOOK" ] || { [ "$IMPL_WEBHOOK" != none ] && ! alive webhook; }; then
  stop webhook
  case $IMPL_WEBHOOK in
    reference) wh_bin=$VOLCANO_BIN/vc-webhook-manager ;;
    ours) wh_bin=$BUILD_DIR/webhook/vc-webhook-manager
          [ -x "$wh_bin" ] || die "IMPL_WEBHOOK=ours but $wh_bin is not built (run make build)" ;;
    none) wh_bin= ;;
  esac
  if [ -n "$wh_bin" ]; then
    # Volcano's webhook-manager waits for its configurations to exist before it listens (it only
    # patches their caBundle), so they are registered first.
    "$cluster_dir/webhooks.sh" apply
    start webhook "$wh_bin" --kubeconfig="$STATE_DIR/volcano-admission.kubeconfig" \
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
else
  # Any HTTP answer over TLS verified against the cluster CA means the server is up.
  "$cluster_dir/webhooks.sh" apply
  wait_until "the webhook to serve TLS" 60 \
    curl -sS -o /dev/null --max-time 2 --cacert "$PKI/ca.crt" "$WEBHOOK_URL/healthz"
fi

# ---------------------------------------------------------------- controller-manager
controllers_running_impl=$(cat "$STATE_DIR/impl-controllers" 2>/dev/null || echo none)
if [ "$controllers_running_impl" != "$IMPL_CONTROLLERS" ] || { [ "$IMPL_CONTROLLERS" != none ] && ! alive controllers; }; then
  stop controllers
  # Each implementation runs under its own manifest's identity: Volcano's ClusterRole for the
  # reference, ours (manifests/controllers, see rbac.sh) for ours.
  case $IMPL_CONTROLLERS in
    reference) cm_bin=$VOLCANO_BIN/vc-controller-manager cm_identity=volcano-controllers ;;
    ours) cm_bin=$BUILD_DIR/controllers/vc-controller-manager cm_identity=vc-cpp-controllers
          [ -x "$cm_bin" ] || die "IMPL_CONTROLLERS=ours but $cm_bin is not built (run make build)" ;;
    none) cm_bin= ;;
  esac
  if [ -n "$cm_bin" ]; then
    start controllers "$cm_bin" --kubeconfig="$STATE_DIR/$cm_identity.kubeconfig" \
      --scheduler-name=volcano --leader-elect=false --worker-threads=3 \
      --enable-healthz=true --healthz-address=127.0.0.1:$CONTROLLERS_HEALTHZ_PORT \
      --enable-metrics=true --listen-address=127.0.0.1:$CONTROLLERS_METRICS_PORT --logtostderr -v=3
  fi
  echo "$IMPL_CONTROLLERS" > "$STATE_DIR/impl-controllers"
fi
if [ "$IMPL_CONTROLLERS" != none ]; then
  wait_until "the controller-manager healthz" 60 \
    curl -fsS "http://127.0.0.1:$CONTROLLERS_HEALTHZ_PORT/healthz"
fi

# ---------------------------------------------------------------- scheduler
cp "$cluster_dir/scheduler.conf" "$STATE_DIR/volcano-scheduler.conf"
if ! alive scheduler; then
  start scheduler "$VOLCANO_BIN/vc-scheduler" --kubeconfig="$STATE_DIR/volcano-scheduler.kubeconfig" \
    --scheduler-conf="$STATE_DIR/volcano-scheduler.conf" --scheduler-name=volcano \
    --leader-elect=false --schedule-period=1s \
    --enable-healthz=true --healthz-address=127.0.0.1:$SCHEDULER_HEALTHZ_PORT \
    --listen-address=127.0.0.1:$SCHEDULER_METRICS_PORT --logtostderr -v=3
fi
wait_until "queues root and default (created by the scheduler)" 120 \
  kubectl_ get queue root default

# ---------------------------------------------------------------- kwok and nodes
if ! alive kwok; then
  start kwok "$KWOK_BIN/kwok" --kubeconfig="$ADMIN_KUBECONFIG" \
    -c "$cluster_dir/kwok-stages.yaml" --manage-all-nodes=true \
    --cidr=10.244.0.0/16 --node-ip=127.0.0.1
fi
"$cluster_dir/nodes.sh"
wait_until "all nodes Ready" 120 kubectl_ wait --for=condition=Ready node --all --timeout=2s
log "cluster up: KUBECONFIG=$ADMIN_KUBECONFIG webhook=$IMPL_WEBHOOK controllers=$IMPL_CONTROLLERS"
