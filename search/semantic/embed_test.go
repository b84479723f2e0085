package semantic

import (
	"strings"
	"testing"
)

func TestEmbeddedModelLoads(t *testing.T) {
	m, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	meta := m.Meta()
	if m.Dims() != 256 || m.Rows() != meta.Rows || !strings.HasPrefix(m.ModelID(), "static/all-MiniLM-L6-v2/256/") {
		t.Errorf("embedded model: %d dims, %d rows (meta %d), ModelID %q", m.Dims(), m.Rows(), meta.Rows, m.ModelID())
	}
	if m.ModelID() != realModel(t).ModelID() {
		t.Error("the embedded model differs from model/")
	}
	// Embedded skips the checksums at run time: they must hold here.
	if err := checkSHA("table.bin", embeddedTable, meta.TableSHA256); err != nil {
		t.Error(err)
	}
	if err := checkSHA("vocab.txt", embeddedVocab, meta.VocabSHA256); err != nil {
		t.Error(err)
	}
}
