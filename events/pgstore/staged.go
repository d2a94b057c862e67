package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/ltscamp/ltscamp/events"
)

// Staged is a campaign being made (init) or restored from a backup. It is
// a Store on a campaign row marked staging: no Open or OpenReadOnly opens
// it, and `ltscamp campaigns` shows it as such. Publish makes it a
// campaign; Discard removes it, its rows with it. A process that dies
// between the two leaves it staging, and the next CreateStaged of the
// name removes it and starts afresh.
type Staged struct {
	*Store
}

// CreateStaged starts the campaign the address names, which must not be
// a campaign already (an error matching events.ErrExists). The database
// is migrated first.
func CreateStaged(address string, opts Options) (*Staged, error) {
	if opts.Now == nil {
		return nil, errors.New("pgstore: Options.Now is nil: a clock is required")
	}
	s, err := open(address, false)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := migrate(ctx, s.pool, opts.Now); err != nil {
		s.pool.Close()
		return nil, err
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var staging bool
		err := tx.QueryRow(ctx, `SELECT id, staging FROM campaigns WHERE name = $1 FOR UPDATE`, s.addr.Campaign).Scan(&s.id, &staging)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return tx.QueryRow(ctx, `INSERT INTO campaigns (name, created_at, staging) VALUES ($1, $2, true) RETURNING id`,
				s.addr.Campaign, events.FormatTime(opts.Now())).Scan(&s.id)
		case err != nil:
			return err
		case !staging:
			return fmt.Errorf("campaign %s: %w", s.addr, events.ErrExists)
		}
		// An earlier making that stopped half way: its rows go.
		return removeRows(ctx, tx, s.id)
	})
	if err != nil {
		s.pool.Close()
		return nil, Classify(err)
	}
	return &Staged{Store: s}, nil
}

// removeRows removes a staging campaign's events and snapshots.
func removeRows(ctx context.Context, tx pgx.Tx, id int32) error {
	if _, err := tx.Exec(ctx, `DELETE FROM snapshots WHERE campaign = $1`, id); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM events WHERE campaign = $1`, id)
	return err
}

// Publish makes the staged campaign a campaign, which readers then open.
// The store stays open.
func (s *Staged) Publish() error {
	tag, err := s.pool.Exec(context.Background(), `UPDATE campaigns SET staging = false WHERE id = $1 AND staging`, s.id)
	if err != nil {
		return Classify(fmt.Errorf("publish campaign %s: %w", s.addr, err))
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("publish campaign %s: it is no longer staging", s.addr)
	}
	return nil
}

// Discard removes the staged campaign, its events and snapshots, and
// closes the store.
func (s *Staged) Discard() error {
	ctx := context.Background()
	err := s.inTx(ctx, func(tx pgx.Tx) error {
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
	s.Close()
	return Classify(err)
}
