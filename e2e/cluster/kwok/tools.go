// Package kwok only pins the kwok binary that e2e builds; see go.mod.
package kwok
