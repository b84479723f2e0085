package semantic

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testModelFiles is a model's three files, which tests damage before writing.
type testModelFiles struct {
	vocab, table []byte
	meta         map[string]any
}

// tinyVocab is the vocabulary of the test model; row i's vector is
// (i+1)*e_(i mod dims) scaled, so tests can tell rows apart.
var tinyVocab = []string{
	"the", "watermark", "##s", "text", "un", "##aff", "##able", "cafe",
	"llm", "protein", "folding", ".", ",", "生", "##ing", "fold", "naive", "a", "##b",
	"transformer", "ü",
}

const tinyDims = 8

// newModelFiles builds a valid model over words, row i an int8 vector
// with a 1 at dimension i mod dims, scale (i+1)/10.
func newModelFiles(words []string, dims int) *testModelFiles {
	rows := len(words)
	var table []byte
	table = append(table, tableMagic...)
	table = binary.LittleEndian.AppendUint32(table, tableVersion)
	table = binary.LittleEndian.AppendUint32(table, uint32(rows))
	table = binary.LittleEndian.AppendUint32(table, uint32(dims))
	for i := range rows {
		table = binary.LittleEndian.AppendUint32(table, math.Float32bits(float32(i+1)/10))
	}
	for i := range rows {
		row := make([]byte, dims)
		row[i%dims] = 100
		row[(i+1)%dims] = byte(int8(-20) + int8(i%3))
		table = append(table, row...)
	}
	f := &testModelFiles{vocab: []byte(strings.Join(words, "\n") + "\n"), table: table}
	f.meta = map[string]any{
		"format": metaFormat, "base_model": "test/tiny", "dims": dims, "rows": rows,
		"lowercase": true, "strip_accents": true, "max_word_chars": 100,
	}
	f.sign()
	return f
}

// sign sets meta.json's checksums to the files' current contents.
func (f *testModelFiles) sign() {
	t, v := sha256.Sum256(f.table), sha256.Sum256(f.vocab)
	f.meta["table_sha256"] = hex.EncodeToString(t[:])
	f.meta["vocab_sha256"] = hex.EncodeToString(v[:])
}

// write puts the files into a new temporary directory and returns it.
func (f *testModelFiles) write(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	meta, err := json.Marshal(f.meta)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"vocab.txt": f.vocab, "table.bin": f.table, "meta.json": meta} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tinyModel loads the valid test model.
func tinyModel(t testing.TB) *Static {
	t.Helper()
	m, err := Load(os.DirFS(newModelFiles(tinyVocab, tinyDims).write(t)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
