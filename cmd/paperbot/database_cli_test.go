package main

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
)

// With the state in PostgreSQL and no data directory, an operator can still
// preview a channel's digest and check the store; neither writes to the
// database, and the file-only commands say what to use instead.
func TestStoreCommandsWithDatabase(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	clearEnv(t)
	t.Setenv("PAPERBOT_DATABASE_URL", dbURL)
	t.Setenv("PAPERBOT_HTTP_ADDR", "off")
	ctx := t.Context()
	hasTables := func() bool {
		t.Helper()
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var name *string
		if err := conn.QueryRow(ctx, "SELECT to_regclass('schema_migrations')::text").Scan(&name); err != nil {
			t.Fatal(err)
		}
		return name != nil
	}

	code, out, errOut := runCmd(t, ctx, "store", "check")
	if code != exitOK || !strings.Contains(out, "empty: paperbot has not run here yet") {
		t.Fatalf("store check of an empty database: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, ctx, "digest", "--dry-run", "--channel", "C1")
	if code != exitOK || !strings.Contains(out, "Channel C1 has no active subscriptions (no tables yet") {
		t.Fatalf("dry run on an empty database: exit %d, %q %q", code, out, errOut)
	}
	if hasTables() {
		t.Fatal("store check or digest --dry-run created paperbot's tables")
	}

	db, err := pgstore.Open(ctx, dbURL) // as serve does: applies the migrations
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Create(ctx, digesttest.Sub("sk7m2q", "C1", "U1", 0)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	code, out, errOut = runCmd(t, ctx, "store", "check")
	if code != exitOK || !strings.Contains(out, "sound, schema version") || !strings.Contains(out, "1 subscriptions, 0 digest runs") {
		t.Fatalf("store check: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, ctx, "digest", "--dry-run", "--channel", "C1")
	if code != exitOK || !strings.Contains(out, "graph neural networks sk7m2q") {
		t.Fatalf("dry run: exit %d, %q %q; want the subscription's digest", code, out, errOut)
	}

	for cmd, want := range map[string]string{"backup": "pg_dump", "repair": "pg_dump backup", "reset": "new, empty database"} {
		args := []string{"store", cmd}
		if cmd == "backup" {
			args = append(args, t.TempDir()+"/copy.db")
		}
		code, _, errOut = runCmd(t, ctx, args...)
		if code != exitUsage || !strings.Contains(errOut, "the state is in PostgreSQL") || !strings.Contains(errOut, want) {
			t.Errorf("store %s with a database: exit %d, %q; want advice naming %q", cmd, code, errOut, want)
		}
	}
}
