package semantic

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadRejectsDamagedModel(t *testing.T) {
	le := binary.LittleEndian
	cases := []struct {
		name   string
		damage func(f *testModelFiles)
		resign bool // fix the checksums after damaging, to reach the deeper checks
		want   string
	}{
		{"truncated table", func(f *testModelFiles) { f.table = f.table[:len(f.table)-3] }, true, "is 269 bytes, want 272"},
		{"table shorter than header", func(f *testModelFiles) { f.table = f.table[:10] }, true, "shorter than its header"},
		{"bad magic", func(f *testModelFiles) { copy(f.table, "PBSTATIX") }, true, `does not start with "PBSTATIC"`},
		{"bad version", func(f *testModelFiles) { le.PutUint32(f.table[8:], 2) }, true, "version 2"},
		{"rows in table differ from vocab", func(f *testModelFiles) { f.vocab = append(f.vocab, "extra\n"...) }, true, "has 22 lines, table.bin has 21 rows"},
		{"rows in header wrong", func(f *testModelFiles) { le.PutUint32(f.table[12:], 20) }, true, "want 260 for 20 rows"},
		{"NaN scale", func(f *testModelFiles) {
			le.PutUint32(f.table[tableHeader+4*3:], math.Float32bits(float32(math.NaN())))
		}, true, "scale NaN at row 3"},
		{"Inf scale", func(f *testModelFiles) { le.PutUint32(f.table[tableHeader:], math.Float32bits(float32(math.Inf(1)))) }, true, "scale +Inf at row 0"},
		{"table sha mismatch", func(f *testModelFiles) { f.table[len(f.table)-1] ^= 1 }, false, "table.bin has sha256"},
		{"vocab sha mismatch", func(f *testModelFiles) { f.vocab[0] = 'T' }, false, "vocab.txt has sha256"},
		{"meta dims differ", func(f *testModelFiles) { f.meta["dims"] = 16 }, true, "meta.json says 21 of 16"},
		{"meta format", func(f *testModelFiles) { f.meta["format"] = "PBSTATIC/2" }, true, `format "PBSTATIC/2"`},
		{"no accent stripping", func(f *testModelFiles) { f.meta["strip_accents"] = false }, true, "without lower-casing"},
		{"empty vocab line", func(f *testModelFiles) { f.vocab = []byte(strings.Replace(string(f.vocab), "text\n", "\n", 1)) }, true, `line 4 is ""`},
		{"duplicate token", func(f *testModelFiles) { f.vocab = []byte(strings.Replace(string(f.vocab), "text\n", "the\n", 1)) }, true, `line 4 repeats the token "the"`},
		{"invalid UTF-8", func(f *testModelFiles) { f.vocab[0] = 0xff }, true, "not valid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newModelFiles(tinyVocab, tinyDims)
			c.damage(f)
			if c.resign {
				f.sign()
			}
			_, err := Load(os.DirFS(f.write(t)))
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("Load = %v, want ErrDamaged", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("Load error %q does not say %q", err, c.want)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	dir := newModelFiles(tinyVocab, tinyDims).write(t)
	if err := os.Remove(filepath.Join(dir, "table.bin")); err != nil {
		t.Fatal(err)
	}
	_, err := Load(os.DirFS(dir))
	if !errors.Is(err, ErrDamaged) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Load = %v, want ErrDamaged and ErrNotExist", err)
	}
}

func TestLoadModelID(t *testing.T) {
	a := tinyModel(t)
	if !strings.HasPrefix(a.ModelID(), "static/tiny/8/") {
		t.Errorf("ModelID = %q", a.ModelID())
	}
	f := newModelFiles(tinyVocab, tinyDims)
	f.table[len(f.table)-1] ^= 1
	f.sign()
	b, err := Load(os.DirFS(f.write(t)))
	if err != nil {
		t.Fatal(err)
	}
	if a.ModelID() == b.ModelID() {
		t.Errorf("two tables share ModelID %q", a.ModelID())
	}
}
