package stats_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyGonum: stats is pure. Outside its tests it imports the
// standard library and gonum, nothing else (above all nothing of ltscamp).
func TestImportsOnlyGonum(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}",
		"github.com/ltscamp/ltscamp/stats").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := false
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case pkg == "github.com/ltscamp/ltscamp/stats":
			seen = true
		case strings.HasPrefix(pkg, "gonum.org/v1/gonum/"):
		default:
			t.Errorf("stats depends on %s", pkg)
		}
	}
	if !seen {
		t.Fatalf("go list did not name stats: %q", out)
	}
}
