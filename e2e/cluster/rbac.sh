#!/usr/bin/env bash
# Creates the identities the Volcano components run under, so none of them runs as admin:
# ServiceAccounts volcano-admission, volcano-controllers and volcano-scheduler in volcano-system
# with the ClusterRoles of Volcano's development manifest (taken from the Go module, not
# committed), and a token kubeconfig for each in $STATE_DIR.
#
# `rbac.sh delete` removes Volcano's objects again (IMPL=chart: the chart creates its own under
# the same names, and Helm does not adopt objects it did not make).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

export GOTOOLCHAIN=local GOFLAGS=-mod=mod
vdir=$(cd "$cluster_dir/volcano" && go list -m -f '{{.Dir}}' volcano.sh/volcano)
# The development manifest is Volcano's chart rendered with its default enabled_admissions, which
# leave out /podgroups/mutate. The test cluster registers that endpoint for both implementations
# (webhooks.sh), so Volcano's webhook gets the rule its chart adds when the endpoint is enabled:
# namespaces get, list, watch (it reads the namespace's default queue).
volcano_identities() {
  kubectl_ create --dry-run=client -o json -f "$vdir/installer/volcano-development.yaml" \
    | jq -s '{apiVersion: "v1", kind: "List", items: [.[]
            | if .kind == "List" then .items[] else . end
            | select(.kind | IN("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role",
                                "RoleBinding", "ConfigMap"))
            | if .kind == "ClusterRole" and .metadata.name == "volcano-admission"
              then .rules += [{apiGroups: [""], resources: ["namespaces"],
                               verbs: ["get", "list", "watch"]}]
              else . end]}'
}
if [ "${1:-}" = delete ]; then
  volcano_identities | kubectl_ delete --ignore-not-found -f - >/dev/null
  rm -f "$STATE_DIR"/volcano-{admission,controllers,scheduler}.kubeconfig
  log "Volcano's ServiceAccounts, roles and ConfigMaps removed"
  exit 0
fi
volcano_identities | kubectl_ apply --server-side --force-conflicts -f - >/dev/null

# Our webhook and controller-manager run under the ServiceAccounts and least-privilege roles we
# ship (manifests/webhook and manifests/controllers, generated from the chart), renamed
# vc-cpp-admission and vc-cpp-controllers so that Volcano's own identities (same names in its
# manifest) stay intact for IMPL=reference. Every e2e run with IMPL=ours therefore checks those
# roles: a missing verb shows up as a failed test, not as a surprise on a user's cluster.
# shipped_identity BASE FROM TO: BASE's ServiceAccounts, roles and bindings, FROM renamed TO.
shipped_identity() {
  kubectl_ kustomize "$repo/manifests/$1" \
    | kubectl_ create --dry-run=client -o json -f - \
    | jq -s --arg from "^$2" --arg to "$3" '{apiVersion: "v1", kind: "List", items: [.[]
            | if .kind == "List" then .items[] else . end
            | select(.kind | IN("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role",
                                "RoleBinding"))
            | .metadata.name |= sub($from; $to)
            | if .roleRef then .roleRef.name |= sub($from; $to) else . end
            | if .subjects then .subjects |= map(.name |= sub($from; $to)) else . end]}' \
    | kubectl_ apply --server-side --force-conflicts -f - >/dev/null
}
shipped_identity webhook volcano-admission vc-cpp-admission
shipped_identity controllers volcano-controllers vc-cpp-controllers

for sa in volcano-admission volcano-controllers volcano-scheduler vc-cpp-admission vc-cpp-controllers; do
  f=$STATE_DIR/$sa.kubeconfig
  [ -f "$f" ] && continue
  token=$(kubectl_ -n volcano-system create token "$sa" --duration=8760h)
  k=("$K8S_BIN/kubectl" config --kubeconfig="$f")
  "${k[@]}" set-cluster local --server=https://$APISERVER_HOST:$APISERVER_PORT \
    --certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null
  "${k[@]}" set-credentials "$sa" --token="$token" >/dev/null
  "${k[@]}" set-context local --cluster=local --user="$sa" --namespace=volcano-system >/dev/null
  "${k[@]}" use-context local >/dev/null
  chmod 600 "$f"
done
log "RBAC and ServiceAccount kubeconfigs ready"
