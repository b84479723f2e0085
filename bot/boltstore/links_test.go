package boltstore_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
)

// Looked-up links survive a restart, and the bucket they add leaves the
// file valid for the next open.
func TestLinkCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	s := open(t, path)
	ctx := context.Background()
	if _, _, ok, err := s.GetLink(ctx, "arxiv:2609.28471"); ok || err != nil {
		t.Fatalf("empty store: ok=%v err=%v", ok, err)
	}
	at := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	if err := s.PutLink(ctx, "arxiv:2609.28471", []byte(`{"found":true}`), at); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := boltstore.Verify(path, boltstore.Options{}); err != nil {
		t.Fatalf("Verify after a link was cached: %v", err)
	}
	val, got, ok, err := open(t, path).GetLink(ctx, "arxiv:2609.28471")
	if err != nil || !ok || string(val) != `{"found":true}` || !got.Equal(at) {
		t.Errorf("GetLink = %q, %v, %v, %v", val, got, ok, err)
	}
}

// Links stored long ago are purged by later stores.
func TestLinkCachePurgesOldEntries(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), boltstore.FileName))
	ctx := context.Background()
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := s.PutLink(ctx, "arxiv:old", []byte("x"), old); err != nil {
		t.Fatal(err)
	}
	if err := s.PutLink(ctx, "arxiv:new", []byte("y"), old.Add(60*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := s.GetLink(ctx, "arxiv:old"); ok {
		t.Error("a link stored 60 days before the last store is still cached")
	}
	if _, _, ok, _ := s.GetLink(ctx, "arxiv:new"); !ok {
		t.Error("the new link is lost")
	}
}
