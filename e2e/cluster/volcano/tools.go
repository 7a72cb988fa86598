// Package volcano only pins Volcano's Go binaries that e2e runs as the reference; see go.mod.
package volcano
