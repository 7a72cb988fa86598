// Package etcd only pins the etcd server binary that e2e builds; see go.mod.
package etcd
