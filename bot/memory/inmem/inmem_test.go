package inmem_test

import (
	"testing"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/memory/inmem"
	"github.com/paperbot/paperbot/bot/memory/memorytest"
)

func TestConformance(t *testing.T) {
	memorytest.TestStore(t, func(*testing.T) memory.Store { return inmem.New() })
}
