package sqlitestore

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/migrations"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered schema change.
type migration = migrations.Migration

// loadMigrations returns the embedded migrations in version order.
func loadMigrations() ([]migration, error) { return migrations.Load(migrationFiles, "migrations") }

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
)`

// migrate applies every migration the database at dbPath lacks, each in its
// own transaction, and records it in schema_migrations. When create is
// true the database is new, and the first transaction also stamps it with
// the campaign application ID, so a file either is a complete campaign
// or carries no mark of one.
func migrate(ctx context.Context, db *sql.DB, dbPath string, now func() time.Time, create bool) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if !create {
		var tables int64
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&tables); err != nil {
			return fmt.Errorf("read %s: %w", dbPath, err)
		}
		if tables == 0 {
			return fmt.Errorf("%s is %w: an SQLite database from another program", dbPath, events.ErrNotCampaign)
		}
		if err := checkNotNewer(ctx, db, dbPath, ms); err != nil {
			return err
		}
		if upToDate(ctx, db, ms) {
			return nil
		}
		// A migration writes: never to a damaged file (see guard).
		if err := checkIntegrity(ctx, db, dbPath, quickCheck); err != nil {
			return err
		}
	}
	for i, m := range ms {
		if err := applyMigration(ctx, db, dbPath, ms, m, now, create && i == 0); err != nil {
			return err
		}
	}
	return nil
}

// upToDate reports, without taking the write lock, whether every
// migration is recorded already: the usual case, which then costs one read
// instead of a write transaction per migration.
func upToDate(ctx context.Context, db *sql.DB, ms []migration) bool {
	var n, top int64
	err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(max(version), 0) FROM schema_migrations`).Scan(&n, &top)
	return err == nil && n == int64(len(ms)) && top == int64(len(ms))
}

// applyMigration applies m unless it is already recorded. The check runs
// inside the write transaction, so two processes opening the same campaign
// cannot both apply it.
func applyMigration(ctx context.Context, db *sql.DB, dbPath string, all []migration, m migration, now func() time.Time, stamp bool) (err error) {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE, from the DSN
	if err != nil {
		return fmt.Errorf("%s: migration %s: %w", dbPath, m.Name, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if stamp {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", ApplicationID)); err != nil {
			return fmt.Errorf("%s: set application ID: %w", dbPath, err)
		}
	}
	if _, err := tx.ExecContext(ctx, createMigrationsTable); err != nil {
		return fmt.Errorf("%s: create schema_migrations: %w", dbPath, err)
	}
	if err := checkNotNewer(ctx, tx, dbPath, all); err != nil {
		return err
	}
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&done); err != nil {
		return fmt.Errorf("%s: read schema_migrations: %w", dbPath, err)
	}
	if done > 0 {
		return tx.Rollback()
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("%s: migration %s: %w", dbPath, m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, events.FormatTime(now())); err != nil {
		return fmt.Errorf("%s: record migration %s: %w", dbPath, m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: commit migration %s: %w", dbPath, m.Name, err)
	}
	return nil
}

// querier is what checkNotNewer needs of a *sql.DB or *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// checkNotNewer fails when the database records a migration this program
// does not know: a newer ltscamp made it, and this one must not write it.
func checkNotNewer(ctx context.Context, q querier, dbPath string, known []migration) error {
	var newest sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&newest); err != nil {
		return fmt.Errorf("%s: read schema_migrations: %w", dbPath, err)
	}
	if latest := known[len(known)-1].Version; newest.Int64 > latest {
		return fmt.Errorf("%s was %w (schema version %d; this program knows up to %d): upgrade ltscamp", dbPath, events.ErrNewerFormat, newest.Int64, latest)
	}
	return nil
}

// SchemaVersion is the newest schema this program writes: the version of
// its last embedded migration (0 if they cannot be read, which the tests
// rule out).
func SchemaVersion() int64 {
	ms, err := loadMigrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].Version
}
