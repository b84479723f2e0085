package thread

import "testing"

func TestMemory(t *testing.T) {
	TestStore(t, func(*testing.T) Store { return NewMemory(100) }, nil)
}
