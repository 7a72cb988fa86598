#!/usr/bin/env bash
# Writes a CA bundle into clientConfig.caBundle of every webhook of every configuration named
# volcano-admission-service-* (Mutating and Validating), the step of a CA rotation that must
# happen before the serving certificate changes (certs/README.md).
#
#   publish-ca-bundle.sh CA_FILE [KUBECTL_ARGS...]
#
# CA_FILE is PEM (one CA or several concatenated, e.g. gen-certs.sh's ca-bundle.crt).
# KUBECTL_ARGS go to every kubectl call, e.g. --kubeconfig=FILE or --context=NAME, except
# --dry-run=..., which goes to the patches only: with --dry-run=server the API server validates
# them and stores nothing.
# Environment: KUBECTL (kubectl on PATH), WEBHOOK_CONFIG_PREFIX (volcano-admission-service-).
#
# The webhook itself also writes its --ca-cert-file there at start-up, so keep the Secret's
# ca.crt equal to what is published here, or a restart puts the old value back.
set -euo pipefail

ca_file=${1:?usage: publish-ca-bundle.sh CA_FILE [KUBECTL_ARGS...]}
shift
args=() patch_args=()
for a in "$@"; do
  case $a in --dry-run*) patch_args+=("$a") ;; *) args+=("$a") ;; esac
done
kubectl=${KUBECTL:-kubectl}
prefix=${WEBHOOK_CONFIG_PREFIX:-volcano-admission-service-}

grep -q -- '-----BEGIN CERTIFICATE-----' "$ca_file" ||
  { echo "publish-ca-bundle.sh: $ca_file holds no PEM certificate" >&2; exit 1; }
bundle=$(openssl base64 -A < "$ca_file")

found=0
for kind in mutatingwebhookconfigurations validatingwebhookconfigurations; do
  # One line per configuration: its name and an "x" per webhook entry.
  listing=$("$kubectl" ${args[@]+"${args[@]}"} get "$kind" \
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{range .webhooks[*]}x{end}{"\n"}{end}')
  while read -r name hooks; do
    [[ $name == "$prefix"* ]] || continue
    found=$((found + 1))
    # One JSON-patch operation per webhook entry ("add" replaces an existing caBundle).
    ops=""
    for ((i = 0; i < ${#hooks}; i++)); do
      ops+="${ops:+,}{\"op\":\"add\",\"path\":\"/webhooks/$i/clientConfig/caBundle\",\"value\":\"$bundle\"}"
    done
    [ -n "$ops" ] || continue
    "$kubectl" ${args[@]+"${args[@]}"} patch "$kind/$name" --type=json -p "[$ops]" \
      ${patch_args[@]+"${patch_args[@]}"}
  done <<< "$listing"
done
if [ "$found" = 0 ]; then
  echo "publish-ca-bundle.sh: no webhook configuration named $prefix*" >&2
  exit 1
fi
# kubectl patch does not say when it was a dry run; say it here.
echo "publish-ca-bundle.sh: $found configurations patched${patch_args[*]+ (${patch_args[*]})}" >&2
