package pgstore_test

import (
	"testing"

	"github.com/paperbot/paperbot/ingest/storetest"
)

// TestFeedsConformance runs the catalog stores' suite (the one the bbolt
// feed store passes) against a real server.
func TestFeedsConformance(t *testing.T) {
	serverURL(t)
	storetest.Run(t, func(t *testing.T) storetest.Store { return open(t, freshDB(t)).Feeds() })
}
