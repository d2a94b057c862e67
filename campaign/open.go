package campaign

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/pgstore"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/rules"
)

// Create makes a new campaign file at path and records campaign.created.
// The file is built under a temporary name beside path and moved there
// whole, with its first event, or not at all (sqlitestore.CreateWith): a
// failed or killed Create leaves nothing at path that would stop the next
// one. A symbolic link at path is refused, never followed.
func Create(path, name string, edition rules.Edition, opts Options) (*Service, error) {
	if opts.Now == nil {
		return nil, errors.New("campaign: Options.Now is required")
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, rules.Errorf(rules.CodeInvalid, "the campaign name is empty")
	}
	if err := rules.CheckName("campaign name", name); err != nil {
		return nil, err
	}
	if _, err := rules.ParseEdition(string(edition)); err != nil {
		return nil, err
	}
	if pgstore.IsAddress(path) {
		return createOnServer(path, name, edition, opts)
	}
	var s *Service
	st, err := sqlitestore.CreateWith(path, sqlitestore.Options{Now: opts.Now}, func(tmp *sqlitestore.Store) error {
		var err error
		if s, err = New(tmp, opts); err != nil {
			return err
		}
		return s.initCampaign(name, edition)
	})
	if err != nil {
		var coded *rules.Error
		switch {
		case errors.As(err, &coded):
			return nil, err
		case errors.Is(err, sqlitestore.ErrSymlink):
			return nil, rules.Errorf(rules.CodeInvalid, "%s is a symbolic link: ltscamp init never writes through a link; pass the path of a new file instead (nothing was changed)", path)
		case errors.Is(err, events.ErrExists):
			return nil, storeError(path, err)
		}
		// A full or failing disk is the system's failure (exit 8), not
		// the user's path.
		switch classified := sqlitestore.Classify(err); {
		case errors.Is(classified, events.ErrDiskFull):
			return nil, &rules.Error{Code: rules.CodeInternal, Err: classified,
				Message: fmt.Sprintf("the disk holding %s is full; no campaign was made: free some space and run the command again (%v)", path, classified)}
		case errors.Is(classified, events.ErrIO):
			return nil, &rules.Error{Code: rules.CodeInternal, Err: classified,
				Message: fmt.Sprintf("the operating system could not write %s (a failing disk, a network share gone); no campaign was made: check the disk and run the command again (%v)", path, classified)}
		}
		// A missing folder, a directory in the way, no permission: the
		// user's path cannot hold a campaign.
		return nil, rules.Errorf(rules.CodeInvalid, "cannot create the campaign: %v", err)
	}
	// The service decided campaign.created on the file being built; it
	// goes on with the file in its place, which it reads afresh.
	s.store, s.kept = st, nil
	return s, nil
}

// Open opens the campaign file at path for writing: the write commands
// use it. Opening migrates a file made by an older ltscamp.
func Open(path string, opts Options) (*Service, error) {
	if opts.Now == nil {
		return nil, errors.New("campaign: Options.Now is required")
	}
	var st events.Store
	var err error
	if pgstore.IsAddress(path) {
		st, err = pgstore.Open(path, pgstore.Options{Now: opts.Now})
	} else {
		st, err = sqlitestore.Open(path, sqlitestore.Options{Now: opts.Now})
	}
	if err != nil {
		return nil, openError(path, err)
	}
	return openService(path, st, opts)
}

// createOnServer makes the campaign a postgres:// address names, as
// Create makes a file: staging (no one opens it) until campaign.created
// is in its log, then published; on any failure it is removed.
func createOnServer(address, name string, edition rules.Edition, opts Options) (*Service, error) {
	st, err := pgstore.CreateStaged(address, pgstore.Options{Now: opts.Now})
	if err != nil {
		if errors.Is(err, events.ErrExists) {
			return nil, rules.Errorf(rules.CodeConflict, "%s already exists in its database; choose another ?campaign=NAME (nothing was changed)", pgstore.Redact(address))
		}
		return nil, openError(address, err)
	}
	s, err := New(st.Store, opts)
	if err == nil {
		err = s.initCampaign(name, edition)
	}
	if err == nil {
		err = st.Publish()
	}
	if err != nil {
		_ = st.Discard()
		var coded *rules.Error
		if errors.As(err, &coded) {
			return nil, err
		}
		return nil, storeError(st.Path(), err)
	}
	s.kept = nil
	return s, nil
}

// OpenReadOnly opens the campaign file at path for reading only: every
// command that does not write uses it. Nothing done through the service
// can change the file (an append fails), a file this user can read but
// not write can be opened, and the service never waits for another
// process's write lock. A file that an older ltscamp made, and that only
// opening it for writing would migrate, is refused with CodeNotCampaign.
func OpenReadOnly(path string, opts Options) (*Service, error) {
	if opts.Now == nil {
		return nil, errors.New("campaign: Options.Now is required")
	}
	st, err := openStoreReadOnly(path)
	if err != nil {
		return nil, err
	}
	return openService(path, st, opts)
}

// openStoreReadOnly opens the store of the campaign file at path for
// reading only (sqlitestore.OpenReadOnly), its errors coded as the
// commands report them. Unlike OpenReadOnly it accepts a log without
// campaign.created, for verify to report.
func openStoreReadOnly(path string) (readOnlyStore, error) {
	if pgstore.IsAddress(path) {
		st, err := pgstore.OpenReadOnly(path)
		if err != nil {
			return nil, openError(path, err)
		}
		return st, nil
	}
	st, err := sqlitestore.OpenReadOnly(path)
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, events.ErrReadOnly):
		// The one case where reading needs writing: a -wal left with
		// events in it, next to the file in a folder this user cannot
		// write, cannot be read without the -shm SQLite would make.
		return nil, &rules.Error{Code: rules.CodeInvalid, Err: err, Message: fmt.Sprintf("cannot read %s as this user: its latest events are still in %s-wal, which SQLite reads through a %s-shm it cannot make in a folder this user cannot write; "+
			"run any ltscamp command on it as its owner (the last to close it folds the -wal into the file), or copy the file with its -wal to a folder you can write", path, path, path)}
	}
	return nil, openError(path, err)
}

// readOnlyStore is a store opened for reading only, of either kind: it
// can say whether its log is still guarded as append-only.
type readOnlyStore interface {
	events.Store
	AppendOnlyProblems() ([]string, error)
}

// openService wraps st, a campaign opened at path, in a service, if its
// log begins with campaign.created; it closes st otherwise.
func openService(path string, st events.Store, opts Options) (*Service, error) {
	s, err := New(st, opts)
	if err != nil {
		st.Close()
		return nil, err
	}
	if v, err := st.StreamVersion(events.CampaignStream); err != nil || v == 0 {
		st.Close()
		if err != nil {
			return nil, storeError(path, err)
		}
		if pgstore.IsAddress(path) {
			return nil, rules.Errorf(rules.CodeNotCampaign, "%s shows this role no event: the database's owner has not granted it this campaign (campaign_roles, docs/postgres.md), or the campaign holds no campaign.created event", pgstore.Redact(path))
		}
		return nil, rules.Errorf(rules.CodeNotCampaign, "%s holds no campaign.created event; it is not a usable campaign", path)
	}
	return s, nil
}

// openError codes an error of opening the campaign file at path: the
// cases of opening, then those of any store error (storeError).
func openError(path string, err error) error {
	switch {
	case errors.Is(err, pgstore.ErrBadAddress), errors.Is(err, pgstore.ErrNoCampaignName):
		return rules.Errorf(rules.CodeInvalid, "%v", err)
	case errors.Is(err, pgstore.ErrNoCampaign):
		return rules.Errorf(rules.CodeNotCampaign, "%v: run `ltscamp --db '%s' init` first, or `ltscamp campaigns --db '%s'` to list the campaigns there", err, pgstore.Redact(path), ServerDatabase(path))
	case errors.Is(err, pgstore.ErrMaking):
		return rules.Errorf(rules.CodeConflict, "%v: wait for it to finish, then run the command again (nothing was changed)", err)
	case errors.Is(err, pgstore.ErrStaging):
		return rules.Errorf(rules.CodeNotCampaign, "%v: run the `ltscamp init` or `ltscamp restore` that makes it again (it starts afresh)", err)
	case errors.Is(err, pgstore.ErrNeedsUpgrade):
		return rules.Errorf(rules.CodeNotCampaign, "%s: %v: run `ltscamp --db '%s' rebuild`, which opens it for writing, as a role that may change the schema, then run this command again", pgstore.Redact(path), err, pgstore.Redact(path))
	case errors.Is(err, sqlitestore.ErrNeedsUpgrade):
		return rules.Errorf(rules.CodeNotCampaign, "%v: run `ltscamp --db %s rebuild`, which opens it for writing, as a user who can write the file and its folder (or on a copy), then run this command again", err, path)
	case errors.Is(err, events.ErrReadOnly):
		// Readers open the file read-only: this is a command that writes.
		return rules.Wrap(rules.CodeInvalid, &readOnlyError{path: path, err: err})
	case errors.Is(err, fs.ErrPermission):
		// The file's mode, or a folder above it, keeps this user out: the
		// user's to sort out, not a bug.
		return &rules.Error{Code: rules.CodeInvalid, Err: err, Message: fmt.Sprintf("cannot read %s: this user may not read it (its mode, or a folder above it, keeps you out); nothing was changed: ask its owner to share it, or use a copy (`ltscamp backup`) (%v)", path, err)}
	}
	return storeError(path, err)
}

// readOnlyError is a write command refused because this user cannot write
// the campaign file or its folder.
type readOnlyError struct {
	path string
	err  error
}

func (e *readOnlyError) Error() string {
	return e.path + " is read-only to you: this command writes to the campaign, and nothing was changed. " +
		"Commands that only read it (sheet, log, verify, export, backup) still work; to write, make the file and its folder writable, " +
		"or copy it somewhere you can write (`ltscamp backup COPY`) and use --db COPY (" + e.err.Error() + ")"
}

func (e *readOnlyError) Unwrap() error { return e.err }

// Init records campaign.created in an empty store of any kind; tests use it
// with the in-memory store.
func Init(store events.Store, name string, edition rules.Edition, opts Options) (*Service, error) {
	s, err := New(store, opts)
	if err != nil {
		return nil, err
	}
	if _, err := rules.ParseEdition(string(edition)); err != nil {
		return nil, err
	}
	return s, s.initCampaign(name, edition)
}

// IsServerAddress reports whether db names a campaign on a PostgreSQL
// server (postgres://USER@HOST/DB?campaign=NAME) rather than a campaign
// file.
func IsServerAddress(db string) bool { return pgstore.IsAddress(db) }

// RedactAddress returns db with the password of a server address hidden,
// for messages; a file path comes back as it is.
func RedactAddress(db string) string {
	if pgstore.IsAddress(db) {
		return pgstore.Redact(db)
	}
	return db
}

// ServerDatabase returns the address of the database a postgres://
// address names, without its campaign, its password hidden.
func ServerDatabase(address string) string {
	a, err := pgstore.ParseAddress(address)
	if err != nil {
		return pgstore.Redact(address)
	}
	return a.Database()
}

// ServerCampaign is a campaign of a PostgreSQL database, as `ltscamp
// campaigns` lists it.
type ServerCampaign = pgstore.Campaign

// ServerCampaigns lists the campaigns of the PostgreSQL database the
// address names (its ?campaign, if any, is ignored), by name, reading
// only. A database ltscamp never wrote to holds none.
func ServerCampaigns(address string) ([]ServerCampaign, error) {
	if !pgstore.IsAddress(address) {
		return nil, rules.Errorf(rules.CodeInvalid, "--db %s is a campaign file, which holds one campaign: `ltscamp campaigns` lists the campaigns of a PostgreSQL database (--db postgres://USER@HOST/DB)", address)
	}
	cs, err := pgstore.Campaigns(address)
	if err != nil {
		var coded *rules.Error
		if errors.As(err, &coded) {
			return nil, err
		}
		if merr := mediumError(ServerDatabase(address), err); merr != nil {
			return nil, merr
		}
		return nil, rules.Errorf(rules.CodeInvalid, "%v", err)
	}
	return cs, nil
}
