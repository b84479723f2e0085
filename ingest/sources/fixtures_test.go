package sources

import (
	"os"
	"path/filepath"
	"testing"
)

// feedsDir holds recorded real responses (see its README for fidelity).
const feedsDir = "../../../shared/feeds"

// fixture returns the bytes of a recorded response, skipping the test when
// the shared recordings are not present.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(feedsDir, name))
	if os.IsNotExist(err) {
		t.Skipf("recorded response %s not present", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}
