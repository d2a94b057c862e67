package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/ltscamp/ltscamp/events"
)

// Load implements events.Store. The batch goes in as one transaction:
// all of it, or none of it. An ID already in the log is caught by UNIQUE
// (id).
//
// Checking a batch (events.CheckLoad: the envelopes, the chain with every
// hash recomputed, the stream versions) takes a third as long as inserting
// it, so the two run side by side: a goroutine checks the batch a chunk at
// a time and hands each checked chunk over, as the arguments of its
// multi-row INSERT, to this one, which inserts it. Nothing is inserted
// before it is checked, and nothing is committed unless the whole batch
// passed. The error reported is the one a check of the whole batch first
// would give.
func (s *Store) Load(batch []events.Event) error {
	if len(batch) == 0 {
		return nil
	}
	ctx := context.Background()
	return s.write(ctx, "load", func(w *writer) (bool, error) {
		err := loadIn(ctx, w, batch)
		var le *events.LoadError
		if err != nil && !errors.As(err, &le) {
			err = fmt.Errorf("load: %w", err)
		}
		return true, err
	})
}

// loadIn loads batch in the write transaction under way on w.
func loadIn(ctx context.Context, w *writer, batch []events.Event) error {
	var (
		seq     int64
		hashHex string
	)
	row, err := w.queryRow(ctx, selectHead)
	if err == nil {
		err = row.Scan(&seq, &hashHex)
	}
	hash := events.GenesisHash()
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	default:
		if hash, err = decodeHash(hashHex); err != nil {
			return fmt.Errorf("event %d: hash: %w", seq, err)
		}
	}
	// The versions of the batch's streams before it, read before any of
	// its rows goes in.
	versions := map[string]int64{}
	for _, e := range batch {
		if _, ok := versions[e.Stream]; ok {
			continue
		}
		var v int64
		row, err := w.queryRow(ctx, selectStreamVersion, e.Stream)
		if err == nil {
			err = row.Scan(&v)
		}
		if err != nil {
			return fmt.Errorf("stream %q: %w", e.Stream, err)
		}
		versions[e.Stream] = v
	}

	chunks := make(chan loadChunk, 2)
	stop := make(chan struct{})
	defer close(stop)
	go checkChunks(seq, hash, batch, versions, chunks, stop)
	var insertErr error
	for c := range chunks {
		if c.err != nil {
			return c.err // the first problem of the batch in order
		}
		if insertErr == nil {
			insertErr = insertRows(ctx, w, c.start, c.args)
		}
		// After a failed INSERT the rest is still checked, not inserted:
		// a problem the check finds is the one reported.
	}
	if insertErr == nil {
		return nil
	}
	var ie *insertError
	if errors.As(insertErr, &ie) && ie.idTaken() {
		// Name the event: the first whose ID is in the log before the
		// batch, or repeats one before it in the batch. (The rows before
		// the failed one are in the transaction.)
		seen := make(map[string]bool, ie.Start+ie.N)
		for i, e := range batch[:ie.Start+ie.N] {
			if seen[e.ID] || isIDTaken(ctx, w, e.ID, seq) {
				return &events.LoadError{Index: i, Seq: e.Seq, EventID: e.ID, Problem: fmt.Sprintf("event ID %q is already in the log", e.ID)}
			}
			seen[e.ID] = true
		}
	}
	return fmt.Errorf("seqs %d–%d: %w", batch[0].Seq, batch[len(batch)-1].Seq, insertErr)
}

// loadChunk is a checked chunk of a batch, rows start... of it, as the
// arguments of its INSERT; or err, the problem the check found.
type loadChunk struct {
	start int
	args  []any
	err   error
}

// checkChunks checks batch, which follows the log's head (seq and hash)
// and its streams' versions, a chunk at a time, and sends each checked
// chunk on out, or the first problem, until the end or until stop closes.
// It closes out.
func checkChunks(seq int64, hash []byte, batch []events.Event, versions map[string]int64, out chan<- loadChunk, stop <-chan struct{}) {
	defer close(out)
	last := maps.Clone(versions) // each stream's version after the chunks checked
	version := func(stream string) (int64, error) { return last[stream], nil }
	var args rowArgs
	for start := 0; start < len(batch); {
		rows := batch[start : start+insertChunk(len(batch)-start)]
		c := loadChunk{start: start}
		// A chunk continues the one before it, as CheckLoad would go on
		// from it.
		if err := events.CheckLoad(seq, hash, rows, version); err != nil {
			var le *events.LoadError
			if errors.As(err, &le) {
				le.Index += start
			}
			c.err = err
		} else {
			for _, e := range rows {
				last[e.Stream] = e.StreamVersion
			}
			seq, hash = rows[len(rows)-1].Seq, rows[len(rows)-1].Hash
			args.build(rows)
			c.args = slices.Clone(args.args)
		}
		select {
		case out <- c:
		case <-stop:
			return
		}
		if c.err != nil {
			return
		}
		start += len(rows)
	}
}

// Backup writes a consistent copy of the campaign to path, which must not
// exist, with SQLite's VACUUM INTO: one read transaction, so writers go on
// meanwhile and the copy is the log as of the moment it began. The copy is
// made under a temporary name beside path, synced to disk and then linked
// into place, so path never holds half a copy.
func (s *Store) Backup(path string) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("back up to %s: %w: the file is in the way (remove it or choose another name)", path, events.ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	name := tmp.Name()
	_ = tmp.Close()
	// VACUUM INTO wants a file that does not exist, or is empty.
	defer func() {
		if err != nil {
			_ = os.Remove(name)
		}
	}()
	if _, err := s.db.ExecContext(context.Background(), `VACUUM INTO ?`, name); err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	if err := syncFile(name); err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	return publish(name, path)
}

// publish moves the finished file tmp to path without replacing a file
// that appeared at path meanwhile: a hard link fails if path exists. Where
// links are not supported it falls back to a rename after a check. The
// folder is synced, so the new name survives a crash.
func publish(tmp, path string) error {
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s: %w: the file appeared while it was being written (nothing was replaced)", path, events.ErrExists)
		}
		if _, serr := os.Lstat(path); serr == nil {
			return fmt.Errorf("%s: %w", path, events.ErrExists)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	} else if err := os.Remove(tmp); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// syncFile flushes a file's contents to disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// syncDir flushes a folder's entries to disk, where the system allows it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
