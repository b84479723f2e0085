// Package pgtest gives tests a PostgreSQL database of their own on the
// server PAPERBOT_TEST_DATABASE_URL names (.ci/postgres starts one and
// prints it). Without the variable, tests that need it skip.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// EnvVar names the test server's database.
const EnvVar = "PAPERBOT_TEST_DATABASE_URL"

// ServerURL is the test server's database URL; without it the test skips.
func ServerURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvVar)
	if u == "" {
		t.Skip(EnvVar + " is not set: this test needs a PostgreSQL server (set -a; eval \"$(.ci/postgres)\"; set +a starts a throwaway one and sets it)")
	}
	return u
}

// Admin runs sql on the test server as the URL's user (its superuser).
func Admin(t testing.TB, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// WithParams returns base with the query parameters set, and the user when
// it is not "".
func WithParams(t testing.TB, base, user string, params map[string]string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for k, v := range params {
		q.Set(k, v)
	}
	u.RawQuery = q.Encode()
	if user != "" {
		u.User = url.User(user)
	}
	return u.String()
}

// RandomName is prefix and twelve hex digits.
func RandomName(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// Fresh makes an empty schema, dropped after the test, and returns its name
// and a URL whose tables live in it: each test gets a database of its own,
// as a new deployment would.
func Fresh(t testing.TB) (url, schema string) {
	t.Helper()
	base := ServerURL(t)
	schema = RandomName("t_")
	Admin(t, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { Admin(t, "DROP SCHEMA "+schema+" CASCADE") })
	return WithParams(t, base, "", map[string]string{"search_path": schema}), schema
}
