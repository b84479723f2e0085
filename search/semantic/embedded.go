package semantic

import (
	"embed"
	"io/fs"
)

// modelFiles is the static model built into the binary (model/, made by
// tools/semantic/distill.py; see model/PROVENANCE.md).
//
//go:embed model/table.bin model/vocab.txt model/meta.json
var modelFiles embed.FS

// Embedded loads the static model built into the binary. Each call reads
// and checks it anew (about 12 MB); callers keep the result.
func Embedded() (*Static, error) {
	sub, err := fs.Sub(modelFiles, "model")
	if err != nil {
		return nil, err
	}
	return Load(sub)
}
