// Package pgstore keeps paperbot's state in PostgreSQL (through pgx), for
// several replicas sharing one truth: subscriptions, digest runs and their
// claims, the channel ledger, reading lists, votes, thread contexts and the
// looked-up links. It implements the interfaces bot/boltstore implements
// (digest.Store, memory.Store, thread.Store through Threads, and
// ingest.LinkCache) and passes the same conformance suites. Records are the
// JSON boltstore writes, beside the columns queries need, so a record reads
// the same from either store.
package pgstore

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/paperbot/paperbot/fault"
)

// connectWait bounds how long Open waits for the server to answer.
const connectWait = 10 * time.Second

// Store is paperbot's state in one PostgreSQL database, safe for concurrent
// use by any number of processes. Use Open.
type Store struct {
	pool *pgxpool.Pool
	// where names the database for errors: host, port and database, never
	// the user's password.
	where string
}

// Open connects to the database at rawURL (postgres://user:pass@host/db),
// checks that it answers, and applies the migrations it lacks. Its errors say
// which of these failed (a malformed URL, a server that cannot be reached or
// refuses the login, a user without the rights to create the tables) and
// never contain the password.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	s, cfg, err := connect(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	where, pool := s.where, s.pool
	if _, err := migrate(ctx, pool); err != nil {
		pool.Close()
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42501" { // insufficient_privilege
			// The schema the tables go to: search_path's first, else public.
			schema, _, _ := strings.Cut(cfg.ConnConfig.RuntimeParams["search_path"], ",")
			schema = cmp.Or(strings.TrimSpace(schema), "public")
			return nil, fmt.Errorf("database %s: user %q may not create paperbot's tables (%s): let it own the database or grant it CREATE on the schema, e.g. GRANT CREATE ON SCHEMA %s TO %s",
				where, cfg.ConnConfig.User, pe.Message, schema, cfg.ConnConfig.User)
		}
		return nil, fmt.Errorf("database %s: preparing the tables: %s", where, pgMessage(err))
	}
	return s, nil
}

// OpenForReading connects as Open does but applies no migration, for the
// commands that only look (store check, digest --dry-run): they never
// change the database's schema behind the replicas' backs.
func OpenForReading(ctx context.Context, rawURL string) (*Store, error) {
	s, _, err := connect(ctx, rawURL)
	return s, err
}

// connect opens a pool to rawURL and checks that the server answers.
func connect(ctx context.Context, rawURL string) (*Store, *pgxpool.Config, error) {
	cfg, where, err := parseURL(rawURL)
	if err != nil {
		return nil, nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("database %s: %s", where, pgMessage(err))
	}
	s := &Store{pool: pool, where: where}
	pctx, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, nil, s.connectError(err)
	}
	return s, cfg, nil
}

// CheckURL reports whether rawURL reads as a PostgreSQL URL, without
// connecting, in the words Open would use.
func CheckURL(rawURL string) error {
	_, _, err := parseURL(rawURL)
	return err
}

// parseURL reads a postgres:// URL into a pool configuration and a
// password-free description of it.
func parseURL(rawURL string) (*pgxpool.Config, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
		return nil, "", errors.New("PAPERBOT_DATABASE_URL is not a PostgreSQL URL: want postgres://USER:PASSWORD@HOST:PORT/DATABASE")
	}
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		// pgx's message may quote the URL; say what is wrong without it.
		return nil, "", errors.New("PAPERBOT_DATABASE_URL is not a valid PostgreSQL URL: check its options (want postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…)")
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectWait
	}
	where := fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
	return cfg, where, nil
}

// connectError says why the first connection failed, in a user's words.
func (s *Store) connectError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000": // invalid_password, invalid_authorization_specification
			return fmt.Errorf("database %s refused the login: %s (check the user and password in PAPERBOT_DATABASE_URL)", s.where, pe.Message)
		case "3D000": // invalid_catalog_name
			return fmt.Errorf("database %s does not exist: %s (create it, or fix the name in PAPERBOT_DATABASE_URL)", s.where, pe.Message)
		case "42501":
			return fmt.Errorf("database %s: the user may not connect: %s", s.where, pe.Message)
		}
		return fmt.Errorf("database %s: %s", s.where, pe.Message)
	}
	return fmt.Errorf("cannot reach PostgreSQL at %s: %s (is the server running, and the host and port in PAPERBOT_DATABASE_URL right?)", s.where, pgMessage(err))
}

// pgMessage is err's text without the connection string pgx may quote.
func pgMessage(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Unwrap() != nil {
		return ce.Unwrap().Error()
	}
	return err.Error()
}

// Where names the database: host, port and name (no credentials).
func (s *Store) Where() string { return s.where }

// Check reports whether the database answers, for readiness probes.
func (s *Store) Check(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("database %s: %s", s.where, pgMessage(err))
	}
	return nil
}

// Close releases the connections; later calls fail. Closing twice is safe.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// inTx runs fn in a transaction, committed when fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, fn)
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}

// getJSON reads the JSON record q returns, what naming it in errors; no row
// is fault.NotFound.
func getJSON[T any](ctx context.Context, q querier, what, sql string, args ...any) (T, error) {
	var v T
	var raw []byte
	err := q.QueryRow(ctx, sql, args...).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return v, fmt.Errorf("%s: %w", what, fault.NotFound)
	}
	if err != nil {
		return v, fmt.Errorf("%s: %w", what, err)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("%s: corrupt record: %w", what, err)
	}
	return v, nil
}

// collectJSON decodes the single JSON column of every row, what naming it in errors.
func collectJSON[T any](rows pgx.Rows, what string) ([]T, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) {
		var raw []byte
		var v T
		if err := r.Scan(&raw); err != nil {
			return v, err
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return v, fmt.Errorf("%s: corrupt record: %w", what, err)
		}
		return v, nil
	})
}
