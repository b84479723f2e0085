//go:build unix

package main

import (
	"path/filepath"
	"testing"
)

// Replicas sharing a data directory each get a directory of their own, and
// one that stops frees its directory for the next to start.
func TestClaimReplicaDir(t *testing.T) {
	data := t.TempDir()
	a, releaseA, err := claimReplicaDir(data)
	if err != nil {
		t.Fatal(err)
	}
	b, releaseB, err := claimReplicaDir(data)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseB()
	if a != filepath.Join(data, "replica-1") || b != filepath.Join(data, "replica-2") {
		t.Fatalf("two replicas took %s and %s, want replica-1 and replica-2", a, b)
	}
	releaseA()
	c, releaseC, err := claimReplicaDir(data)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseC()
	if c != a {
		t.Fatalf("a replica starting after the first stopped took %s, want its free %s", c, a)
	}
}
