package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// writeStore creates a store with n subscriptions in dir and returns its
// path and bytes.
func writeStore(t *testing.T, dir string, n int) (string, []byte) {
	t.Helper()
	path := filepath.Join(dir, boltstore.FileName)
	s, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := s.Create(context.Background(), digesttest.Sub(subID(i), "C1", "U1", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// subID turns a counter into a valid, distinct subscription ID.
func subID(i int) string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := []byte("saaaaa")
	for p := 5; p > 0 && i > 0; p-- {
		b[p] = alphabet[i%len(alphabet)]
		i /= len(alphabet)
	}
	return string(b)
}

// sameBytes fails the test unless the file at path holds want; want nil
// means the file must not exist.
func sameBytes(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if want == nil {
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s was created (%d bytes, err %v)", path, len(got), err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s changed: %d bytes before, %d after", path, len(want), len(got))
	}
}

// TestServeWithBadTokenLeavesStoreUntouched: a start refused at the token
// check has not created or written the subscription store.
func TestServeWithBadTokenLeavesStoreUntouched(t *testing.T) {
	for _, tt := range []struct {
		name  string
		store bool
	}{
		{"existing store", true},
		{"no store yet", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := slacktest.NewServer()
			defer srv.Close()
			slackEnv(t, srv)
			t.Setenv("SLACK_BOT_TOKEN", "xoxb-wrong-token-value")
			dir := t.TempDir()
			t.Setenv("PAPERBOT_DATA_DIR", dir)
			path, before := filepath.Join(dir, boltstore.FileName), []byte(nil)
			if tt.store {
				path, before = writeStore(t, dir, 3)
			}
			code, _, errOut := runCmd(t, t.Context(), "serve")
			if code == exitOK || !strings.Contains(errOut, "invalid_auth") {
				t.Fatalf("exit %d, %q: want a refusal naming invalid_auth", code, errOut)
			}
			sameBytes(t, path, before)
		})
	}
}

// writeCutStore writes a store of 40 subscriptions to dir and cuts it to
// 12 KB, as a copy in progress would; it returns the path and the cut bytes.
func writeCutStore(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	path, sound := writeStore(t, dir, 40)
	cut := sound[:12<<10]
	if err := os.WriteFile(path, cut, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, cut
}

// TestServeRefusesDamagedStore: serve stops on a damaged store with one line
// naming the file and the way out, before connecting, leaving it untouched.
func TestServeRefusesDamagedStore(t *testing.T) {
	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	dir := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", dir)
	path, cut := writeCutStore(t, dir)
	code, _, errOut := runCmd(t, t.Context(), "serve")
	if code != exitError {
		t.Fatalf("serve on a cut store exited %d: %s", code, errOut)
	}
	for _, want := range []string{path, "is damaged", "paperbot store repair --keep-copy"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %s", want, errOut)
		}
	}
	if lines := strings.Count(strings.TrimSpace(errOut), "\n") + 1; lines != 1 {
		t.Errorf("%d lines, want one:\n%s", lines, errOut)
	}
	if srv.Connections() != 0 {
		t.Error("connected to Slack with a damaged store")
	}
	sameBytes(t, path, cut)
}

// TestDigestDryRunWritesNothing: the dry run opens the store read-only and
// never creates one.
func TestDigestDryRunWritesNothing(t *testing.T) {
	for _, tt := range []struct {
		name  string
		store bool
		want  string
	}{
		{"existing store", true, "Channel C2 has no active subscriptions"},
		{"no store yet", false, "no subscription store"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clearEnv(t)
			dir := t.TempDir()
			t.Setenv("PAPERBOT_DATA_DIR", dir)
			path, before := filepath.Join(dir, boltstore.FileName), []byte(nil)
			if tt.store {
				path, before = writeStore(t, dir, 3)
			}
			_, out, errOut := runCmd(t, t.Context(), "digest", "--dry-run", "--channel", "C2")
			if !strings.Contains(out+errOut, tt.want) {
				t.Fatalf("want %q in %q %q", tt.want, out, errOut)
			}
			sameBytes(t, path, before)
		})
	}
}
