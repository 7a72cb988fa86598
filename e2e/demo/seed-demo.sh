#!/usr/bin/env bash
# The seed scenario, played on the local cluster (`make up` runs it after bringing the cluster up
# with our webhook and controller-manager):
#
#   two Ray-style Volcano Jobs, each a head and two workers (minAvailable 3: useless unless all
#   three run), in queue ray-batch, on two dedicated fake nodes with room for four such pods.
#
# Placed pod by pod, each job could get two pods and both would wait forever. With each Job
# turned into a PodGroup of minMember 3, the scheduler admits one gang whole; it runs and
# finishes (kwok completes its pods after DEMO_RUN_SECONDS), then the other gang runs.
#
# Prints a timeline of each job's phase, its PodGroup's phase and its pod counts, one line per
# change, until both jobs are Completed (exit 0) or DEMO_TIMEOUT seconds pass (exit 1). While one
# gang runs and the other waits, it asks `vc-cpp explain` (docs/explain.md) once where the waiting
# one stopped and prints the answer.
# Re-running replaces the demo's objects. Environment: DEMO_NAMESPACE (vc-demo),
# DEMO_RUN_SECONDS (10), DEMO_TIMEOUT (240).
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"

ns=${DEMO_NAMESPACE:-vc-demo}
run_for=${DEMO_RUN_SECONDS:-10}
timeout=${DEMO_TIMEOUT:-240}
pool=vc-demo-pool
jobs=(ray-a ray-b)

[ -f "$ADMIN_KUBECONFIG" ] || die "no cluster: run e2e/cluster/up.sh first"

log "preparing namespace $ns, queue ray-batch and two dedicated nodes (2 CPU each)"
kubectl_ delete namespace "$ns" --ignore-not-found --wait=true >/dev/null
kubectl_ create namespace "$ns" >/dev/null
for i in 0 1; do
  kubectl_ apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Node
metadata:
  name: $pool-$i
  annotations: {node.alpha.kubernetes.io/ttl: "0", kwok.x-k8s.io/node: fake}
  labels: {type: kwok, kubernetes.io/hostname: $pool-$i, vc-demo/pool: "true"}
spec:
  taints: [{key: vc-demo/pool, value: "true", effect: NoSchedule}]
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "110"}
  allocatable: {cpu: "2", memory: 8Gi, pods: "110"}
  nodeInfo: {architecture: amd64, operatingSystem: linux, kubeletVersion: fake, kubeProxyVersion: fake}
YAML
done
if ! kubectl_ get queue ray-batch >/dev/null 2>&1; then
  kubectl_ apply -f - >/dev/null <<YAML
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: ray-batch}
spec: {weight: 1, reclaimable: false}
YAML
fi

task() {  # task NAME REPLICAS
  cat <<YAML
  - name: $1
    replicas: $2
    template:
      metadata:
        annotations: {harness.kwok.io/succeed-after: "${run_for}s"}
      spec:
        restartPolicy: Never
        nodeSelector: {vc-demo/pool: "true"}
        tolerations: [{key: vc-demo/pool, operator: Equal, value: "true", effect: NoSchedule}]
        containers:
        - name: $1
          image: rayproject/ray:2.9.0
          resources: {requests: {cpu: "1", memory: 256Mi}}
YAML
}
for job in "${jobs[@]}"; do
  kubectl_ apply -f - >/dev/null <<YAML
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: $job, namespace: $ns}
spec:
  schedulerName: volcano
  queue: ray-batch
  minAvailable: 3
  plugins: {ray: []}
  tasks:
$(task head 1)
$(task worker 2)
YAML
done
log "submitted ${jobs[*]}: 6 one-CPU pods wanted, 4 CPUs available"

# One line per change: "+SECONDS  job: phase=... podgroup=... pods running/succeeded/other".
fmt='{{range .items}}{{.metadata.name}} {{.status.state.phase}}{{"\n"}}{{end}}'
pg_fmt='{{range .items}}{{range .metadata.ownerReferences}}{{.name}}{{end}} {{.status.phase}}{{"\n"}}{{end}}'
pod_fmt='{{range .items}}{{index .metadata.annotations "volcano.sh/job-name"}} {{.status.phase}}{{"\n"}}{{end}}'
start=$(date +%s)
last=""
explained=false
explain_bin=$BUILD_DIR/controllers/vc-cpp
printf '%6s %-6s %-11s %-10s %s\n' TIME JOB PHASE PODGROUP "PODS (running/succeeded/other)"
while :; do
  now=$(( $(date +%s) - start ))
  phases=$(kubectl_ get vcjob -n "$ns" -o go-template="$fmt" 2>/dev/null || true)
  pgs=$(kubectl_ get podgroup -n "$ns" -o go-template="$pg_fmt" 2>/dev/null || true)
  pods=$(kubectl_ get pods -n "$ns" -o go-template="$pod_fmt" 2>/dev/null || true)
  lines=""
  done_jobs=0
  for job in "${jobs[@]}"; do
    phase=$(awk -v j="$job" '$1==j {print $2}' <<<"$phases")
    pg=$(awk -v j="$job" '$1==j {print $2}' <<<"$pgs")
    counts=$(awk -v j="$job" '$1==j {if ($2=="Running") r++; else if ($2=="Succeeded") s++; else o++}
                              END {printf "%d/%d/%d", r, s, o}' <<<"$pods")
    lines+=$(printf '%-6s %-11s %-10s %s' "$job" "${phase:--}" "${pg:-(none)}" "$counts")$'\n'
    [ "$phase" = Completed ] && done_jobs=$((done_jobs + 1))
  done
  if [ "$lines" != "$last" ]; then
    while IFS= read -r l; do [ -n "$l" ] && printf '%6s %s\n' "+${now}s" "$l"; done <<<"$lines"
    echo
    last=$lines
  fi
  # One gang running whole (3 pods), the other with none running: ask where that one stopped.
  waiting=$(awk '$4 ~ /^3\// {full=1} $4 ~ /^0\/0\// {w=$1} END {if (full && w != "") print w}' <<<"$lines")
  if ! $explained && [ -n "$waiting" ] && [ -x "$explain_bin" ]; then
    explained=true
    log "$waiting waits; vc-cpp explain $ns/$waiting says:"
    "$explain_bin" explain "$ns/$waiting" --kubeconfig="$ADMIN_KUBECONFIG" | sed 's/^/    /' || true
    echo
  fi
  if [ "$done_jobs" -eq "${#jobs[@]}" ]; then
    log "both gangs completed, one after the other, in ${now}s"
    log "inspect: kubectl --kubeconfig=$ADMIN_KUBECONFIG -n $ns get vcjob,podgroup,pods"
    exit 0
  fi
  if [ "$now" -ge "$timeout" ]; then
    log "timeout after ${timeout}s; current state:"
    kubectl_ get vcjob,podgroup,pods -n "$ns" -o wide >&2 || true
    exit 1
  fi
  sleep 1
done
