#!/usr/bin/env bash
# Generates the PKI of the local test cluster and of the webhook, with OpenSSL.
#
#   gen-certs.sh DIR            cluster CA, apiserver serving cert, service-account signing keys,
#                               admin client cert, webhook serving cert, the real node's kubelet,
#                               kube-proxy and kube-scheduler certs (skips files that exist)
#   gen-certs.sh DIR webhook    (re)issue only the webhook serving cert from the existing CA,
#                               e.g. to rotate it; the new pair replaces the old atomically
#   gen-certs.sh DIR secret     print the Secret volcano-admission-secret (tls.crt, tls.key,
#                               ca.crt) as YAML on stdout, for kubectl apply -f -; makes the CA
#                               and the webhook serving cert first if DIR has none. ca.crt is
#                               ca-bundle.crt while a CA rotation is in progress, else ca.crt
#   gen-certs.sh DIR ca-rotate-begin    new CA in ca.next.*; ca-bundle.crt = current + new CA
#   gen-certs.sh DIR ca-rotate-switch   the new CA becomes ca.*, the webhook serving cert is
#                                       re-issued by it; ca-bundle.crt = new + old CA
#   gen-certs.sh DIR ca-rotate-finish   the old CA is dropped; ca-bundle.crt is removed
#
# The three ca-rotate steps are the CA rotation of certs/README.md; publish the Secret (and the
# caBundle) after each. They refuse to run in a DIR that holds the cluster's own PKI
# (apiserver.crt), whose CA also signs the API server and admin certificates.
#
# Environment: WEBHOOK_SERVICE (volcano-admission-service), WEBHOOK_NAMESPACE (volcano-system),
# WEBHOOK_SECRET (volcano-admission-secret), WEBHOOK_SECRET_TYPE (kubernetes.io/tls; Volcano's
# own Secret is Opaque), WEBHOOK_KEY (ecdsa: P-256; or rsa: 2048), CERT_DAYS (3650); for the
# cluster PKI also NODE_NAME (vc-node) and POD_GATEWAY (10.88.0.1).
set -euo pipefail

dir=${1:?usage: gen-certs.sh DIR [webhook|secret|ca-rotate-begin|ca-rotate-switch|ca-rotate-finish]}
only=${2:-all}
days=${CERT_DAYS:-3650}
webhook_key=${WEBHOOK_KEY:-ecdsa}
svc=${WEBHOOK_SERVICE:-volcano-admission-service}
ns=${WEBHOOK_NAMESPACE:-volcano-system}
secret=${WEBHOOK_SECRET:-volcano-admission-secret}
secret_type=${WEBHOOK_SECRET_TYPE:-kubernetes.io/tls}
mkdir -p "$dir"
cd "$dir"
umask 077

die() { echo "gen-certs.sh: $*" >&2; exit 1; }
note() { echo "gen-certs.sh: $*" >&2; }

# new_ca PREFIX CN: a self-signed CA in PREFIX.key and PREFIX.crt, written to temporary names
# first and renamed, so a reader never sees a half-written pair.
new_ca() {
  local prefix=$1 cn=$2 tmp
  tmp=$(mktemp -d "./.$prefix.XXXX")
  openssl req -x509 -new -nodes -newkey rsa:2048 -sha256 -days "$days" \
    -keyout "$tmp/key" -out "$tmp/crt" -subj "/CN=$cn" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" 2>/dev/null
  chmod 644 "$tmp/crt"
  mv "$tmp/key" "$prefix.key"
  mv "$tmp/crt" "$prefix.crt"
  rm -rf "$tmp"
}

ca() {
  [ -f ca.crt ] && return 0
  new_ca ca vc-cpp-local-ca
}

# key_type KEY: sets newkey (openssl req's key options) and usage (keyUsage) for KEY, rsa (2048)
# or ecdsa (P-256); anything else ends the script with an error naming WEBHOOK_KEY, the only
# setting that chooses a key.
key_type() {
  case $1 in
    rsa) newkey=(-newkey rsa:2048) usage=digitalSignature,keyEncipherment ;;
    # keyEncipherment is RSA key transport, which an EC key cannot do.
    ecdsa) newkey=(-newkey ec -pkeyopt ec_paramgen_curve:P-256) usage=digitalSignature ;;
    *) echo "gen-certs.sh: WEBHOOK_KEY must be ecdsa or rsa (got '$1')" >&2; exit 2 ;;
  esac
}
key_type "$webhook_key"  # checked before anything is written

# leaf NAME SUBJECT EXTENDED_KEY_USAGE [SUBJECT_ALT_NAMES] [KEY]: key and cert signed by the CA;
# KEY as key_type takes it (default rsa). Written to temporary names first and renamed, so a
# reader never sees a half-written pair.
leaf() {
  local name=$1 subj=$2 eku=$3 san=${4:-} tmp usage newkey
  key_type "${5:-rsa}"
  tmp=$(mktemp -d "./.$name.XXXX")
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,$usage"
    echo "extendedKeyUsage=$eku"
    [ -n "$san" ] && echo "subjectAltName=$san"
  } > "$tmp/ext"
  openssl req -new -nodes "${newkey[@]}" -keyout "$tmp/key" -subj "$subj" -out "$tmp/csr" 2>/dev/null
  openssl x509 -req -in "$tmp/csr" -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 \
    -days "$days" -extfile "$tmp/ext" -out "$tmp/crt" 2>/dev/null
  chmod 644 "$tmp/crt"
  mv "$tmp/key" "$name.key"
  mv "$tmp/crt" "$name.crt"
  rm -rf "$tmp"
}

# The webhook's key is ECDSA P-256 unless WEBHOOK_KEY=rsa: the API server opens a new connection
# (a TLS handshake) for each concurrent admission call beyond the 25 it keeps idle, and the
# handshake's signature costs the webhook several times less with ECDSA (certs/README.md).
webhook() {
  leaf webhook "/CN=$svc.$ns.svc" serverAuth \
    "IP:127.0.0.1,DNS:localhost,DNS:$svc,DNS:$svc.$ns,DNS:$svc.$ns.svc,DNS:$svc.$ns.svc.cluster.local" \
    "$webhook_key"
}

# bundle FILE...: ca-bundle.crt becomes the concatenation of FILEs (replaced atomically).
bundle() {
  cat "$@" > .ca-bundle.crt.tmp
  chmod 644 .ca-bundle.crt.tmp
  mv .ca-bundle.crt.tmp ca-bundle.crt
}

b64() { openssl base64 -A < "$1"; }

print_secret() {
  local trust=ca.crt
  [ -f ca-bundle.crt ] && trust=ca-bundle.crt
  cat <<YAML
apiVersion: v1
kind: Secret
metadata:
  name: $secret
  namespace: $ns
  labels:
    app.kubernetes.io/part-of: vc-cpp
type: $secret_type
data:
  tls.crt: $(b64 webhook.crt)
  tls.key: $(b64 webhook.key)
  ca.crt: $(b64 "$trust")
YAML
}

not_cluster_pki() {
  [ -f apiserver.crt ] && die "$dir holds the cluster's PKI (apiserver.crt): its CA also signs" \
    "the API server and admin certificates, so it cannot be rotated here; give the webhook a" \
    "directory of its own"
  [ -f ca.crt ] || die "$dir has no CA to rotate"
}

case $only in
  all) ;;
  webhook) ca; webhook; exit 0 ;;
  secret)
    ca
    [ -f webhook.crt ] || webhook
    print_secret
    exit 0 ;;
  ca-rotate-begin)
    not_cluster_pki
    if [ -f ca.next.crt ]; then
      note "a rotation is already in progress (ca.next.crt); keeping that new CA"
    else
      new_ca ca.next "vc-cpp-webhook-ca-$(date -u +%Y%m%d%H%M%S)"
    fi
    bundle ca.crt ca.next.crt
    note "ca-bundle.crt = current + new CA; publish it, then run ca-rotate-switch"
    exit 0 ;;
  ca-rotate-switch)
    not_cluster_pki
    if [ ! -f ca.next.crt ]; then
      [ -f ca.old.crt ] || die "no rotation in progress: run ca-rotate-begin first"
      note "already switched (ca.old.crt exists); next: ca-rotate-finish"
      exit 0
    fi
    # The old CA's key signs nothing any more; only its certificate stays, in the bundle.
    mv ca.crt ca.old.crt
    rm -f ca.key
    mv ca.next.key ca.key
    mv ca.next.crt ca.crt
    webhook
    bundle ca.crt ca.old.crt
    note "serving cert re-issued by the new CA; publish the Secret, then run ca-rotate-finish"
    exit 0 ;;
  ca-rotate-finish)
    not_cluster_pki
    [ -f ca.next.crt ] && die "the new CA is not in use yet: run ca-rotate-switch first"
    rm -f ca.old.crt ca-bundle.crt
    note "old CA dropped; ca.crt alone is the trust bundle; publish the Secret"
    exit 0 ;;
  *) die "unknown mode '$only'" ;;
esac

ca
# The API server is reached on loopback (127.0.0.2 by the local cluster's clients), through the `kubernetes` Service's ClusterIP, and by pods
# of the real node at its address on the pod bridge (POD_GATEWAY).
[ -f apiserver.crt ] || leaf apiserver "/CN=kube-apiserver" serverAuth \
  "IP:127.0.0.1,IP:127.0.0.2,IP:10.96.0.1,IP:${POD_GATEWAY:-10.88.0.1},DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
[ -f admin.crt ] || leaf admin "/O=system:masters/CN=kubernetes-admin" clientAuth
# The real node's kubelet (its client identity, which the Node authorizer and NodeRestriction
# check, and its serving certificate), kube-proxy and kube-scheduler, each under the user name
# Kubernetes' built-in RBAC bindings expect.
node=${NODE_NAME:-vc-node}
[ -f kubelet-client.crt ] || leaf kubelet-client "/O=system:nodes/CN=system:node:$node" clientAuth
[ -f kubelet.crt ] || leaf kubelet "/CN=$node" serverAuth "IP:${POD_GATEWAY:-10.88.0.1},IP:127.0.0.1,DNS:$node"
[ -f kube-proxy.crt ] || leaf kube-proxy "/CN=system:kube-proxy" clientAuth
[ -f kube-scheduler.crt ] || leaf kube-scheduler "/CN=system:kube-scheduler" clientAuth
[ -f webhook.crt ] || webhook
if [ ! -f sa.key ]; then
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
fi
