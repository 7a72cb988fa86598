# The cluster's work per job (sourced by run.sh after common.sh): which requests each
# controller-manager made of the API server, by verb and resource, the watches it opened and the
# bytes it moved.
#
# The API server's metrics cannot say who asked (apiserver_request_total has no user label), and
# the two implementations' client metrics differ, so the count comes from the API server's audit
# log: each implementation runs under a benchmark ServiceAccount of its own (vc-cpp-bench-ours,
# vc-cpp-bench-reference, bound to the same roles as its cluster identity), and e2e/cluster/up.sh
# audits every request of those two users at level Metadata (one line per request; nobody else
# uses them, so no other test pays for it). The bytes are the kernel's TCP counters of the
# process's connections to the API server (ss: bytes_acked, bytes_received; the TLS records),
# snapshot at both ends of the window: /proc/PID/io would not do, since it counts write() and
# read() but not sendmsg() and recvmsg(), which is what Asio uses.

# bench_sa IMPL: the benchmark ServiceAccount IMPL runs under.
bench_sa() { echo "vc-cpp-bench-$1"; }
bench_user() { echo "system:serviceaccount:$VC_NAMESPACE:$(bench_sa "$1")"; }
bench_kubeconfig() { echo "$STATE_DIR/bench/$(bench_sa "$1").kubeconfig"; }

# bench_identities_create: for each implementation, its benchmark ServiceAccount, a copy of every
# ClusterRoleBinding and RoleBinding of its cluster identity with the ServiceAccount as subject,
# and a token kubeconfig.
bench_identities_create() {
  local impl sa id f token k
  for impl in $IMPLS; do
    sa=$(bench_sa "$impl")
    id=$(identity_of "$impl")
    kubectl_ -n "$VC_NAMESPACE" create serviceaccount "$sa" --dry-run=client -o yaml |
      kubectl_ apply -f - >/dev/null || die "could not create ServiceAccount $sa"
    { kubectl_ get clusterrolebindings -o json; kubectl_ get rolebindings -A -o json; } |
      jq -s --arg id "$id" --arg sa "$sa" --arg ns "$VC_NAMESPACE" '{apiVersion: "v1", kind: "List",
        items: [.[].items[] | select(any(.subjects[]?; .kind == "ServiceAccount" and .name == $id
                                                    and .namespace == $ns))
          | {apiVersion, kind, roleRef,
             metadata: ({name: ("vc-cpp-bench-" + .metadata.name), labels: {"vc-cpp.local/bench": "controller"}}
                        + (if .metadata.namespace then {namespace: .metadata.namespace} else {} end)),
             subjects: [{kind: "ServiceAccount", name: $sa, namespace: $ns}]}]}' |
      kubectl_ apply -f - >/dev/null || die "could not bind $sa to the roles of $id"
    f=$(bench_kubeconfig "$impl")
    token=$(kubectl_ -n "$VC_NAMESPACE" create token "$sa" --duration=24h) ||
      die "could not create a token for $sa"
    k=("$K8S_BIN/kubectl" config --kubeconfig="$f")
    "${k[@]}" set-cluster local --server="https://$APISERVER_HOST:$APISERVER_PORT" \
      --certificate-authority="$PKI/ca.crt" --embed-certs=true >/dev/null
    "${k[@]}" set-credentials "$sa" --token="$token" >/dev/null
    "${k[@]}" set-context local --cluster=local --user="$sa" --namespace="$VC_NAMESPACE" >/dev/null
    "${k[@]}" use-context local >/dev/null
    chmod 600 "$f"
  done
  # An API server started before up.sh audited these users would count nothing.
  grep -q "$(bench_sa ours)" "$STATE_DIR/audit-policy.yaml" 2>/dev/null ||
    log "warning: the API server's audit policy does not name the benchmark identities: restart" \
        "the cluster (make cluster-down cluster-up) to count API requests"
}
bench_identities_delete() {
  local impl
  kubectl_ delete clusterrolebindings,rolebindings -A -l vc-cpp.local/bench=controller \
    --ignore-not-found >/dev/null 2>&1 || true
  for impl in ours reference; do
    kubectl_ -n "$VC_NAMESPACE" delete serviceaccount "$(bench_sa "$impl")" --ignore-not-found >/dev/null 2>&1 || true
    rm -f "$(bench_kubeconfig "$impl")"
  done
}

# audit_now: now as the audit log writes its timestamps (UTC, microseconds), so that they
# compare as strings.
audit_now() { date -u +%Y-%m-%dT%H:%M:%S.%6NZ; }

# socket_bytes PID: "LOCAL_ADDRESS BYTES_SENT BYTES_RECEIVED" for each of PID's TCP connections
# to the API server (bytes_acked: what the server took).
socket_bytes() {
  ss -tinpH state connected "( dport = :$APISERVER_PORT )" 2>/dev/null |
    awk -v pid="pid=$1," '
      /^[^ \t]/ { mine = index($0, pid) > 0; local = $4; next }
      mine {
        sent = 0; received = 0
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^bytes_acked:/) sent = substr($i, 13)
          if ($i ~ /^bytes_received:/) received = substr($i, 16)
        }
        print local, sent, received
        mine = 0
      }'
}
# bytes_between BEFORE AFTER: {sent, received, closed} over two socket_bytes snapshots (files):
# a connection in both counts its growth, one only in AFTER all of it; `closed` counts those
# only in BEFORE (their bytes after the first snapshot are lost).
bytes_between() {
  awk 'NR == FNR { s0[$1] = $2; r0[$1] = $3; next }
       { sent += $2 - ($1 in s0 ? s0[$1] : 0); received += $3 - ($1 in r0 ? r0[$1] : 0); seen[$1] = 1 }
       END { for (k in s0) if (!(k in seen)) closed++
             printf "{\"sent\": %d, \"received\": %d, \"closed\": %d}\n", sent, received, closed }' "$1" "$2"
}

# audited_lines IMPL: how many audit lines IMPL's user has so far.
audited_lines() { grep -c -F "\"$(bench_user "$1")\"" "$AUDIT_LOG" 2>/dev/null || true; }
# wait_api_quiet IMPL: the requests that follow the measured condition (the last status writes)
# belong to the jobs too: wait until IMPL's user has made no request for 3 s (at most 60 s).
wait_api_quiet() {
  local n prev=-1 quiet=0 i
  for i in $(seq 120); do
    n=$(audited_lines "$1")
    if [ "$n" = "$prev" ]; then quiet=$((quiet + 1)); else quiet=0; fi
    [ "$quiet" -ge 6 ] && return 0
    prev=$n
    sleep 0.5
  done
  log "warning: $1's controller-manager still made requests 60 s after the measurement ($n audit lines)"
}

# api_work_json IMPL STARTED T0 T1 BYTES0 BYTES1: IMPL's requests received from T0 to T1 by
# "verb resource[/subresource]", their sum per verb class, the watches opened since the process
# STARTED until T1 (start-up included: they are held for its whole life), and the bytes between
# the two socket_bytes snapshots (files).
api_work_json() {
  local user bytes
  user=$(bench_user "$1")
  bytes=$(bytes_between "$5" "$6")
  { grep -F "\"$user\"" "$AUDIT_LOG" 2>/dev/null || true; } |
    jq -c --arg user "$user" 'select(.user.username == $user and (.stage == "ResponseComplete" or .stage == "ResponseStarted"))
          | {stage, verb, at: .requestReceivedTimestamp,
             what: ((.objectRef.resource // .requestURI) + (if .objectRef.subresource then "/" + .objectRef.subresource else "" end))}' |
    jq -s --arg started "$2" --arg t0 "$3" --arg t1 "$4" --argjson bytes "$bytes" '
      (map(select(.stage == "ResponseComplete" and .verb != "watch" and .at >= $t0 and .at <= $t1))) as $in
      | {api_requests: ($in | group_by(.verb + " " + .what) | map({key: (.[0].verb + " " + .[0].what), value: length}) | from_entries),
         api_writes: ($in | map(select(.verb | IN("create", "update", "patch", "delete", "deletecollection"))) | length),
         api_reads: ($in | map(select(.verb | IN("get", "list"))) | length),
         api_watches: (map(select(.verb == "watch" and .stage == "ResponseStarted" and .at >= $started and .at <= $t1)) | length),
         api_watches_in_window: (map(select(.verb == "watch" and .stage == "ResponseStarted" and .at >= $t0 and .at <= $t1)) | length),
         api_received_mib: ($bytes.received / 1048576 * 100 | round / 100),
         api_sent_mib: ($bytes.sent / 1048576 * 100 | round / 100),
         api_connections_closed: $bytes.closed,
         api_audited: (length > 0)}'
}

# Issue targets on the cluster's cost: writes per job <= 1/2 of Volcano's, the API server's CPU
# per 1,000 pods <= 0.7 of its CPU under Volcano's controller.
TARGET_WRITES_RATIO=0.5
TARGET_APISERVER_CPU_RATIO=0.7

# api_work_table JOBS TASKS: per implementation, the requests per job, the watches, the bytes per
# job and the API server's and etcd's CPU per 1,000 pods, next to the lower bound for a job of
# TASKS one-pod tasks; then every "verb resource" either made, per job. Adds the targets above to
# missed when both implementations ran.
api_work_table() {
  local jobs=$1 tasks=$2 r
  echo "The cluster's work per job (requests each controller-manager made, from the API server's"
  echo "audit log of its benchmark identity; bytes from the TCP counters of its connections):"
  echo
  jq -r --arg impls "$IMPLS" --argjson jobs "$jobs" --argjson tasks "$tasks" '
    def r2: if . == null then "n/a" else . * 100 | round / 100 | tostring end;
    def per_job: if . == null then null else . / $jobs end;
    def per_kpods: if . == null then null else . / ($jobs * $tasks / 1000) end;
    ($impls | split(" ") | map(select(. != ""))) as $names
    | "| impl | writes/job | reads/job | watches opened (in the window) | sent KiB/job | received KiB/job | kube-apiserver CPU s/1,000 pods | etcd CPU s/1,000 pods |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      ($names[] as $n | .impls[$n] as $i
        | if $i.error then "| \($n) | \($i.error[:80]) | | | | | | |"
          elif ($i.api_audited | not) then "| \($n) | not audited (restart the cluster: make cluster-down cluster-up) | | | | | | |"
          else "| \($n) | \($i.api_writes | per_job | r2) | \($i.api_reads | per_job | r2) | \($i.api_watches // "n/a") (\($i.api_watches_in_window // "n/a")) | \($i.api_sent_mib | if . then . * 1024 else . end | per_job | r2) | \($i.api_received_mib | if . then . * 1024 else . end | per_job | r2) | \($i.cluster_cpu_s["kube-apiserver"] | per_kpods | r2) | \($i.cluster_cpu_s.etcd | per_kpods | r2) |" end),
      "| lower bound, \($tasks)-task job | \($tasks + 4) | 0 | | | | | |"' "$results"
  echo
  echo "Lower bound: one PodGroup create, $tasks pod creates and three Job status writes: Pending as"
  echo "soon as the job is seen (it may wait long before its PodGroup is admitted), its pod counts once"
  echo "its pods exist (they may wait long to be bound), Running; every read can come from the watch"
  echo "caches."
  echo
  echo "Requests per job by verb and resource:"
  echo
  jq -r --arg impls "$IMPLS" --argjson jobs "$jobs" '
    ($impls | split(" ") | map(select(. != ""))) as $names
    | [.impls[$names[]].api_requests // {}] as $cols
    | ($cols | map(keys[]) | unique) as $rows
    | "| request | \($names | join(" | ")) |",
      "|---|\($names | map("---:") | join("|"))|",
      ($rows | sort_by([$cols[][.] // 0] | max) | reverse[] | . as $r
        | "| \($r) | \($cols | map(.[$r] // 0 | . / $jobs * 100 | round / 100 | tostring) | join(" | ")) |")' "$results"
  both_impls || return 0
  echo
  ratio_table writes/job:api_writes "sent bytes:api_sent_mib" "received bytes:api_received_mib"
  r=$(ratio "$(metric ours api_writes)" "$(metric reference api_writes)")
  above "$r" "$TARGET_WRITES_RATIO" && missed+=("API writes per job ours/reference = $r (target <= $TARGET_WRITES_RATIO)")
  r=$(ratio "$(jq -r '.impls.ours.cluster_cpu_s["kube-apiserver"] // "n/a"' "$results")" \
            "$(jq -r '.impls.reference.cluster_cpu_s["kube-apiserver"] // "n/a"' "$results")")
  echo
  echo "kube-apiserver CPU ours/reference (same pods): $r"
  above "$r" "$TARGET_APISERVER_CPU_RATIO" && missed+=("kube-apiserver CPU per 1,000 pods ours/reference = $r (target <= $TARGET_APISERVER_CPU_RATIO)")
  return 0
}
