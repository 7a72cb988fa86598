#!/usr/bin/env bash
# Generates the PKI of the local test cluster and of the webhook, with OpenSSL.
#
#   gen-certs.sh DIR            cluster CA, apiserver serving cert, service-account signing keys,
#                               admin client cert, webhook serving cert (skips files that exist)
#   gen-certs.sh DIR webhook    (re)issue only the webhook serving cert from the existing CA,
#                               e.g. to rotate it; the new pair replaces the old atomically
#
# Environment: WEBHOOK_SERVICE (volcano-admission-service), WEBHOOK_NAMESPACE (volcano-system),
# CERT_DAYS (3650).
set -euo pipefail

dir=${1:?usage: gen-certs.sh DIR [webhook]}
only=${2:-all}
days=${CERT_DAYS:-3650}
svc=${WEBHOOK_SERVICE:-volcano-admission-service}
ns=${WEBHOOK_NAMESPACE:-volcano-system}
mkdir -p "$dir"
cd "$dir"
umask 077

ca() {
  [ -f ca.crt ] && return 0
  openssl req -x509 -new -nodes -newkey rsa:2048 -sha256 -days "$days" \
    -keyout ca.key -out ca.crt -subj "/CN=vc-cpp-local-ca" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" 2>/dev/null
}

# leaf NAME SUBJECT EXTENDED_KEY_USAGE [SUBJECT_ALT_NAMES]: key and cert signed by the CA.
# Written to temporary names first and renamed, so a reader never sees a half-written pair.
leaf() {
  local name=$1 subj=$2 eku=$3 san=${4:-} tmp
  tmp=$(mktemp -d "./.$name.XXXX")
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$eku"
    [ -n "$san" ] && echo "subjectAltName=$san"
  } > "$tmp/ext"
  openssl req -new -nodes -newkey rsa:2048 -keyout "$tmp/key" -subj "$subj" -out "$tmp/csr" 2>/dev/null
  openssl x509 -req -in "$tmp/csr" -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 \
    -days "$days" -extfile "$tmp/ext" -out "$tmp/crt" 2>/dev/null
  chmod 644 "$tmp/crt"
  mv "$tmp/key" "$name.key"
  mv "$tmp/crt" "$name.crt"
  rm -rf "$tmp"
}

webhook() {
  leaf webhook "/CN=$svc.$ns.svc" serverAuth \
    "IP:127.0.0.1,DNS:localhost,DNS:$svc,DNS:$svc.$ns,DNS:$svc.$ns.svc,DNS:$svc.$ns.svc.cluster.local"
}

ca
if [ "$only" = webhook ]; then
  webhook
  exit 0
fi
[ -f apiserver.crt ] || leaf apiserver "/CN=kube-apiserver" serverAuth \
  "IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
[ -f admin.crt ] || leaf admin "/O=system:masters/CN=kubernetes-admin" clientAuth
[ -f webhook.crt ] || webhook
if [ ! -f sa.key ]; then
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
fi
