package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ltscamp/ltscamp/events"
)

// lockStaging is the first key of the session lock a Staged holds on its
// campaign (the second is the campaign's id) from CreateStaged to Publish
// or Discard: "LTST" in ASCII.
const lockStaging = 0x4C545354

// Staged is a campaign being made (init) or restored from a backup. It is
// a Store on a campaign row marked staging: no Open or OpenReadOnly opens
// it, and `ltscamp campaigns` shows it as such. Publish makes it a
// campaign; Discard removes it, its rows with it.
//
// While it lives it holds a session lock on the campaign, so that
// another process making the same name is refused rather than let to
// clear it. A process that dies between the two releases the lock with
// its connection and leaves the campaign staging: the next CreateStaged
// of the name removes it and starts afresh.
type Staged struct {
	*Store
	// hold is the connection that holds the staging lock.
	hold *pgxpool.Conn
}

// ErrMaking means another process is making or restoring the campaign
// now.
var ErrMaking = errors.New("another process is making or restoring this campaign now")

// CreateStaged starts the campaign the address names, which must not be
// a campaign already (an error matching events.ErrExists), nor being made
// by another process (ErrMaking). The database is migrated first.
func CreateStaged(address string, opts Options) (*Staged, error) {
	s, err := openWritable(address, opts)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := migrate(ctx, s.pool, opts.Now); err != nil {
		s.pool.Close()
		return nil, err
	}
	hold, err := s.pool.Acquire(ctx)
	if err != nil {
		s.pool.Close()
		return nil, Classify(err)
	}
	fail := func(err error) (*Staged, error) {
		hold.Release()
		s.pool.Close()
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "23505" {
			// Another process inserted the name first, and is making it.
			err = fmt.Errorf("campaign %s: %w", s.addr, ErrMaking)
		}
		return nil, Classify(err)
	}
	// The row is found, or made, and locked in one transaction; the
	// session lock taken in it outlives its commit.
	err = pgx.BeginFunc(ctx, hold, func(tx pgx.Tx) error {
		var staging bool
		err := tx.QueryRow(ctx, `SELECT id, staging FROM campaigns WHERE name = $1 FOR UPDATE`, s.addr.Campaign).Scan(&s.id, &staging)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			if err := tx.QueryRow(ctx, `INSERT INTO campaigns (name, created_at, staging) VALUES ($1, $2, true) RETURNING id`,
				s.addr.Campaign, events.FormatTime(opts.Now())).Scan(&s.id); err != nil {
				return err
			}
		case err != nil:
			return err
		case !staging:
			return fmt.Errorf("campaign %s: %w", s.addr, events.ErrExists)
		}
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, int32(lockStaging), s.id).Scan(&locked); err != nil {
			return err
		}
		if !locked {
			return fmt.Errorf("campaign %s: %w", s.addr, ErrMaking)
		}
		// An earlier making that stopped half way, if any: its rows go.
		return removeRows(ctx, tx, s.id)
	})
	if err != nil {
		return fail(err)
	}
	return &Staged{Store: s, hold: hold}, nil
}

// removeRows removes a staging campaign's events and snapshots.
func removeRows(ctx context.Context, tx pgx.Tx, id int32) error {
	if _, err := tx.Exec(ctx, `DELETE FROM snapshots WHERE campaign = $1`, id); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM events WHERE campaign = $1`, id)
	return err
}

// Publish makes the staged campaign a campaign, which readers then open,
// and lets go of the staging lock. The store stays open.
func (s *Staged) Publish() error {
	ctx := context.Background()
	tag, err := s.hold.Exec(ctx, `UPDATE campaigns SET staging = false WHERE id = $1 AND staging`, s.id)
	if err != nil {
		return Classify(fmt.Errorf("publish campaign %s: %w", s.addr, err))
	}
	s.release()
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("publish campaign %s: it is no longer staging", s.addr)
	}
	return nil
}

// Discard removes the staged campaign, its events and snapshots, and
// closes the store.
func (s *Staged) Discard() error {
	ctx := context.Background()
	var err error
	if s.hold != nil {
		err = pgx.BeginFunc(ctx, s.hold, func(tx pgx.Tx) error {
			var staging bool
			if err := tx.QueryRow(ctx, `SELECT staging FROM campaigns WHERE id = $1 FOR UPDATE`, s.id).Scan(&staging); err != nil || !staging {
				return err // published meanwhile: never removed
			}
			if err := removeRows(ctx, tx, s.id); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `DELETE FROM campaigns WHERE id = $1`, s.id)
			return err
		})
		s.release()
	}
	s.Close()
	return Classify(err)
}

// release lets go of the staging lock and its connection.
func (s *Staged) release() {
	if s.hold == nil {
		return
	}
	_, _ = s.hold.Exec(context.Background(), `SELECT pg_advisory_unlock($1, $2)`, int32(lockStaging), s.id)
	s.hold.Release()
	s.hold = nil
}

// Close closes the store. A campaign neither published nor discarded is
// left staging, as a process that died would leave it: the next
// CreateStaged of its name starts it afresh.
func (s *Staged) Close() error {
	if s.hold != nil {
		// Closing the connection lets go of the staging lock.
		s.hold.Release()
		s.hold = nil
	}
	return s.Store.Close()
}
