package boltstore_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/fault"
)

const pageSize = 4096 // bbolt's default on the platforms the tests run on

// populated writes a store with enough subscriptions, runs and ledger
// entries to fill several pages, and returns its bytes.
func populated(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	s, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 40 {
		id := subID(i)
		channel := []string{"C1", "C2", "C3"}[i%3]
		k := digesttest.Key(id, 0)
		for _, step := range []func() error{
			func() error { return s.Create(ctx, digesttest.Sub(id, channel, "U1", i)) },
			func() error { _, _, err := s.Claim(ctx, digesttest.Claim(k, channel)); return err },
			func() error { return s.Choose(ctx, k, []string{"a" + id, "b" + id}, digesttest.T0) },
			func() error {
				if i%4 == 0 {
					return nil // leave some runs unfinished
				}
				return s.MarkPosted(ctx, k, "1.1", digesttest.T0)
			},
		} {
			if err := step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) <= 4*pageSize {
		t.Fatalf("fixture is only %d bytes: too small to damage meaningfully", len(b))
	}
	return b
}

// foreignBolt returns a sound bbolt file that is not a paperbot store.
func foreignBolt(t *testing.T, buckets ...string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range buckets {
			b, err := tx.CreateBucket([]byte(name))
			if err != nil {
				return err
			}
			if err := b.Put([]byte("key"), []byte("value")); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return b
}

// flipBytes inverts n bytes at random offsets, the same ones for a seed.
func flipBytes(b []byte, n int, seed uint64) []byte {
	b = bytes.Clone(b)
	r := rand.New(rand.NewPCG(seed, seed))
	for range n {
		b[r.IntN(len(b))] ^= 0xFF
	}
	return b
}

// garbagePages overwrites every page after the meta pages with random bytes.
func garbagePages(b []byte) []byte {
	b = bytes.Clone(b)
	r := rand.New(rand.NewPCG(7, 7))
	for i := 2 * pageSize; i < len(b); i++ {
		b[i] = byte(r.UintN(256))
	}
	return b
}

// damages are the faults the store must refuse; each returns the damaged
// copy of a sound store's bytes.
var damages = []struct {
	name  string
	kind  boltstore.Damage
	apply func(t *testing.T, sound []byte) []byte
	want  string // in the message, besides the path and the way out
}{
	{"cut to 12 KB", boltstore.Damaged, func(_ *testing.T, b []byte) []byte { return bytes.Clone(b[:12<<10]) }, "cut short"},
	{"cut mid-page", boltstore.Damaged, func(_ *testing.T, b []byte) []byte { return bytes.Clone(b[:len(b)-100]) }, "cut"},
	{"garbage in data pages", boltstore.Damaged, func(_ *testing.T, b []byte) []byte { return garbagePages(b) }, "is damaged"},
	{"50 random byte flips", boltstore.Damaged, func(_ *testing.T, b []byte) []byte { return flipBytes(b, 50, 1) }, "is damaged"},
	{"both meta pages zeroed", boltstore.Damaged, func(_ *testing.T, b []byte) []byte {
		b = bytes.Clone(b)
		clear(b[:2*pageSize])
		return b
	}, "is damaged"},
	{"0-byte file", boltstore.Empty, func(*testing.T, []byte) []byte { return nil }, "is empty (0 bytes)"},
	{"text file", boltstore.Foreign, func(*testing.T, []byte) []byte {
		return []byte(strings.Repeat("SLACK_BOT_TOKEN=xoxb-not-a-database\n", 200))
	}, "not a bbolt database"},
	{"bbolt file of another program", boltstore.Foreign, func(t *testing.T, _ []byte) []byte {
		return foreignBolt(t, "users", "sessions")
	}, `holding buckets "sessions", "users"`},
	{"bbolt file with no buckets", boltstore.Foreign, func(t *testing.T, _ []byte) []byte { return foreignBolt(t) }, "no buckets"},
}

// TestDamagedStoreIsRefusedUntouched applies each damage to a copy of a
// sound store and opens it every way paperbot does: each refuses it with one
// line naming the file, what is wrong and what to do, and the file's bytes
// are unchanged afterwards.
func TestDamagedStoreIsRefusedUntouched(t *testing.T) {
	sound := populated(t)
	opens := []struct {
		name string
		open func(path string) error
	}{
		{"Open", func(p string) error { s, err := boltstore.Open(p, boltstore.Options{}); closeIf(s); return err }},
		{"OpenReadOnly", func(p string) error { s, err := boltstore.OpenReadOnly(p, boltstore.Options{}); closeIf(s); return err }},
		{"Verify", func(p string) error { return boltstore.Verify(p, boltstore.Options{}) }},
	}
	for _, d := range damages {
		damaged := d.apply(t, sound)
		for _, o := range opens {
			t.Run(d.name+"/"+o.name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), boltstore.FileName)
				if err := os.WriteFile(path, damaged, 0o600); err != nil {
					t.Fatal(err)
				}
				err := o.open(path)
				var de *boltstore.DamageError
				if !errors.As(err, &de) || !errors.Is(err, boltstore.ErrDamaged) || de.Kind != d.kind {
					t.Fatalf("error = %v, want a refusal of kind %d", err, d.kind)
				}
				msg := err.Error()
				way := "paperbot store reset --keep-copy"
				if d.kind == boltstore.Damaged {
					way = "paperbot store repair --keep-copy"
				}
				for _, want := range []string{path, d.want, way} {
					if !strings.Contains(msg, want) {
						t.Errorf("message lacks %q:\n%s", want, msg)
					}
				}
				if strings.Contains(msg, "\n") {
					t.Errorf("message is not one line:\n%s", msg)
				}
				after, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(after, damaged) {
					t.Fatalf("the refused file was changed (%d bytes before, %d after)", len(damaged), len(after))
				}
			})
		}
	}
}

func closeIf(s *boltstore.Store) {
	if s != nil {
		s.Close()
	}
}

// TestRandomDamageNeverCrashes flips bytes in many copies: every one is
// either refused untouched, or opens and answers every read with data or an
// error, never a panic or a fault.
func TestRandomDamageNeverCrashes(t *testing.T) {
	sound := populated(t)
	refused := 0
	const seeds = 150
	for seed := range uint64(seeds) {
		damaged := flipBytes(sound, 1+int(seed%50), seed)
		path := filepath.Join(t.TempDir(), boltstore.FileName)
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := boltstore.OpenReadOnly(path, boltstore.Options{})
		if err != nil {
			if !errors.Is(err, boltstore.ErrDamaged) {
				t.Fatalf("seed %d: error %v does not match ErrDamaged", seed, err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, damaged) {
				t.Fatalf("seed %d: the refused file was changed", seed)
			}
			refused++
			continue
		}
		readEverything(t, s)
		s.Close()
	}
	t.Logf("%d of %d damaged copies refused; the rest opened (flips in unused bytes or inside text)", refused, seeds)
}

func readEverything(t *testing.T, s *boltstore.Store) {
	t.Helper()
	ctx := context.Background()
	s.Active(ctx)
	s.Unfinished(ctx)
	for _, ch := range []string{"C1", "C2", "C3"} {
		s.ByChannel(ctx, ch)
		s.PostedIn(ctx, ch, []string{"a" + subID(1)})
	}
	for i := range 40 {
		s.Get(ctx, subID(i))
		s.GetRun(ctx, digesttest.Key(subID(i), 0))
	}
}

// TestCorruptRecordIsAnErrorNamingIt: a record that stops decoding while the
// store is open comes back as an error with its key, never a panic.
func TestCorruptRecordIsAnErrorNamingIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	if err := os.WriteFile(path, populated(t), 0o600); err != nil {
		t.Fatal(err)
	}
	key := digesttest.Key(subID(0), 0) // unfinished (i%4 == 0)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte("runs")).Put([]byte(key.String()), []byte(`{"key":`)); err != nil {
			return err
		}
		return tx.Bucket([]byte("subscriptions")).Put([]byte(subID(1)), []byte(`[1,2`))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	// Open refuses it, naming the first bad record ...
	if _, err := boltstore.Open(path, boltstore.Options{}); !errors.Is(err, boltstore.ErrDamaged) || !strings.Contains(err.Error(), subID(1)) {
		t.Fatalf("Open: %v, want a refusal naming %s", err, subID(1))
	}
	// ... and one already open reports it per call.
	s := openUnchecked(t, path)
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"Unfinished": func() error { _, err := s.Unfinished(ctx); return err },
		"GetRun":     func() error { _, err := s.GetRun(ctx, key); return err },
		"Active":     func() error { _, err := s.Active(ctx); return err },
		"Get":        func() error { _, err := s.Get(ctx, subID(1)); return err },
	} {
		err := call()
		if err == nil || !(strings.Contains(err.Error(), key.String()) || strings.Contains(err.Error(), subID(1))) {
			t.Errorf("%s: error %v does not name the record", name, err)
		}
		if errors.Is(err, fault.NotFound) {
			t.Errorf("%s: a corrupt record is reported as missing: %v", name, err)
		}
	}
}

func openUnchecked(t *testing.T, path string) *boltstore.Store {
	t.Helper()
	s, err := boltstore.OpenUnchecked(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
