package pgstore_test

import (
	"context"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
)

// Start-up refuses a database it cannot use with a message that says what
// to fix, and never the password.
func TestOpenErrors(t *testing.T) {
	base := serverURL(t)
	ctx := context.Background()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadPort := closed.Addr().(*net.TCPAddr).Port
	closed.Close()

	role := pgtest.RandomName("nopriv_")
	pgtest.Admin(t, "CREATE ROLE "+role+" LOGIN")
	t.Cleanup(func() { pgtest.Admin(t, "DROP ROLE "+role) })
	_, schema := pgtest.Fresh(t)
	pgtest.Admin(t, "GRANT USAGE ON SCHEMA "+schema+" TO "+role)

	for _, tc := range []struct {
		name, url, want string
	}{
		{"not a URL", "mysql://u:s3cret@host/db", "is not a PostgreSQL URL"},
		{"no host", "postgres://", "is not a PostgreSQL URL"},
		{"bad option", "postgres://u:s3cret@127.0.0.1/db?sslmode=sometimes", "is not a valid PostgreSQL URL"},
		{"unreachable", "postgres://u:s3cret@127.0.0.1:" + strconv.Itoa(deadPort) + "/db?sslmode=disable&connect_timeout=2", "cannot reach PostgreSQL at 127.0.0.1:" + strconv.Itoa(deadPort) + "/db"},
		{"no such database", pgtest.WithParams(t, strings.Replace(base, "/paperbot?", "/nosuchdb?", 1), "", nil), "does not exist"},
		{"no rights", pgtest.WithParams(t, base, role, map[string]string{"search_path": schema}), `user "` + role + `" may not create paperbot's tables`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := pgstore.Open(ctx, tc.url)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %q, want it to say %q", err, tc.want)
			}
			t.Log(err)
			if strings.Contains(err.Error(), "s3cret") {
				t.Fatalf("error shows the password: %q", err)
			}
		})
	}
}

// Replicas starting at once on an empty database apply each migration
// once and all come up.
func TestMigrationsOnceUnderConcurrentStarts(t *testing.T) {
	u := freshDB(t)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Go(func() {
			s, err := pgstore.Open(context.Background(), u)
			if err == nil {
				s.Close()
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n, newest int
	if err := conn.QueryRow(ctx, "SELECT count(*), max(version) FROM schema_migrations").Scan(&n, &newest); err != nil {
		t.Fatal(err)
	}
	if n != pgstore.SchemaVersion() || newest != pgstore.SchemaVersion() {
		t.Fatalf("schema_migrations has %d rows up to version %d, want %d", n, newest, pgstore.SchemaVersion())
	}
}

// Migrations only add: an older replica keeps working and nothing stored is
// lost on upgrade.
func TestMigrationsNeverDestroy(t *testing.T) {
	destructive := regexp.MustCompile(`(?i)\b(DROP|TRUNCATE|DELETE|RENAME)\b|ALTER\s+COLUMN[^;]*\bTYPE\b`)
	files, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		body, err := os.ReadFile("migrations/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(body), "\n") {
			code, _, _ := strings.Cut(line, "--")
			if m := destructive.FindString(code); m != "" {
				t.Errorf("%s:%d: %q destroys data; migrations only add", f.Name(), i+1, m)
			}
		}
	}
}

// Two replicas (two stores, each with its own connections) claiming the
// same digest run: exactly one wins, so exactly one posts it.
func TestClaimAcrossReplicas(t *testing.T) {
	u := freshDB(t)
	a, b := open(t, u), open(t, u)
	ctx := context.Background()
	if err := a.Create(ctx, digesttest.Sub("saaaaa", "C1", "U1", 0)); err != nil {
		t.Fatal(err)
	}
	for day := range 20 {
		key := digesttest.Key("saaaaa", day)
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := range 8 {
			s := a
			if i%2 == 1 {
				s = b
			}
			wg.Go(func() {
				_, w, err := s.Claim(ctx, digesttest.Claim(key, "C1"))
				if err != nil {
					t.Error(err)
				}
				if w {
					mu.Lock()
					won++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if won != 1 {
			t.Fatalf("run %s: %d winners, want 1", key, won)
		}
	}
}

// Looked-up links come back to the nanosecond, from another replica, and
// old ones are purged.
func TestLinkCache(t *testing.T) {
	u := freshDB(t)
	a, b := open(t, u), open(t, u)
	ctx := context.Background()
	if _, _, ok, err := a.GetLink(ctx, "arxiv:2609.28471"); ok || err != nil {
		t.Fatalf("empty store: ok=%v err=%v", ok, err)
	}
	at := time.Date(2026, 12, 7, 9, 0, 0, 123456789, time.UTC)
	if err := a.PutLink(ctx, "arxiv:2609.28471", []byte(`{"found":true}`), at); err != nil {
		t.Fatal(err)
	}
	val, got, ok, err := b.GetLink(ctx, "arxiv:2609.28471")
	if err != nil || !ok || string(val) != `{"found":true}` || !got.Equal(at) {
		t.Fatalf("GetLink = %q, %v, %v, %v", val, got, ok, err)
	}
	if err := a.PutLink(ctx, "arxiv:new", []byte("y"), at.Add(60*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := b.GetLink(ctx, "arxiv:2609.28471"); ok {
		t.Error("a link stored 60 days before the last store was not purged")
	}
}
