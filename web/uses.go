package web

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ltscamp/ltscamp/campaign"
)

// The uses of links granted with --uses are counted by serve, which never
// writes to the campaign: it keeps the count in a file of its own beside
// the campaign file, ".NAME.uses" (JSON: each link's ID and the pages it
// opened), so that the count outlives a restart and `share list` can say
// how many are left. A folder serve may not write keeps the count in
// memory only, for as long as serve runs, and so does a campaign on a
// database server: serve writes nothing there, and there is no folder
// beside it.

// UsesPath returns the file serve keeps the uses of the links of the
// campaign file at path in: "" for a campaign on a database server, whose
// uses are counted in memory.
func UsesPath(path string) string {
	if campaign.IsServerAddress(path) {
		return ""
	}
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".uses")
}

// errUsesInMemory is writeUses' answer for a campaign on a database
// server.
var errUsesInMemory = errors.New("a campaign on a database server has no folder beside it to keep them in")

// ReadUses returns the pages each link of the campaign file at path has
// opened, by link ID: none when serve has counted none.
func ReadUses(path string) (map[string]int, error) {
	file := UsesPath(path)
	if file == "" {
		return map[string]int{}, nil
	}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]int{}, nil
	}
	if err != nil {
		return nil, err
	}
	uses := map[string]int{}
	if err := json.Unmarshal(b, &uses); err != nil {
		return nil, err
	}
	return uses, nil
}

// writeUses replaces the count beside the campaign file at path, whole or
// not at all (a temporary file renamed over it).
func writeUses(path string, uses map[string]int) error {
	b, err := json.Marshal(uses)
	if err != nil {
		return err
	}
	dst := UsesPath(path)
	if dst == "" {
		return errUsesInMemory
	}
	f, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+"-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), dst)
	}
	if werr != nil {
		_ = os.Remove(f.Name())
	}
	return werr
}
