// Package buildinfo says which Bloom Lab is running: the module version the
// Go command stamped into the executable (v1.2.0 after `go install
// ...@v1.2.0`) and the Go it was built with. The command line prints it and
// every audit report carries it, so a report in a CI log names the lab
// that wrote it. It imports only the standard library, so the audit's
// runner under Node reads it as the native command does.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Module is the lab's module path, as `go install` and `go get` take it.
const Module = "github.com/bloomlab/bloomlab"

// Lab is the running lab's version and the Go that built it.
type Lab struct {
	// Version is the module version ("v1.2.0"), or "devel" for a build
	// from a checkout, followed by the commit where the build recorded
	// one ("devel 1a2b3c4d5e6f", "+dirty" when the tree had changes).
	Version string `json:"version"`
	// Go is the Go release that built it ("go1.26.8").
	Go string `json:"go"`
}

// Read reads the build information of the running executable.
func Read() Lab {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Lab{Version: "devel", Go: runtime.Version()}
	}
	return fromBuildInfo(bi)
}

// fromBuildInfo is Read's work on a given record.
func fromBuildInfo(bi *debug.BuildInfo) Lab {
	lab := Lab{Version: "devel", Go: bi.GoVersion}
	mod := &bi.Main
	for _, d := range bi.Deps {
		if d.Path == Module { // the lab required by another module
			mod = d
		}
	}
	if v := mod.Version; mod.Path == Module && v != "" && v != "(devel)" {
		lab.Version = v
		return lab
	}
	var revision, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			revision = s.Value[:min(12, len(s.Value))]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if revision != "" {
		lab.Version += " " + revision + dirty
	}
	return lab
}

// String is "bloomlab VERSION (GO)", as `bloomlab version` prints it and
// reports name the lab that wrote them.
func (l Lab) String() string {
	return "bloomlab " + l.Version + " (" + l.Go + ")"
}
