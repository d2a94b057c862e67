package pgstore_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyThisPackageImportsPgx: the driver stays behind the store. No
// package of the module but events/pgstore and its test server imports
// pgx, in its code or its tests: the rest reach PostgreSQL through
// events.Store and campaign.
func TestOnlyThisPackageImportsPgx(t *testing.T) {
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}`,
		"github.com/ltscamp/ltscamp/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"github.com/ltscamp/ltscamp/events/pgstore":        true,
		"github.com/ltscamp/ltscamp/events/pgstore/pgtest": true,
	}
	pkgs := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkgs++
		if allowed[fields[0]] {
			continue
		}
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, "github.com/jackc/") {
				t.Errorf("%s imports %s: only events/pgstore may", fields[0], imp)
			}
		}
	}
	if pkgs < 10 {
		t.Fatalf("go list named %d packages: not the module's", pkgs)
	}
}
