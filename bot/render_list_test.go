package bot

import (
	"fmt"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/search"
)

func TestRenderListGolden(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	entries := []listEntry{
		{Saved: memory.Saved{Paper: search.Paper{ID: "v65nfk2x", Title: "Speculative Prefill", Authors: []string{"Jingyu Liu", "Beidi Chen"}, Venue: "ICML 2025", Year: 2025, URL: "https://icml.cc/virtual/2025/poster/44706"},
			SavedAt: t0, SavedBy: "U1", Read: true}},
		{Saved: memory.Saved{Paper: search.Paper{ID: "gone1", Title: "<!channel> *Withdrawn* & gone", Authors: []string{"A <@UEVIL>"}},
			SavedAt: t0.Add(-time.Hour), SavedBy: "U2"}, Gone: true},
	}
	for _, tt := range []struct {
		name string
		v    listView
	}{
		{"list_page", listView{Entries: entries, Total: 23, Read: 4, Page: 1, Slash: "/paper"}},
		{"list_channel", listView{Channel: true, Entries: entries, Total: 2, Read: 1, Slash: "/paper"}},
		{"list_home", listView{Home: true, Entries: entries, Total: 7, Read: 1, Slash: "/paper"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text, blocks := renderList(tt.v)
			rep := &Reply{Text: text, Blocks: blocks}
			checkGolden(t, tt.name, rep)
			checkSafe(t, rep, "U1", "U2")
		})
	}
}

// A full page of the longest titles stays within Slack's limits.
func TestRenderListLimits(t *testing.T) {
	var entries []listEntry
	long := ""
	for range 400 {
		long += "ü&<"
	}
	for i := range listPageSize {
		entries = append(entries, listEntry{Saved: memory.Saved{Paper: search.Paper{ID: fmt.Sprintf("p%d", i), Title: long, Authors: []string{long, long, long, long}, Venue: long}, SavedAt: time.Now(), SavedBy: "U1"}})
	}
	text, blocks := renderList(listView{Channel: true, Entries: entries, Total: 1000, Page: 50, Slash: "/paper"})
	checkSafe(t, &Reply{Text: text, Blocks: blocks}, "U1")
}
