package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
)

// TestStoreRepairAndResetNeedKeepCopy: without --keep-copy, repair and reset
// say what they would do, exit 2 and write nothing.
func TestStoreRepairAndResetNeedKeepCopy(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want string
	}{
		{"repair", "would keep"},
		{"reset", "would replace"},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			clearEnv(t)
			dir := t.TempDir()
			t.Setenv("PAPERBOT_DATA_DIR", dir)
			path, cut := writeCutStore(t, dir)
			code, out, errOut := runCmd(t, t.Context(), "store", tt.cmd)
			if code != exitUsage || !strings.Contains(out, tt.want) || !strings.Contains(errOut, "--keep-copy") {
				t.Fatalf("exit %d, out %q, err %q; want exit 2 saying %q and naming --keep-copy", code, out, errOut, tt.want)
			}
			sameBytes(t, path, cut)
			if beside, _ := filepath.Glob(path + ".*"); len(beside) > 0 {
				t.Fatalf("files written beside the store: %v", beside)
			}
		})
	}
}

// TestStoreRepairAndResetKeepACopy: check refuses a damaged store; repair or
// reset with --keep-copy leaves a store that checks sound and serve opens,
// and the old file byte for byte beside it.
func TestStoreRepairAndResetKeepACopy(t *testing.T) {
	for _, tt := range []struct {
		cmd, want string
	}{
		{"repair", "repaired; the old file is kept as "},
		{"reset", "is now an empty store; the old file is kept as "},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			clearEnv(t)
			dir := t.TempDir()
			t.Setenv("PAPERBOT_DATA_DIR", dir)
			_, cut := writeCutStore(t, dir)
			if code, _, errOut := runCmd(t, t.Context(), "store", "check"); code != exitError || !strings.Contains(errOut, "is damaged") {
				t.Fatalf("check of a cut store: exit %d, %q", code, errOut)
			}
			code, out, errOut := runCmd(t, t.Context(), "store", tt.cmd, "--keep-copy")
			if code != exitOK || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
			}
			kept := strings.TrimSpace(out[strings.LastIndex(out, tt.want)+len(tt.want):])
			sameBytes(t, kept, cut)
			if code, out, errOut := runCmd(t, t.Context(), "store", "check"); code != exitOK || !strings.Contains(out, "sound") {
				t.Fatalf("check after %s: exit %d, %q %q", tt.cmd, code, out, errOut)
			}
		})
	}
}

// TestStoreBackupWhileServing takes a backup and a check while paperbot
// serve holds the store's lock: both go through the running bot, and the
// backup is a store holding the subscriptions.
func TestStoreBackupWhileServing(t *testing.T) {
	srv, ln := emulatedSlack(t)
	addr := ln.Addr().String()
	dir := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", dir)
	path, _ := writeStore(t, dir, 12)

	sv := startServe(t, ln)
	ready := func() bool {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if err := srv.WaitFor(10*time.Second, ready); err != nil {
		t.Fatalf("never ready:\n%s", sv.errOut.String())
	}

	dest := filepath.Join(t.TempDir(), "backup.db")
	code, out, errOut2 := runCmd(t, t.Context(), "store", "backup", dest)
	if code != exitOK || !strings.Contains(out, "from the running paperbot") {
		t.Fatalf("backup while serving: exit %d, %q %q", code, out, errOut2)
	}
	b, err := boltstore.OpenReadOnly(dest, boltstore.Options{})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	subs, err := b.ByChannel(t.Context(), "C1")
	b.Close()
	if err != nil || len(subs) != 12 {
		t.Fatalf("backup holds %d subscriptions (%v), want 12", len(subs), err)
	}
	code, out, errOut2 = runCmd(t, t.Context(), "store", "check")
	if code != exitOK || !strings.Contains(out, "sound (checked a copy from the running paperbot)") {
		t.Fatalf("check while serving: exit %d, %q %q", code, out, errOut2)
	}
	if code, _, errOut2 := runCmd(t, t.Context(), "store", "reset", "--keep-copy"); code != exitError || !strings.Contains(errOut2, "stop paperbot serve first") {
		t.Fatalf("reset while serving: exit %d, %q", code, errOut2)
	}

	if code := sv.stop(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, sv.errOut.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// TestStoreBackupWhileStopped copies the file directly, and refuses to
// write the backup over the store itself.
func TestStoreBackupWhileStopped(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", dir)
	path, before := writeStore(t, dir, 5)
	dest := filepath.Join(t.TempDir(), "backup.db")
	code, out, errOut := runCmd(t, t.Context(), "store", "backup", dest)
	if code != exitOK || !strings.Contains(out, "from the file") {
		t.Fatalf("exit %d, %q %q", code, out, errOut)
	}
	if err := boltstore.Verify(dest, boltstore.Options{}); err != nil {
		t.Fatalf("backup fails the check: %v", err)
	}
	if code, _, errOut := runCmd(t, t.Context(), "store", "backup", path); code != exitUsage || !strings.Contains(errOut, "is the store itself") {
		t.Fatalf("backup over the store: exit %d, %q", code, errOut)
	}
	sameBytes(t, path, before)
}

func TestStoreBackupOnlyFromLoopback(t *testing.T) {
	req := httptest.NewRequest("GET", storeBackupPath, nil)
	req.RemoteAddr = "10.1.2.3:5555"
	rec := httptest.NewRecorder()
	storeBackupHandler(nil).ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("backup from another host answered %d, want 403", rec.Code)
	}
}
