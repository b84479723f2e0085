package pgstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/memory/memorytest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/thread"
)

// serverURL is the test server's database, from PAPERBOT_TEST_DATABASE_URL
// (.ci/postgres starts one and prints it); without it the test skips.
func serverURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("PAPERBOT_TEST_DATABASE_URL")
	if u == "" {
		t.Skip("PAPERBOT_TEST_DATABASE_URL is not set: this test needs a PostgreSQL server (eval \"$(.ci/postgres)\" starts a throwaway one and prints the variable)")
	}
	return u
}

// admin runs sql on the test server as its superuser.
func admin(t testing.TB, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, serverURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// withParams returns base with the query parameters set (and the user, when not "").
func withParams(t testing.TB, base, user string, params map[string]string) string {
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

func randomName(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// freshDB makes an empty schema, dropped after the test, and returns a URL
// whose tables live in it: each test gets a database of its own, as a new
// deployment would.
func freshDB(t testing.TB) string {
	t.Helper()
	base := serverURL(t)
	schema := randomName("t_")
	admin(t, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { admin(t, "DROP SCHEMA "+schema+" CASCADE") })
	return withParams(t, base, "", map[string]string{"search_path": schema})
}

func open(t testing.TB, dbURL string) *pgstore.Store {
	t.Helper()
	s, err := pgstore.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	serverURL(t)
	digesttest.TestStore(t, func(t *testing.T) digest.Store { return open(t, freshDB(t)) })
}

func TestPersistence(t *testing.T) {
	serverURL(t)
	dbs := map[string]string{}
	digesttest.TestPersistence(t, func(t *testing.T, dir string) digest.Store {
		if dbs[dir] == "" {
			dbs[dir] = freshDB(t)
		}
		return open(t, dbs[dir])
	})
}

func TestMemoryConformance(t *testing.T) {
	serverURL(t)
	memorytest.TestStore(t, func(t *testing.T) memory.Store { return open(t, freshDB(t)) })
}

func TestThreadConformance(t *testing.T) {
	serverURL(t)
	urls := map[thread.Store]string{}
	thread.TestStore(t, func(t *testing.T) thread.Store {
		u := freshDB(t)
		ts := open(t, u).Threads()
		urls[ts] = u
		return ts
	}, func(t *testing.T, ts thread.Store) thread.Store {
		return open(t, urls[ts]).Threads()
	})
}
