package campaign

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules"
)

func fileOpts() Options { return Options{VerifyKept: true, Now: fixedClock(), Actor: "gm"} }

// TestCreateRefusedLeavesNothing: a Create refused after the file was
// begun (here the empty actor, which the service refuses when it records
// campaign.created) leaves nothing at the path, so the next Create there
// succeeds. Before, it left a campaign file without campaign.created,
// which every command refused and init would not replace.
func TestCreateRefusedLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.ltscamp")
	_, err := Create(path, "Kit-Kat", rules.DefaultEdition, Options{VerifyKept: true, Now: fixedClock(), Actor: " "})
	if rules.CodeOf(err) != rules.CodeInvalid {
		t.Fatalf("err = %v, want CodeInvalid", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a refused Create left %v", ents)
	}
	s, err := Create(path, "Kit-Kat", rules.DefaultEdition, fileOpts())
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the campaign file: %v, mode %v; want 0600", err, st.Mode().Perm())
	}
}

// TestCreateRefusesASymlink: a symbolic link at the path is a usage
// error, and nothing is written through it.
func TestCreateRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.ltscamp")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "c.ltscamp")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := Create(link, "Kit-Kat", rules.DefaultEdition, fileOpts())
	if rules.CodeOf(err) != rules.CodeInvalid || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v, want CodeInvalid naming the symbolic link", err)
	}
	if st, err := os.Stat(target); err != nil || st.Size() != 0 {
		t.Fatal("the link's target was written")
	}
}

// TestOpenReadOnly: a read-only service reads the campaign, refuses a
// command without changing the file, and refuses a file without
// campaign.created as Open does.
func TestOpenReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	s, err := Create(path, "Kit-Kat", rules.DefaultEdition, fileOpts())
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := OpenReadOnly(path, fileOpts())
	if err != nil {
		t.Fatal(err)
	}
	if p, err := r.Point(""); err != nil || p.Seq != 2 || p.Campaign.Name != "Kit-Kat" {
		t.Fatalf("Point = %+v, %v", p, err)
	}
	if _, err := r.AwardXP([]string{"Ajax"}, 5, "read-only"); err == nil {
		t.Fatal("a command through a read-only service succeeded")
	}
	if n := count(t, r); n != 2 {
		t.Fatalf("%d events, want 2", n)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); sha256.Sum256(after) != sha256.Sum256(before) {
		t.Fatal("the file changed")
	}
	if _, err := OpenReadOnly(filepath.Join(t.TempDir(), "missing.ltscamp"), fileOpts()); rules.CodeOf(err) != rules.CodeNotCampaign {
		t.Fatalf("a missing file: %v, want CodeNotCampaign", err)
	}
	if _, err := OpenReadOnly(path, Options{}); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no clock: %v", err)
	}
}
