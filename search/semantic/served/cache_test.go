package served

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func openCache(t *testing.T, dir string) *Cache {
	t.Helper()
	c, err := OpenCache(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestCachedEmbedderEmbedsOnlyNewTexts(t *testing.T) {
	f := newFake(t, 16)
	client, _ := newClient(t, f, Config{})
	e := NewCachedEmbedder(client, openCache(t, t.TempDir()))
	ctx := context.Background()

	first, err := e.Embed(ctx, []string{"a", "b", "a", "c"})
	if err != nil {
		t.Fatal(err)
	}
	assertFakeVectors(t, 16, []string{"a", "b", "a", "c"}, first)
	probe := 1 // the client learns the model's size first
	if got := f.texts(); got != probe+3 {
		t.Errorf("server embedded %d texts, want %d (a repeated text once)", got, probe+3)
	}
	first[0][0] = 42 // a repeated text's vectors are separate slices
	if first[2][0] == 42 {
		t.Error("the two vectors of a repeated text share memory")
	}

	second, err := e.Embed(ctx, []string{"c", "d", "b"})
	if err != nil {
		t.Fatal(err)
	}
	assertFakeVectors(t, 16, []string{"c", "d", "b"}, second)
	if got := f.texts(); got != probe+4 {
		t.Errorf("server embedded %d texts after the second call, want %d (only d is new)", got, probe+4)
	}
	if hits, misses := e.Stats(); hits != 3 || misses != 4 {
		t.Errorf("Stats = %d hits, %d misses; want 3 and 4", hits, misses)
	}
}

func TestCacheSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	f := newFake(t, 16)
	in := texts(50)
	c1, err := OpenCache(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	client, _ := newClient(t, f, Config{Dims: 16})
	if _, err := NewCachedEmbedder(client, c1).Embed(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if err := c1.Close(); err != nil {
		t.Fatal(err)
	}
	before := f.count()

	client2, _ := newClient(t, f, Config{Dims: 16})
	got, err := NewCachedEmbedder(client2, openCache(t, dir)).Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertFakeVectors(t, 16, in, got)
	if f.count() != before {
		t.Errorf("a reopened cache sent %d requests, want none", f.count()-before)
	}
}

func TestCacheKeyedByModel(t *testing.T) {
	f := newFake(t, 16)
	cache := openCache(t, t.TempDir())
	a, _ := newClient(t, f, Config{Model: "model-a", Dims: 16})
	b, _ := newClient(t, f, Config{Model: "model-b", Dims: 16})
	for _, c := range []*Client{a, b} {
		if _, err := NewCachedEmbedder(c, cache).Embed(context.Background(), []string{"same text"}); err != nil {
			t.Fatal(err)
		}
	}
	if f.texts() != 2 {
		t.Errorf("server embedded %d texts, want 2: one per model", f.texts())
	}
	if !slices.Equal(f.models, []string{"model-a", "model-b"}) {
		t.Errorf("models asked %v", f.models)
	}
}

func TestCachedEmbedderConcurrent(t *testing.T) {
	f := newFake(t, 16)
	client, _ := newClient(t, f, Config{Dims: 16})
	e := NewCachedEmbedder(client, openCache(t, t.TempDir()))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			in := texts(20 + g)
			got, err := e.Embed(context.Background(), in)
			if err != nil {
				t.Error(err)
				return
			}
			assertFakeVectors(t, 16, in, got)
		})
	}
	wg.Wait()
	if n := f.texts(); n > 8*27 || n < 27 {
		t.Errorf("server embedded %d texts", n)
	}
}

func TestDamagedCacheFileIsSetAside(t *testing.T) {
	cases := map[string]func(t *testing.T, path string){
		"garbage": func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 1000)), 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"tiny": func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"empty": func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"truncated": func(t *testing.T, path string) {
			fillCache(t, filepath.Dir(path))
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, st.Size()/3); err != nil {
				t.Fatal(err)
			}
		},
		"pages overwritten": func(t *testing.T, path string) {
			fillCache(t, filepath.Dir(path))
			overwritePages(t, path, func(int) bool { return true })
		},
		// The file opens; reading the vectors meets the damage.
		"data pages overwritten": func(t *testing.T, path string) {
			fillCache(t, filepath.Dir(path))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// bbolt's meta page: 16-byte page header, then magic, version,
			// page size, flags (4 bytes each), root bucket (root page,
			// sequence), freelist page.
			root, free := int(binary.LittleEndian.Uint64(b[32:])), int(binary.LittleEndian.Uint64(b[48:]))
			overwritePages(t, path, func(p int) bool { return p != root && p != free })
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			damage(t, filepath.Join(dir, CacheFile))
			cache, err := OpenCache(dir, nil)
			if err != nil {
				t.Fatalf("OpenCache of a damaged file: %v", err)
			}
			defer cache.Close()
			f := newFake(t, 16)
			client, _ := newClient(t, f, Config{Dims: 16})
			e := NewCachedEmbedder(client, cache)
			in := texts(300)
			for range 2 {
				got, err := e.Embed(context.Background(), in)
				if err != nil {
					t.Fatalf("Embed over a damaged cache: %v", err)
				}
				assertFakeVectors(t, 16, in, got)
			}
			aside := cache.SetAside()
			if name != "empty" && len(aside) == 0 {
				t.Fatal("the damaged file was not set aside")
			}
			for _, p := range aside {
				if _, err := os.Stat(p); err != nil {
					t.Errorf("set-aside file: %v", err)
				}
			}
			if _, misses := e.Stats(); misses != 300 {
				t.Errorf("%d texts embedded, want 300: the new cache should serve the second pass", misses)
			}
		})
	}
}

// overwritePages fills the pages after the two meta pages that keep
// accepts with a pattern.
func overwritePages(t *testing.T, path string, keep func(page int) bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	for i := 2 * page; i < len(b); i++ {
		if keep(i / page) {
			b[i] = byte(i * 7)
		}
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// fillCache writes vectors for 300 texts with a fake model's name.
func fillCache(t *testing.T, dir string) {
	t.Helper()
	c, err := OpenCache(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := texts(300)
	keys := make([][32]byte, len(in))
	vecs := make([][]float32, len(in))
	for i, text := range in {
		keys[i], vecs[i] = key(text), fakeVector(text, 16)
	}
	if err := c.put("served/test-model/16", keys, vecs); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCachedEmbedderWithoutCache(t *testing.T) {
	f := newFake(t, 16)
	client, _ := newClient(t, f, Config{Dims: 16})
	e := NewCachedEmbedder(client, nil)
	for range 2 {
		got, err := e.Embed(context.Background(), texts(3))
		if err != nil {
			t.Fatal(err)
		}
		assertFakeVectors(t, 16, texts(3), got)
	}
	if f.texts() != 6 {
		t.Errorf("server embedded %d texts, want 6", f.texts())
	}
}
