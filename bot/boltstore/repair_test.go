package boltstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
)

// writeFile puts b at a new store path and returns the path.
func writeFile(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// corruptRecords returns a copy of a sound store with one subscription and
// one run record that no longer decode.
func corruptRecords(t *testing.T, sound []byte) []byte {
	t.Helper()
	path := writeFile(t, sound)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte("subscriptions")).Put([]byte(subID(5)), []byte(`{"id":`)); err != nil {
			return err
		}
		return tx.Bucket([]byte("runs")).Put([]byte(digesttest.Key(subID(6), 0).String()), []byte(`[`))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return b
}

// TestRepairKeepsWhatDecodesAndTheOldFile: repair turns each damaged store
// into one that opens, keeps every record that decodes, and keeps the old
// file, byte for byte, beside it.
func TestRepairKeepsWhatDecodesAndTheOldFile(t *testing.T) {
	sound := populated(t)
	for _, tt := range []struct {
		name     string
		damaged  []byte
		wantSubs int // -1: whatever the damage left
	}{
		{"two corrupt records", corruptRecords(t, sound), 39},
		{"cut to 12 KB", sound[:12<<10], -1},
		{"garbage in data pages", garbagePages(sound), -1},
		{"50 random byte flips", flipBytes(sound, 50, 1), -1},
		{"both meta pages zeroed", append(make([]byte, 2*pageSize), sound[2*pageSize:]...), 0},
		{"0-byte file", []byte{}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.damaged)
			r, err := boltstore.Repair(path, boltstore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Sound || len(r.Lost) == 0 || r.Copy == "" {
				t.Fatalf("report %+v: want damage found and a copy kept", r)
			}
			if tt.wantSubs >= 0 && r.Subscriptions != tt.wantSubs {
				t.Errorf("kept %d subscriptions, want %d (lost %q)", r.Subscriptions, tt.wantSubs, r.Lost)
			}
			kept, err := os.ReadFile(r.Copy)
			if err != nil || !bytes.Equal(kept, tt.damaged) {
				t.Fatalf("the old file is not kept as it was at %s (%v)", r.Copy, err)
			}
			s := open(t, path)
			subs, err := s.Active(context.Background())
			if err != nil || len(subs) != r.Subscriptions {
				t.Fatalf("repaired store lists %d subscriptions (%v), report says %d", len(subs), err, r.Subscriptions)
			}
			if _, err := s.Unfinished(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRepairNamesTheLostRecords(t *testing.T) {
	r, err := boltstore.Salvage(writeFile(t, corruptRecords(t, populated(t))), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lost := strings.Join(r.Lost, "\n")
	for _, key := range []string{subID(5), digesttest.Key(subID(6), 0).String()} {
		if !strings.Contains(lost, key) {
			t.Errorf("lost records do not name %s:\n%s", key, lost)
		}
	}
	if r.Copy != "" {
		t.Error("Salvage wrote a copy")
	}
}

// TestRepairLeavesAloneWhatItMustNot: a sound store, a foreign file and a
// store another process holds are left byte for byte as they were.
func TestRepairLeavesAloneWhatItMustNot(t *testing.T) {
	sound := populated(t)
	for _, tt := range []struct {
		name    string
		file    []byte
		hold    bool
		wantErr error
	}{
		{"sound store", sound, false, nil},
		{"bbolt file of another program", foreignBolt(t, "users"), false, boltstore.ErrDamaged},
		{"text file", []byte("hello\n"), false, boltstore.ErrDamaged},
		{"store held by a running bot", sound, true, boltstore.ErrLocked},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.file)
			if tt.hold {
				open(t, path)
			}
			r, err := boltstore.Repair(path, boltstore.Options{Timeout: 100 * time.Millisecond})
			if !errors.Is(err, tt.wantErr) || (err == nil && !r.Sound) || r.Copy != "" {
				t.Fatalf("report %+v, error %v; want error %v and no copy", r, err, tt.wantErr)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(after, tt.file) {
				t.Fatal("the file was changed")
			}
			if matches, _ := filepath.Glob(path + ".*"); len(matches) > 0 {
				t.Fatalf("files left beside it: %v", matches)
			}
		})
	}
}

// TestResetStartsEmptyAndKeepsTheOldFile, for damaged and foreign files alike.
func TestResetStartsEmptyAndKeepsTheOldFile(t *testing.T) {
	for _, tt := range []struct {
		name string
		file []byte
	}{
		{"damaged", garbagePages(populated(t))},
		{"text file", []byte("hello\n")},
		{"0-byte file", []byte{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.file)
			r, err := boltstore.Reset(path, boltstore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if kept, err := os.ReadFile(r.Copy); err != nil || !bytes.Equal(kept, tt.file) || !strings.Contains(r.Copy, "before-reset") {
				t.Fatalf("old file not kept at %q (%v)", r.Copy, err)
			}
			if subs, err := open(t, path).Active(context.Background()); err != nil || len(subs) != 0 {
				t.Fatalf("reset store: %d subscriptions, %v", len(subs), err)
			}
		})
	}
}

// TestHotBackupWhileWriting copies the store while another goroutine keeps
// writing to it: every copy opens, checks sound, and holds at least what was
// committed before the copy began.
func TestHotBackupWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	s := open(t, path)
	ctx := context.Background()
	var mu sync.Mutex
	committed := 0
	stop := make(chan struct{})
	writerDone := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				writerDone <- nil
				return
			default:
			}
			if err := s.Create(ctx, digesttest.Sub(subID(i), "C1", "U1", i)); err != nil {
				writerDone <- err
				return
			}
			mu.Lock()
			committed = i + 1
			mu.Unlock()
		}
	}()
	for n := range 5 {
		mu.Lock()
		before := committed
		mu.Unlock()
		dest := filepath.Join(t.TempDir(), "backup.db")
		err := boltstore.SaveCopy(dest, func(w io.Writer) error { _, err := s.WriteTo(w); return err })
		if err != nil {
			t.Fatalf("backup %d: %v", n, err)
		}
		b, err := boltstore.OpenReadOnly(dest, boltstore.Options{})
		if err != nil {
			t.Fatalf("backup %d does not open: %v", n, err)
		}
		subs, err := b.ByChannel(ctx, "C1")
		b.Close()
		if err != nil || len(subs) < before {
			t.Fatalf("backup %d holds %d subscriptions (%v), %d were committed before it began", n, len(subs), err, before)
		}
	}
	close(stop)
	if err := <-writerDone; err != nil {
		t.Fatal(err)
	}
}
