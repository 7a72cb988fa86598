#!/usr/bin/env bash
# Registers (apply) or removes (delete) the admission webhook configurations of the local
# cluster: one object per path, with the names, rules, failurePolicy, timeouts and
# namespaceSelector of Volcano's chart, but clientConfig.url pointing at 127.0.0.1 (a Service
# would resolve to a ClusterIP that nothing routes here).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
action=${1:?usage: webhooks.sh apply|delete}

ca_bundle=$(base64 -w0 "$PKI/ca.crt")

# entry KIND PATH WEBHOOK-NAME GROUP VERSION RESOURCE OPERATIONS
entry() {
  local kind=$1 path=$2 hook=$3 group=$4 version=$5 resource=$6 ops=$7
  local name="volcano-admission-service${path//\//-}" extra="" nssel="" scope=""
  [ "$kind" = MutatingWebhookConfiguration ] && extra="    reinvocationPolicy: Never"
  if [ "$resource" = hypernodes ]; then
    side=None
  else
    side=NoneOnDryRun
    scope="        scope: '*'"
    nssel="    objectSelector: {}
    namespaceSelector:
      matchExpressions:
      - {key: kubernetes.io/metadata.name, operator: NotIn, values: [volcano-system, kube-system]}"
  fi
  cat <<YAML
---
apiVersion: admissionregistration.k8s.io/v1
kind: $kind
metadata:
  name: $name
webhooks:
  - name: $hook
    admissionReviewVersions: [v1]
    clientConfig:
      url: $WEBHOOK_URL$path
      caBundle: $ca_bundle
    failurePolicy: Fail
    matchPolicy: Equivalent
    timeoutSeconds: 10
    sideEffects: $side
$extra
$nssel
    rules:
      - apiGroups: ["$group"]
        apiVersions: [$version]
        operations: [$ops]
        resources: [$resource]
$scope
YAML
}

render() {
  local M=MutatingWebhookConfiguration V=ValidatingWebhookConfiguration
  entry $M /pods/mutate       mutatepod.volcano.sh           ""                    v1       pods       CREATE
  entry $M /queues/mutate     mutatequeue.volcano.sh         scheduling.volcano.sh v1beta1  queues     CREATE
  entry $M /podgroups/mutate  mutatepodgroup.volcano.sh      scheduling.volcano.sh v1beta1  podgroups  CREATE
  entry $M /jobs/mutate       mutatejob.volcano.sh           batch.volcano.sh      v1alpha1 jobs       CREATE
  entry $V /jobs/validate     validatejob.volcano.sh         batch.volcano.sh      v1alpha1 jobs       "CREATE, UPDATE"
  # Helm reuses the job webhook name for jobflows.
  entry $V /jobflows/validate validatejob.volcano.sh         flow.volcano.sh       v1alpha1 jobflows   "CREATE, UPDATE"
  entry $V /pods/validate     validatepod.volcano.sh         ""                    v1       pods       CREATE
  entry $V /queues/validate   validatequeue.volcano.sh       scheduling.volcano.sh v1beta1  queues     "CREATE, UPDATE, DELETE"
  entry $V /podgroups/validate validatepodgroup.volcano.sh   scheduling.volcano.sh v1beta1  podgroups  CREATE
  entry $V /hypernodes/validate validatehypernodes.volcano.sh topology.volcano.sh  v1alpha1 hypernodes "CREATE, UPDATE"
  entry $V /cronjobs/validate validatecronjob.volcano.sh     batch.volcano.sh      v1alpha1 cronjobs   "CREATE, UPDATE"
}

render > "$STATE_DIR/webhooks.yaml"
case $action in
  apply) kubectl_ apply -f "$STATE_DIR/webhooks.yaml" >/dev/null
         log "webhook configurations registered at $WEBHOOK_URL" ;;
  delete) kubectl_ delete --ignore-not-found -f "$STATE_DIR/webhooks.yaml" >/dev/null
          log "webhook configurations removed" ;;
  *) die "unknown action $action" ;;
esac
