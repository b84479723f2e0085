package semantic

import _ "embed" // the model's files

// The static model built into the binary (model/, made by
// tools/semantic/distill.py; see model/PROVENANCE.md). As []byte the
// table stays in the binary's data, not copied onto the heap, and only the
// rows a process looks up are read into memory.
var (
	//go:embed model/table.bin
	embeddedTable []byte
	//go:embed model/vocab.txt
	embeddedVocab []byte
	//go:embed model/meta.json
	embeddedMeta []byte
)

// Embedded loads the static model built into the binary, checked as Load
// checks files but for the checksums: reading them would pull the whole
// table into memory at every start, and the build made the bytes (a test
// checks their sums). Callers keep the result: each call builds the
// vocabulary anew.
func Embedded() (*Static, error) {
	return load(embeddedMeta, embeddedTable, embeddedVocab, false)
}
