#!/usr/bin/env bash
# The lagging-cache mode's proxy (e2e/tests/cmd/lagproxy): starts it in front of the API server with
# every watch stream held back by up to $CONTROLLER_WATCH_LAG (each stream its own draw between a
# tenth of it and all of it, so that streams also lag each other; the proxy's log has the draws
# and the seed, which $CONTROLLER_WATCH_LAG_SEED replays), writes a kubeconfig for IDENTITY (one
# of rbac.sh's token kubeconfigs) that reaches the API server through it, and prints that
# kubeconfig's path. up.sh calls it for the process-mode controller-manager.
#
# Usage: lagproxy.sh IDENTITY
set -euo pipefail
source "$(dirname "$0")/lib.sh"

identity=${1:?usage: lagproxy.sh IDENTITY}
[ -n "$CONTROLLER_WATCH_LAG" ] || die "lagproxy.sh: CONTROLLER_WATCH_LAG is not set"
src=$repo/e2e/tests
# Built once per source version, outside the repository (as the control plane's binaries).
hash=$(cat "$src/go.mod" "$src/go.sum" "$src"/cmd/lagproxy/*.go | sha256sum | cut -c1-16)
bin=$VC_CACHE/bin/lagproxy-$hash/lagproxy
if [ ! -x "$bin" ]; then
  mkdir -p "$(dirname "$bin")"
  (cd "$src" && GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0 go build -o "$bin.tmp" ./cmd/lagproxy) >&2
  mv "$bin.tmp" "$bin"
fi

stop lagproxy >&2
start lagproxy "$bin" --listen=127.0.0.1:$LAG_PROXY_PORT \
  --upstream=https://$APISERVER_HOST:$APISERVER_PORT --ca="$PKI/ca.crt" \
  --tls-cert="$PKI/apiserver.crt" --tls-key="$PKI/apiserver.key" \
  --watch-delay="$CONTROLLER_WATCH_LAG" --watch-delay-spread="${CONTROLLER_WATCH_LAG_SPREAD:-0.9}" \
  --seed="${CONTROLLER_WATCH_LAG_SEED:-0}" >&2
# Any answer from the API server through it (401 without a token) shows it forwards.
wait_until "the lag proxy to forward" 30 \
  curl -sS -o /dev/null --max-time 2 --cacert "$PKI/ca.crt" "https://127.0.0.1:$LAG_PROXY_PORT/readyz" >&2

token=$("$K8S_BIN/kubectl" config view --raw --kubeconfig="$STATE_DIR/$identity.kubeconfig" \
  -o jsonpath='{.users[0].user.token}')
[ -n "$token" ] || die "no token in $STATE_DIR/$identity.kubeconfig"
f=$STATE_DIR/$identity-lagged.kubeconfig
rm -f "$f"
k=("$K8S_BIN/kubectl" config --kubeconfig="$f")
# The proxy serves the API server's own certificate (valid for 127.0.0.1): the same CA verifies it.
"${k[@]}" set-cluster local --server=https://127.0.0.1:$LAG_PROXY_PORT \
  --certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null
"${k[@]}" set-credentials "$identity" --token="$token" >/dev/null
"${k[@]}" set-context local --cluster=local --user="$identity" --namespace=volcano-system >/dev/null
"${k[@]}" use-context local >/dev/null
chmod 600 "$f"
log "controller-manager of $identity reaches the API server through the lag proxy (watches $CONTROLLER_WATCH_LAG late)"
echo "$f"
