package pgstore_test

import (
	"context"
	"testing"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/memory/memorytest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/thread"
)

func serverURL(t testing.TB) string { return pgtest.ServerURL(t) }

func freshDB(t testing.TB) string {
	u, _ := pgtest.Fresh(t)
	return u
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
