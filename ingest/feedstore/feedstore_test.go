package feedstore

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/ingest/storetest"
)

// TestStoreKeepsCatalogProgressAndPending: what Save wrote comes back after
// a reopen (a restart), pending until Applied, and a second process is
// refused while the first holds the file.
func TestStoreKeepsCatalogProgressAndPending(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	st, err := Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := time.Date(2026, 9, 24, 5, 0, 0, 0, time.UTC)
	e := ingest.Entry{ID: "abcd1234", Keys: []string{"arxiv:2609.26811", "title:the drift contract"}, FirstSeen: seen, News: true,
		Record: sources.Record{Source: "arxiv-rss", ArXivID: "2609.26811", Version: 1, Title: "The Drift Contract", Categories: []string{"cs.LG"}}}
	p := ingest.Progress{Source: "arxiv", Day: "2026-09-24", LastSuccess: seen,
		Harvest: &ingest.Harvest{Sets: []string{"cs"}, From: "2026-09-20", Until: "2026-09-24", Token: "tok|1001"}}
	if err := st.Save(t.Context(), []ingest.Entry{e}, p); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, 50*time.Millisecond); !errors.Is(err, ErrInUse) {
		t.Errorf("second open while held: %v, want ErrInUse", err)
	}
	st.Close()

	st, err = Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	entries, progress, err := st.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || !reflect.DeepEqual(entries[0], e) {
		t.Errorf("entries after reopen %+v, want %+v", entries, e)
	}
	if len(progress) != 1 || !reflect.DeepEqual(progress[0], p) {
		t.Errorf("progress after reopen %+v, want %+v", progress, p)
	}
	if ids, err := st.Pending(t.Context()); err != nil || !reflect.DeepEqual(ids, []string{"abcd1234"}) {
		t.Fatalf("pending %v, %v", ids, err)
	}
	if err := st.Applied(t.Context(), []string{"abcd1234"}); err != nil {
		t.Fatal(err)
	}
	if ids, _ := st.Pending(t.Context()); len(ids) != 0 {
		t.Errorf("pending after Applied: %v", ids)
	}
}

func TestStoreRefusesOtherSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		b, _ := tx.CreateBucket(bucketMeta)
		return b.Put(keySchema, []byte("9"))
	})
	db.Close()
	if _, err := Open(path, 0); err == nil {
		t.Fatal("a store of schema 9 was opened")
	}
}

// TestStoreConformance runs the catalog stores' suite on the bbolt file.
func TestStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store {
		st, err := Open(filepath.Join(t.TempDir(), FileName), 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	})
}
