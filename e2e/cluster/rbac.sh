#!/usr/bin/env bash
# Creates the identities the Volcano components run under, so none of them runs as admin:
# ServiceAccounts volcano-admission, volcano-controllers and volcano-scheduler in volcano-system
# with the ClusterRoles of Volcano's development manifest (taken from the Go module, not
# committed), and a token kubeconfig for each in $STATE_DIR.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

export GOTOOLCHAIN=local GOFLAGS=-mod=mod
vdir=$(cd "$cluster_dir/volcano" && go list -m -f '{{.Dir}}' volcano.sh/volcano)
kubectl_ create --dry-run=client -o json -f "$vdir/installer/volcano-development.yaml" \
  | jq -s '{apiVersion: "v1", kind: "List", items: [.[]
          | if .kind == "List" then .items[] else . end
          | select(.kind | IN("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role",
                              "RoleBinding", "ConfigMap"))]}' \
  | kubectl_ apply --server-side --force-conflicts -f - >/dev/null

# Our controller-manager runs under the ServiceAccount and least-privilege ClusterRole of
# manifests/controllers, renamed vc-cpp-controllers so that Volcano's own controller identity
# (same names in its manifest) stays intact for IMPL_CONTROLLERS=reference. Every e2e run with
# IMPL_CONTROLLERS=ours therefore checks that role: a missing verb shows up as a failed test.
kubectl_ kustomize "$repo/manifests/controllers" \
  | kubectl_ create --dry-run=client -o json -f - \
  | jq -s '{apiVersion: "v1", kind: "List", items: [.[]
          | if .kind == "List" then .items[] else . end
          | select(.kind | IN("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role",
                              "RoleBinding"))
          | .metadata.name |= sub("^volcano-controllers"; "vc-cpp-controllers")
          | if .roleRef then .roleRef.name |= sub("^volcano-controllers"; "vc-cpp-controllers")
            else . end
          | if .subjects then .subjects |= map(.name |= sub("^volcano-controllers";
                                                              "vc-cpp-controllers"))
            else . end]}' \
  | kubectl_ apply --server-side --force-conflicts -f - >/dev/null

for sa in volcano-admission volcano-controllers volcano-scheduler vc-cpp-controllers; do
  f=$STATE_DIR/$sa.kubeconfig
  [ -f "$f" ] && continue
  token=$(kubectl_ -n volcano-system create token "$sa" --duration=8760h)
  k=("$K8S_BIN/kubectl" config --kubeconfig="$f")
  "${k[@]}" set-cluster local --server=https://127.0.0.1:$APISERVER_PORT \
    --certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null
  "${k[@]}" set-credentials "$sa" --token="$token" >/dev/null
  "${k[@]}" set-context local --cluster=local --user="$sa" --namespace=volcano-system >/dev/null
  "${k[@]}" use-context local >/dev/null
  chmod 600 "$f"
done
log "RBAC and ServiceAccount kubeconfigs ready"
