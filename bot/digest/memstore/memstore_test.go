package memstore_test

import (
	"testing"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/digest/memstore"
)

func TestConformance(t *testing.T) {
	digesttest.TestStore(t, func(t *testing.T) digest.Store {
		s := memstore.New()
		t.Cleanup(func() { s.Close() })
		return s
	})
}
