package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedstore"
	"github.com/paperbot/paperbot/ingest/storetest"
)

// store migrate copies the fetched papers and the sources' progress too, so
// replicas on the database serve the papers fetched before the move and
// fetch on from where the single process stopped.
func TestStoreMigrateCopiesFetchedPapers(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", dir)
	writeStore(t, dir, 1)
	fs, err := feedstore.Open(filepath.Join(dir, feedstore.FileName), 0)
	if err != nil {
		t.Fatal(err)
	}
	entries := []ingest.Entry{storetest.Entry("k3m9q2vx", "Retrieval heads"), storetest.Entry("p7d2w4zz", "Sparse attention")}
	prog := ingest.Progress{Source: "arxiv", Day: "2026-09-24"}
	if err := fs.Save(t.Context(), entries, prog); err != nil {
		t.Fatal(err)
	}
	fs.Close()

	code, out, errOut := runCmd(t, t.Context(), "store", "migrate", "--to", dbURL)
	if code != exitOK || !strings.Contains(out, "2 fetched papers, 1 sources' progress (counts verified)") {
		t.Fatalf("store migrate: exit %d, %q %q", code, out, errOut)
	}
	db, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, progress, err := db.Feeds().Load(t.Context())
	if err != nil || len(got) != 2 || len(progress) != 1 || progress[0].Day != "2026-09-24" {
		t.Fatalf("the database's catalog after migrate: %v %+v %v", got, progress, err)
	}
	changed, _, err := db.Feeds().ChangesSince(t.Context(), 0, 10)
	if err != nil || !reflect.DeepEqual([]string{changed[0].ID, changed[1].ID}, []string{"k3m9q2vx", "p7d2w4zz"}) {
		t.Errorf("the copied papers are not numbered for the replicas to follow: %v, %v", changed, err)
	}
	if ids, _ := db.Feeds().Pending(t.Context()); len(ids) != 0 {
		t.Errorf("copied papers pending %v: each replica builds its index with the catalog", ids)
	}
}
