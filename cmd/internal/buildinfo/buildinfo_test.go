package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"installed at a version", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: Module, Version: "v1.2.0"}},
			"bloomlab v1.2.0 (go1.26.8)"},
		{"a checkout, no VCS stamp", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: Module, Version: "(devel)"}},
			"bloomlab devel (go1.26.8)"},
		{"a checkout with changes", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: Module, Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d"}, {Key: "vcs.modified", Value: "true"}}},
			"bloomlab devel 1a2b3c4d5e6f+dirty (go1.26.8)"},
		// Another module's version is not the lab's; the lab it requires is.
		{"another main module", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/mine", Version: "v3.0.0"}},
			"bloomlab devel (go1.26.8)"},
		{"required by another module", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/mine", Version: "v3.0.0"},
			Deps: []*debug.Module{{Path: "github.com/dchest/siphash", Version: "v1.2.3"}, {Path: Module, Version: "v1.2.0"}}},
			"bloomlab v1.2.0 (go1.26.8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fromBuildInfo(&tc.bi).String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
