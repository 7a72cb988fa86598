// Package k8s only pins the Kubernetes control-plane binaries that e2e builds; see go.mod.
package k8s
