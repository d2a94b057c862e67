package pgstore

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/migrations"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered schema change. The numbers follow
// sqlitestore's: a database at schema version N holds the same log, with
// the same fields, as a campaign file at version N.
type migration = migrations.Migration

// loadMigrations returns the embedded migrations in version order.
func loadMigrations() ([]migration, error) { return migrations.Load(migrationFiles, "migrations") }

// SchemaVersion returns the schema version this program writes: its last
// migration's number.
func SchemaVersion() int64 {
	ms, err := loadMigrations()
	if err != nil {
		return 0
	}
	return ms[len(ms)-1].Version
}

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at text NOT NULL
)`

// schemaState reads the database's schema version (0 with no
// schema_migrations table), and whether it has a table of that name at
// all.
func schemaState(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (version int64, err error) {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return 0, err
	}
	if !exists {
		return 0, nil
	}
	err = q.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&version)
	return version, err
}

// checkSchema refuses, reading only, a database whose schema is not this
// program's: newer (events.ErrNewerFormat), older or missing
// (ErrNeedsUpgrade, events.ErrNotCampaign).
func checkSchema(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	have, err := schemaState(ctx, pool)
	if err != nil {
		return Classify(fmt.Errorf("read the schema version: %w", err))
	}
	top := ms[len(ms)-1].Version
	switch {
	case have == 0:
		return fmt.Errorf("the database holds %w: no ltscamp schema (`ltscamp init` makes one)", events.ErrNotCampaign)
	case have > top:
		return fmt.Errorf("the database was %w (schema version %d; this program knows up to %d): upgrade ltscamp", events.ErrNewerFormat, have, top)
	case have < top:
		return fmt.Errorf("the database %w: it is at schema version %d, and this program reads version %d, to which only opening it for writing upgrades it", ErrNeedsUpgrade, have, top)
	}
	return nil
}

// migrate applies every migration the database lacks, each in its own
// transaction, recorded in schema_migrations. The usual case, a database
// up to date, costs one read; otherwise the migrations run under a
// session advisory lock, so that two processes opening a new database at
// once do not both apply one.
func migrate(ctx context.Context, pool *pgxpool.Pool, now func() time.Time) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	top := ms[len(ms)-1].Version
	have, err := schemaState(ctx, pool)
	if err != nil {
		return Classify(fmt.Errorf("read the schema version: %w", err))
	}
	if have > top {
		return fmt.Errorf("the database was %w (schema version %d; this program knows up to %d): upgrade ltscamp", events.ErrNewerFormat, have, top)
	}
	if have == top {
		return nil
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return Classify(fmt.Errorf("migrate: %w", err))
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, 0)`, int32(lockSpace)); err != nil {
		return Classify(fmt.Errorf("migrate: wait for the migration lock: %w", err))
	}
	defer func() { _, _ = conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1, 0)`, int32(lockSpace)) }()
	if _, err := conn.Exec(ctx, createMigrationsTable); err != nil {
		return Classify(fmt.Errorf("migrate: %w", err))
	}
	for _, m := range ms {
		if err := apply(ctx, conn.Conn(), m, now); err != nil {
			return err
		}
	}
	return nil
}

// apply runs m in one transaction unless it is recorded already.
func apply(ctx context.Context, conn *pgx.Conn, m migration, now func() time.Time) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		var done bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, m.Version).Scan(&done); err != nil {
			return Classify(fmt.Errorf("migration %s: %w", m.Name, err))
		}
		if done {
			return nil
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return Classify(fmt.Errorf("migration %s: %w", m.Name, err))
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
			m.Version, m.Name, events.FormatTime(now())); err != nil {
			return Classify(fmt.Errorf("migration %s: %w", m.Name, err))
		}
		return nil
	})
}
