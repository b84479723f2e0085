package semantic

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrDamaged is returned (wrapped) by Load for a missing, truncated or
// inconsistent model file.
var ErrDamaged = errors.New("semantic: damaged model")

// Meta is the model's meta.json (see format.md).
type Meta struct {
	Format        string `json:"format"`
	BaseModel     string `json:"base_model"`
	SourcePackage string `json:"source_package"`
	Method        string `json:"method"`
	Dims          int    `json:"dims"`
	Rows          int    `json:"rows"`
	Lowercase     bool   `json:"lowercase"`
	StripAccents  bool   `json:"strip_accents"`
	MaxWordChars  int    `json:"max_word_chars"`
	TableSHA256   string `json:"table_sha256"`
	VocabSHA256   string `json:"vocab_sha256"`
	MadeBy        string `json:"made_by"`
	Command       string `json:"command"`
}

const (
	tableMagic   = "PBSTATIC"
	tableVersion = 1
	tableHeader  = 8 + 4 + 4 + 4
	maxDims      = 4096
	metaFormat   = "PBSTATIC/1"
)

// Load reads a static model from the root of fsys: vocab.txt, table.bin
// and meta.json. Every size, count, scale and checksum is checked; a
// problem returns an error wrapping ErrDamaged that names the file.
func Load(fsys fs.FS) (*Static, error) {
	read := func(name string) ([]byte, error) {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrDamaged, name, err)
		}
		return b, nil
	}
	metaB, err := read("meta.json")
	if err != nil {
		return nil, err
	}
	table, err := read("table.bin")
	if err != nil {
		return nil, err
	}
	vocabB, err := read("vocab.txt")
	if err != nil {
		return nil, err
	}
	return load(metaB, table, vocabB, true)
}

// load checks and reads a model's three files (their checksums when sums
// is set). The model keeps table's values without copying them.
func load(metaB, table, vocabB []byte, sums bool) (*Static, error) {
	meta, err := parseMeta(metaB)
	if err != nil {
		return nil, err
	}
	if sums {
		if err := checkSHA("table.bin", table, meta.TableSHA256); err != nil {
			return nil, err
		}
		if err := checkSHA("vocab.txt", vocabB, meta.VocabSHA256); err != nil {
			return nil, err
		}
	}
	m := &Static{meta: meta}
	if err := m.readTable(table); err != nil {
		return nil, err
	}
	if m.dims != meta.Dims || len(m.scales) != meta.Rows {
		return nil, damaged("table.bin", "has %d rows of %d dims, meta.json says %d of %d", len(m.scales), m.dims, meta.Rows, meta.Dims)
	}
	if err := m.readVocab(vocabB); err != nil {
		return nil, err
	}
	m.maxWordChars = meta.MaxWordChars
	sum := sha256.Sum256([]byte(meta.TableSHA256 + meta.VocabSHA256))
	m.modelID = "static/" + path.Base(meta.BaseModel) + "/" + strconv.Itoa(m.dims) + "/" + hex.EncodeToString(sum[:8])
	return m, nil
}

func damaged(file, format string, args ...any) error {
	return fmt.Errorf("%w: %s %s", ErrDamaged, file, fmt.Sprintf(format, args...))
}

func parseMeta(b []byte) (Meta, error) {
	var meta Meta
	if err := json.Unmarshal(b, &meta); err != nil {
		return meta, damaged("meta.json", "is not valid JSON: %v", err)
	}
	switch {
	case meta.Format != metaFormat:
		return meta, damaged("meta.json", "has format %q, want %q", meta.Format, metaFormat)
	case !meta.Lowercase || !meta.StripAccents:
		return meta, damaged("meta.json", "asks for a tokeniser without lower-casing or accent stripping, which this loader does not have")
	case meta.MaxWordChars <= 0:
		return meta, damaged("meta.json", "has max_word_chars %d, want a positive number", meta.MaxWordChars)
	case meta.Dims <= 0 || meta.Rows <= 0:
		return meta, damaged("meta.json", "has %d rows of %d dims", meta.Rows, meta.Dims)
	}
	return meta, nil
}

func checkSHA(file string, b []byte, want string) error {
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, want) {
		return damaged(file, "has sha256 %s, meta.json says %q", got, want)
	}
	return nil
}

// readTable checks table.bin's header and size and keeps its scales and
// int8 values (a quarter of the memory float32 rows would take).
func (m *Static) readTable(b []byte) error {
	if len(b) < tableHeader {
		return damaged("table.bin", "is %d bytes, shorter than its header", len(b))
	}
	if string(b[:8]) != tableMagic {
		return damaged("table.bin", "does not start with %q", tableMagic)
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != tableVersion {
		return damaged("table.bin", "has version %d, want %d", v, tableVersion)
	}
	rows, dims := uint64(le.Uint32(b[12:])), uint64(le.Uint32(b[16:]))
	if rows == 0 || dims == 0 || dims > maxDims {
		return damaged("table.bin", "has %d rows of %d dims", rows, dims)
	}
	if want := tableHeader + rows*4 + rows*dims; uint64(len(b)) != want {
		return damaged("table.bin", "is %d bytes, want %d for %d rows of %d dims", len(b), want, rows, dims)
	}
	m.dims = int(dims)
	m.scales = make([]float32, rows)
	for i := range m.scales {
		s := math.Float32frombits(le.Uint32(b[tableHeader+4*i:]))
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
			return damaged("table.bin", "has scale %v at row %d", s, i)
		}
		m.scales[i] = s
	}
	m.values = b[tableHeader+4*rows:]
	return nil
}

// readVocab reads one token per line; line i names row i.
func (m *Static) readVocab(b []byte) error {
	if !utf8.Valid(b) {
		return damaged("vocab.txt", "is not valid UTF-8")
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	lines := strings.Split(string(b), "\n")
	if len(lines) != len(m.scales) {
		return damaged("vocab.txt", "has %d lines, table.bin has %d rows", len(lines), len(m.scales))
	}
	v := vocab{tokens: lines, whole: make(map[string]int32, len(lines)), cont: make(map[string]int32)}
	for i, tok := range lines {
		if tok == "" || strings.IndexFunc(tok, unicode.IsSpace) >= 0 {
			return damaged("vocab.txt", "line %d is %q: a token is one word", i+1, tok)
		}
		rows, key := v.whole, tok
		if rest, ok := strings.CutPrefix(tok, "##"); ok && rest != "" {
			rows, key = v.cont, rest
		}
		if _, dup := rows[key]; dup {
			return damaged("vocab.txt", "line %d repeats the token %q", i+1, tok)
		}
		rows[key] = int32(i)
	}
	for k := range v.whole {
		v.maxWhole = max(v.maxWhole, len(k))
	}
	for k := range v.cont {
		v.maxCont = max(v.maxCont, len(k))
	}
	m.vocab = v
	return nil
}
