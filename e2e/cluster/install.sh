#!/usr/bin/env bash
# Installs the stack on the local cluster's real node the way a user installs it: images in a
# registry, then one `helm upgrade --install` of charts/vc-cpp (webhook, controller-manager and
# Volcano's scheduler as Deployments; the API server calls the webhook through its Service).
#
#   install.sh install      build and push the images, package the chart, install or upgrade
#   install.sh uninstall    helm uninstall (CRDs, Queues, Jobs and namespaces stay)
#
# IMPL_IMAGES=ours (default) installs our images; IMPL_IMAGES=reference installs Volcano's own
# webhook and controller-manager with the same chart (values-volcano.yaml), for switching tests.
# Extra arguments after the action go to helm (e.g. --set custom.admission_replicas=3).
# The cluster must be up with IMPL=chart (make install does both).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
action=${1:?usage: install.sh install|uninstall [helm args...]}
shift
IMPL_IMAGES=${IMPL_IMAGES:-ours}
helm_() { "$HELM" --kubeconfig "$ADMIN_KUBECONFIG" --namespace "$VC_NAMESPACE" "$@"; }

install() {
  local chart args=()
  [ "$(cat "$STATE_DIR/impl-webhook" 2>/dev/null)" = chart ] \
    || die "the cluster is not in chart mode: bring it up with IMPL=chart e2e/cluster/up.sh (or make install)"
  case $IMPL_IMAGES in
    ours)
      # Only Volcano's scheduler runs next to ours.
      REGISTRY=$REGISTRY "$repo/images/build.sh" volcano vc-scheduler
      BUILD_DIR=$BUILD_DIR REGISTRY=$REGISTRY "$repo/images/build.sh" ours
      # The content tags: a rebuilt binary is a new tag, so the upgrade rolls the pods.
      args+=(--set "basic.admission_image_tag_version=$(cat "$BUILD_DIR/images/vc-webhook-manager.tag")"
             --set "basic.controller_image_tag_version=$(cat "$BUILD_DIR/images/vc-controller-manager.tag")") ;;
    reference)
      REGISTRY=$REGISTRY "$repo/images/build.sh" volcano
      args+=(--values "$repo/charts/vc-cpp/values-volcano.yaml") ;;
    *) die "IMPL_IMAGES must be ours or reference (got '$IMPL_IMAGES')" ;;
  esac
  chart=$(BUILD_DIR=$BUILD_DIR "$repo/charts/package.sh")
  log "helm upgrade --install $VC_RELEASE $chart -n $VC_NAMESPACE --values e2e/cluster/install-values.yaml ${args[*]} $*"
  helm_ upgrade --install "$VC_RELEASE" "$chart" --create-namespace \
    --values "$cluster_dir/install-values.yaml" \
    --set-file custom.scheduler_config_override="$cluster_dir/scheduler.conf" \
    "${args[@]}" "$@" --wait --timeout 5m
  wait_until "queues root and default (created by the scheduler)" 120 \
    kubectl_ get queue root default
  log "installed: $(helm_ list -o json | jq -r '.[] | "\(.name) \(.chart) revision \(.revision) \(.status)"')"
}

uninstall() {
  if helm_ status "$VC_RELEASE" >/dev/null 2>&1; then
    helm_ uninstall "$VC_RELEASE" --wait --timeout 3m "$@"
  fi
}

case $action in
  install) install "$@" ;;
  uninstall) uninstall "$@" ;;
  *) die "usage: install.sh install|uninstall [helm args...]" ;;
esac
