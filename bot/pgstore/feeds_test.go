package pgstore_test

import (
	"errors"
	"testing"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/storetest"
)

// TestFeedsConformance runs the catalog stores' suite (the one the bbolt
// feed store passes) against a real server.
func TestFeedsConformance(t *testing.T) {
	serverURL(t)
	storetest.Run(t, func(t *testing.T) storetest.Store { return open(t, freshDB(t)).Feeds() })
}

// Import refuses a database that already holds fetched papers: nothing is
// merged or overwritten.
func TestFeedsImportRefusesNonEmpty(t *testing.T) {
	serverURL(t)
	f := open(t, freshDB(t)).Feeds()
	a := storetest.Entry("aaaaa111", "Alpha")
	if err := f.Save(t.Context(), []ingest.Entry{a}, ingest.Progress{Source: "arxiv"}); err != nil {
		t.Fatal(err)
	}
	_, _, err := f.Import(t.Context(), []ingest.Entry{storetest.Entry("bbbbb222", "Beta")}, nil)
	if !errors.Is(err, fault.Exists) {
		t.Fatalf("Import into a catalog holding a paper: %v, want fault.Exists", err)
	}
	if entries, _, _ := f.Load(t.Context()); len(entries) != 1 || entries[0].ID != a.ID {
		t.Fatalf("after a refused import: %+v", entries)
	}
}
