{{/*
Shared pieces of the vc-cpp templates. Object names are Volcano's (its chart with release name
"volcano"), not derived from the release name, so this chart replaces Volcano's objects in place.
*/}}

{{/* The label on every object, plus custom.common_labels. */}}
{{- define "vc-cpp.labels" -}}
app.kubernetes.io/part-of: vc-cpp
{{- with .Values.custom.common_labels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
Labels of a Deployment or its pods: the selector label, the common labels and the component's
own (custom.<component>_labels or _podLabels). Called with (list $ "app-value" extraLabels).
*/}}
{{- define "vc-cpp.componentLabels" -}}
{{- $root := index . 0 -}}
app: {{ index . 1 }}
{{ include "vc-cpp.labels" $root }}
{{- with index . 2 }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* image: "<registry>/<name>:<tag>" for component admission|controller|scheduler. */}}
{{- define "vc-cpp.image" -}}
{{- $root := index . 0 -}}
{{- $b := $root.Values.basic -}}
{{- $name := index $b (printf "%s_image_name" (index . 1)) -}}
{{- $tag := index $b (printf "%s_image_tag_version" (index . 1)) | default $b.image_tag_version | default $root.Chart.AppVersion -}}
{{- if $b.image_registry }}{{ $b.image_registry }}/{{ end }}{{ $name }}:{{ $tag }}
{{- end -}}

{{/*
The pod-level settings every component shares (service account, priority, pull secret,
placement, pod securityContext). Called with (dict "root" $ "component" "admission"
"serviceAccount" "volcano-admission" "builtinAffinity" yaml "builtinSc" yaml).
*/}}
{{- define "vc-cpp.podSettings" -}}
{{- $c := .root.Values.custom -}}
{{- $affinity := index $c (printf "%s_affinity" .component) | default $c.default_affinity -}}
{{- $tolerations := index $c (printf "%s_tolerations" .component) | default $c.default_tolerations -}}
{{- $nodeSelector := index $c (printf "%s_ns" .component) | default $c.default_ns -}}
{{- $sc := index $c (printf "%s_sc" .component) | default $c.default_sc -}}
serviceAccountName: {{ .serviceAccount }}
enableServiceLinks: false
priorityClassName: {{ .root.Values.priorityClassName }}
{{- with .root.Values.basic.image_pull_secret }}
imagePullSecrets:
  - name: {{ . }}
{{- end }}
securityContext:
  {{- if $sc }}{{ toYaml $sc | nindent 2 }}{{ else }}{{ .builtinSc | nindent 2 }}{{ end }}
affinity:
  {{- if $affinity }}{{ toYaml $affinity | nindent 2 }}{{ else }}{{ .builtinAffinity | nindent 2 }}{{ end }}
{{- with $tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Preferred anti-affinity across nodes for the pods with label app=<value>. */}}
{{- define "vc-cpp.spreadAffinity" -}}
podAntiAffinity:
  # Preferred, not required: replicas on different nodes when the cluster has them, but a
  # one-node cluster still runs them all.
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            app: {{ . }}
{{- end -}}

{{/* The built-in pod securityContext: non-root 65532, RuntimeDefault seccomp. */}}
{{- define "vc-cpp.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/*
The container securityContext: custom.<component>_main_csc, else custom.default_csc, else no
privilege escalation, a read-only root filesystem and no capabilities.
*/}}
{{- define "vc-cpp.containerSecurityContext" -}}
{{- $c := .root.Values.custom -}}
{{- $builtin := dict "allowPrivilegeEscalation" false "readOnlyRootFilesystem" true "capabilities" (dict "drop" (list "ALL")) -}}
{{- index $c (printf "%s_main_csc" .component) | default $c.default_csc | default $builtin | toYaml -}}
{{- end -}}

{{/* A Deployment's rollout: surge one pod, never drop below the replica count. */}}
{{- define "vc-cpp.surgeStrategy" -}}
type: RollingUpdate
rollingUpdate:
  maxUnavailable: 0
  maxSurge: 1
{{- end -}}

{{/*
Volcano's admission paths, the rows of its chart's webhooks.yaml (spec webhook.md §1.2): the
configuration kind, the webhook name (the chart's, which differs from the Go code's for jobflows
and hypernodes) and the one rule. clusterScoped marks hypernodes, which the chart registers
without selectors or scope and with sideEffects None.
*/}}
{{- define "vc-cpp.admissionTable" -}}
- {path: /pods/mutate, kind: MutatingWebhookConfiguration, webhook: mutatepod.volcano.sh, group: "", version: v1, resource: pods, operations: [CREATE]}
- {path: /queues/mutate, kind: MutatingWebhookConfiguration, webhook: mutatequeue.volcano.sh, group: scheduling.volcano.sh, version: v1beta1, resource: queues, operations: [CREATE]}
- {path: /podgroups/mutate, kind: MutatingWebhookConfiguration, webhook: mutatepodgroup.volcano.sh, group: scheduling.volcano.sh, version: v1beta1, resource: podgroups, operations: [CREATE]}
- {path: /jobs/mutate, kind: MutatingWebhookConfiguration, webhook: mutatejob.volcano.sh, group: batch.volcano.sh, version: v1alpha1, resource: jobs, operations: [CREATE]}
- {path: /jobs/validate, kind: ValidatingWebhookConfiguration, webhook: validatejob.volcano.sh, group: batch.volcano.sh, version: v1alpha1, resource: jobs, operations: [CREATE, UPDATE]}
- {path: /jobflows/validate, kind: ValidatingWebhookConfiguration, webhook: validatejob.volcano.sh, group: flow.volcano.sh, version: v1alpha1, resource: jobflows, operations: [CREATE, UPDATE]}
- {path: /pods/validate, kind: ValidatingWebhookConfiguration, webhook: validatepod.volcano.sh, group: "", version: v1, resource: pods, operations: [CREATE]}
- {path: /queues/validate, kind: ValidatingWebhookConfiguration, webhook: validatequeue.volcano.sh, group: scheduling.volcano.sh, version: v1beta1, resource: queues, operations: [CREATE, UPDATE, DELETE]}
- {path: /podgroups/validate, kind: ValidatingWebhookConfiguration, webhook: validatepodgroup.volcano.sh, group: scheduling.volcano.sh, version: v1beta1, resource: podgroups, operations: [CREATE]}
- {path: /hypernodes/validate, kind: ValidatingWebhookConfiguration, webhook: validatehypernodes.volcano.sh, group: topology.volcano.sh, version: v1alpha1, resource: hypernodes, operations: [CREATE, UPDATE], clusterScoped: true}
- {path: /cronjobs/validate, kind: ValidatingWebhookConfiguration, webhook: validatecronjob.volcano.sh, group: batch.volcano.sh, version: v1alpha1, resource: cronjobs, operations: [CREATE, UPDATE]}
{{- end -}}

{{/*
The enabled rows of the table, in its order, as a YAML list. custom.enabled_admissions is split
on commas and trimmed, as the binaries parse --enabled-admission; an unknown path fails the
render, as it would fail the binary at start-up.
*/}}
{{- define "vc-cpp.enabledAdmissions" -}}
{{- $table := include "vc-cpp.admissionTable" . | fromYamlArray -}}
{{- $wanted := list -}}
{{- range splitList "," (.Values.custom.enabled_admissions | default "") -}}
{{- $p := trim . -}}
{{- if $p -}}
{{- $known := false -}}
{{- range $table }}{{ if eq .path $p }}{{ $known = true }}{{ end }}{{ end -}}
{{- if not $known -}}
{{- fail (printf "custom.enabled_admissions: unknown admission path %q (known: %s)" $p (include "vc-cpp.knownPaths" $table)) -}}
{{- end -}}
{{- $wanted = append $wanted $p -}}
{{- end -}}
{{- end -}}
{{- $rows := list -}}
{{- range $table }}{{ if has .path $wanted }}{{ $rows = append $rows . }}{{ end }}{{ end -}}
{{- toYaml $rows -}}
{{- end -}}

{{/* The enabled paths alone, in the table's order: the webhook's --enabled-admission. */}}
{{- define "vc-cpp.enabledPaths" -}}
{{- $paths := list -}}
{{- range include "vc-cpp.enabledAdmissions" . | fromYamlArray }}{{ $paths = append $paths .path }}{{ end -}}
{{- toYaml $paths -}}
{{- end -}}

{{- define "vc-cpp.knownPaths" -}}
{{- $paths := list -}}
{{- range . }}{{ $paths = append $paths .path }}{{ end -}}
{{- join "," $paths -}}
{{- end -}}

{{/* The configuration object named for an admission path: volcano-admission-service-jobs-mutate. */}}
{{- define "vc-cpp.webhookConfigName" -}}
volcano-admission-service{{ replace "/" "-" . }}
{{- end -}}

{{/*
Fails the render on settings that cannot work, with the value to change. Every template that
renders a Deployment includes it.
*/}}
{{- define "vc-cpp.validate" -}}
{{- $v := .Values -}}
{{- if not (has $v.implementation (list "vc-cpp" "volcano")) -}}
{{- fail (printf "implementation must be vc-cpp or volcano, not %q" $v.implementation) -}}
{{- end -}}
{{- if and (eq $v.implementation "volcano") (not $v.rbac.volcanoCompatible) -}}
{{- fail "implementation=volcano runs Volcano's binaries, which need Volcano's roles: set rbac.volcanoCompatible=true (values-volcano.yaml does)" -}}
{{- end -}}
{{- if not (has $v.certificate.source (list "helm" "cert-manager" "existing")) -}}
{{- fail (printf "certificate.source must be helm, cert-manager or existing, not %q" $v.certificate.source) -}}
{{- end -}}
{{- if not (has $v.certificate.keyAlgorithm (list "ecdsa" "rsa")) -}}
{{- fail (printf "certificate.keyAlgorithm must be ecdsa or rsa, not %q" $v.certificate.keyAlgorithm) -}}
{{- end -}}
{{- if not (has $v.logFormat (list "text" "json")) -}}
{{- fail (printf "logFormat must be text or json, not %q" $v.logFormat) -}}
{{- end -}}
{{- $a := $v.admission -}}
{{- $floor := add $a.preStopSleepSeconds $a.gracefulShutdownSeconds -}}
{{- if and (not (kindIs "invalid" $a.terminationGracePeriodSeconds)) (le (int $a.terminationGracePeriodSeconds) (int $floor)) -}}
{{- fail (printf "admission.terminationGracePeriodSeconds=%v must exceed preStopSleepSeconds + gracefulShutdownSeconds = %v, or reviews in flight are killed" $a.terminationGracePeriodSeconds $floor) -}}
{{- end -}}
{{- if and (not $v.custom.leader_elect_enable) (gt (int $v.custom.controller_replicas) 1) $v.custom.controller_enable -}}
{{- fail "custom.controller_replicas > 1 needs custom.leader_elect_enable=true: two active controller-managers would act on every object twice" -}}
{{- end -}}
{{- if and (not $v.custom.leader_elect_enable) (gt (int $v.custom.scheduler_replicas) 1) $v.custom.scheduler_enable -}}
{{- fail "custom.scheduler_replicas > 1 needs custom.leader_elect_enable=true: two active schedulers would bind the same pods" -}}
{{- end -}}
{{- end -}}

{{/* The webhook pod's grace period: the value, or preStop sleep + graceful shutdown + 5 s. */}}
{{- define "vc-cpp.admissionGracePeriod" -}}
{{- $a := .Values.admission -}}
{{- if kindIs "invalid" $a.terminationGracePeriodSeconds -}}
{{- add $a.preStopSleepSeconds $a.gracefulShutdownSeconds 5 -}}
{{- else -}}
{{- $a.terminationGracePeriodSeconds -}}
{{- end -}}
{{- end -}}

{{/*
The rollout of a leader-elected component: surge when a Lease keeps the new pod standing by,
Recreate otherwise, so two active replicas never overlap.
*/}}
{{- define "vc-cpp.electedStrategy" -}}
{{- if .Values.custom.leader_elect_enable -}}
{{ include "vc-cpp.surgeStrategy" . }}
{{- else -}}
type: Recreate
{{- end -}}
{{- end -}}

{{/* The privateKey algorithm and size of the cert-manager Certificates (certificate.keyAlgorithm). */}}
{{- define "vc-cpp.certManagerKey" -}}
{{- if eq .Values.certificate.keyAlgorithm "ecdsa" -}}
algorithm: ECDSA
size: 256
{{- else -}}
algorithm: RSA
size: 2048
{{- end -}}
{{- end -}}

{{/*
A Kubernetes memory quantity ("256Mi", "1G", "268435456") in bytes. The suffixes are the
binary (Ki, Mi, Gi, Ti) and decimal (k, M, G, T) ones; anything else fails the install naming
the value.
*/}}
{{- define "vc-cpp.quantityBytes" -}}
{{- $q := toString . -}}
{{- $number := regexFind "^[0-9]+(\\.[0-9]+)?" $q -}}
{{- $suffix := trimPrefix $number $q -}}
{{- $scale := dict "" 1 "k" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 -}}
{{- if or (eq $number "") (not (hasKey $scale $suffix)) -}}
{{- fail (printf "cannot read the memory quantity %q: use a number with k, M, G, T, Ki, Mi, Gi or Ti" $q) -}}
{{- end -}}
{{- mulf (float64 $number) (get $scale $suffix) | int64 -}}
{{- end -}}

{{/*
--max-inflight-bytes of our webhook: admission.inflightBudgetPercent of the container's memory
limit (custom.admission_resources.limits.memory); empty without a limit (the binary's default,
96 MiB, then applies).
*/}}
{{- define "vc-cpp.admissionInflightBytes" -}}
{{- $limit := dig "limits" "memory" "" (.Values.custom.admission_resources | default dict) -}}
{{- if $limit -}}
{{- divf (mulf (include "vc-cpp.quantityBytes" $limit | float64) .Values.admission.inflightBudgetPercent) 100 | int64 -}}
{{- end -}}
{{- end -}}
