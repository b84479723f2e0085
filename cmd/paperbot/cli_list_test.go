package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/search"
)

func TestListExport(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", dir)
	s, err := boltstore.Open(filepath.Join(dir, boltstore.FileName), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, p := range []search.Paper{
		{ID: "a1", Title: "Attention Is All You Need", Authors: []string{"Ashish Vaswani"}, Year: 2017, Venue: "NeurIPS"},
		{ID: "b2", Title: "Müller & Friends", Authors: []string{"Jürgen Müller"}, Year: 2024, URL: "https://arxiv.org/abs/2401.01234"},
	} {
		if _, err := s.Save(context.Background(), memory.User("U1"), memory.Saved{Paper: p, SavedAt: t0.Add(time.Duration(i) * time.Hour), SavedBy: "U1"}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	code, out, errOut := runCmd(t, t.Context(), "list", "export", "--bibtex", "--user", "U1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	keys := regexp.MustCompile(`(?m)^@(\w+)\{([^,]+),`).FindAllStringSubmatch(out, -1)
	if len(keys) != 2 || keys[0][2] != "muller2024muller" || keys[1][1] != "inproceedings" || !strings.Contains(out, `M{\"u}ller \& Friends`) {
		t.Fatalf("bibtex export:\n%s", out)
	}

	code, out, _ = runCmd(t, t.Context(), "list", "export", "--json", "--user", "U1")
	var got []savedJSON
	if code != exitOK || json.Unmarshal([]byte(out), &got) != nil || len(got) != 2 || got[0].ID != "b2" {
		t.Fatalf("json export (exit %d):\n%s", code, out)
	}

	code, out, errOut = runCmd(t, t.Context(), "list", "export", "--json", "--channel", "C9")
	if code != exitOK || strings.TrimSpace(out) != "[]" || !strings.Contains(errOut, "empty") {
		t.Fatalf("empty channel list: exit %d, out %q, err %q", code, out, errOut)
	}
	for _, args := range [][]string{
		{"list", "export", "--user", "U1"},
		{"list", "export", "--bibtex", "--json", "--user", "U1"},
		{"list", "export", "--bibtex"},
		{"list", "export", "--bibtex", "--user", "U1", "--channel", "C1"},
		{"list", "show"},
	} {
		if code, _, errOut := runCmd(t, t.Context(), args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, err %q; want a usage error", args, code, errOut)
		}
	}
}
