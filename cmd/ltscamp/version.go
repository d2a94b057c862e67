package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
)

// versionInfo is what `ltscamp version --json` prints.
type versionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Schema   int64  `json:"schema"`
}

// releaseVersion is set by release builds (goreleaser: -ldflags "-X
// main.releaseVersion=v1.2.3"); otherwise the build info gives the version.
var releaseVersion string

// buildVersion reads the module version, the VCS revision and time from
// the build info ("(devel)" for a build from a work tree).
func buildVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Schema: campaign.SchemaVersion()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Go = bi.GoVersion
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if releaseVersion != "" {
		v.Version = releaseVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the one-line version: "ltscamp v1.2.0 (rev 0123abcd, 2026-11-23T06:00:00Z, schema 1, go1.26.8)".
func (v versionInfo) String() string {
	s := "ltscamp " + v.Version
	detail := ""
	if v.Revision != "" {
		rev := v.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		detail = "rev " + rev
		if v.Modified {
			detail += "+modified"
		}
		if v.Time != "" {
			detail += ", " + v.Time
		}
		detail += ", "
	}
	return s + fmt.Sprintf(" (%sschema %d, %s)", detail, v.Schema, v.Go)
}

func newVersionCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version, the build's revision and the file schema it writes",
		Long: `Print ltscamp's module version, the VCS revision and time it was built from,
and the campaign-file schema version it writes. ltscamp --version prints the
same line.`,
		Example: "  ltscamp version\n  ltscamp --version\n  ltscamp version --json",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := buildVersion()
			if asJSON {
				return a.out.json(v)
			}
			a.out.printf("%s\n", v)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as JSON")
	return cmd
}
