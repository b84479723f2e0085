package thread

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/paperbot/paperbot/fault"
)

// TestStore runs the contract every Store must keep against a new, empty
// store from open; reopen, when not nil, closes and reopens the same store
// (as a restart does) and returns it.
func TestStore(t *testing.T, open func(t *testing.T) Store, reopen func(t *testing.T, s Store) Store) {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	c := Context{Channel: "C1", TS: "1700000000.000100", Query: "watermark user ID", Papers: []string{"a1", "b2", "c3"}, Expires: now.Add(Keep)}

	t.Run("unknown thread is not found", func(t *testing.T) {
		s := open(t)
		if _, err := s.Get(ctx, "C1", "1.2", now); !errors.Is(err, fault.NotFound) {
			t.Fatalf("Get = %v, want NotFound", err)
		}
	})
	t.Run("saved thread comes back in order, and after a restart", func(t *testing.T) {
		s := open(t)
		if err := s.Save(ctx, c); err != nil {
			t.Fatal(err)
		}
		if reopen != nil {
			s = reopen(t, s)
		}
		got, err := s.Get(ctx, "C1", c.TS, now.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Papers, c.Papers) || got.Query != c.Query {
			t.Fatalf("Get = %+v, want %+v", got, c)
		}
		if _, err := s.Get(ctx, "C2", c.TS, now); !errors.Is(err, fault.NotFound) {
			t.Errorf("another channel's thread: %v, want NotFound", err)
		}
	})
	t.Run("expired thread is not found", func(t *testing.T) {
		s := open(t)
		if err := s.Save(ctx, c); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "C1", c.TS, c.Expires); !errors.Is(err, fault.NotFound) {
			t.Fatalf("Get at expiry = %v, want NotFound", err)
		}
	})
	t.Run("save replaces the thread's context", func(t *testing.T) {
		s := open(t)
		if err := s.Save(ctx, c); err != nil {
			t.Fatal(err)
		}
		d := c
		d.Papers, d.Focus, d.Expires = []string{"z9"}, "z9", now.Add(2*Keep)
		if err := s.Save(ctx, d); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, "C1", c.TS, now.Add(Keep+time.Hour))
		if err != nil || !slices.Equal(got.Papers, []string{"z9"}) || got.Focus != "z9" {
			t.Fatalf("Get = %+v, %v; want the second context, alive past the first expiry", got, err)
		}
	})
	t.Run("invalid context is refused", func(t *testing.T) {
		s := open(t)
		for _, bad := range []Context{{TS: "1", Papers: []string{"a"}, Expires: now}, {Channel: "C1", Expires: now}, {Channel: "C1", Papers: []string{"a"}}} {
			if err := s.Save(ctx, bad); !errors.Is(err, fault.Invalid) {
				t.Errorf("Save(%+v) = %v, want Invalid", bad, err)
			}
		}
	})
	t.Run("direct message top level has its own key", func(t *testing.T) {
		s := open(t)
		dm := c
		dm.Channel, dm.TS = "D1", ""
		if err := s.Save(ctx, dm); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "D1", "", now); err != nil {
			t.Fatalf("Get(D1, \"\") = %v", err)
		}
	})
}
