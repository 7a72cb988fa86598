// Package helm only pins the helm CLI that the chart tests and `make install` run; see go.mod.
package helm
