package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// memoryStore is a real store in the test's temporary directory.
func memoryStore(t *testing.T) *boltstore.Store {
	t.Helper()
	s, err := boltstore.Open(filepath.Join(t.TempDir(), boltstore.FileName), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// startMemoryBot runs the bot with reading lists and votes over store.
func startMemoryBot(t *testing.T, store memory.Store, o harnessOpts) *harness {
	t.Helper()
	o.bot = append(o.bot, WithMemory(store))
	prev := o.config
	o.config = func(c *Config) {
		c.ClickWindow = time.Nanosecond // a second click on a vote takes it back, however soon
		if prev != nil {
			prev(c)
		}
	}
	return startBot(t, o)
}

var bibEntry = regexp.MustCompile(`(?m)^@(\w+)\{([^,]+),`)

// TestE2ESaveListBibTeX: Save on two cards, the list shows both newest
// first, saving again keeps one entry, and /paper bibtex uploads a .bib to
// the user's DM with exactly those papers.
func TestE2ESaveListBibTeX(t *testing.T) {
	store := memoryStore(t)
	h := startMemoryBot(t, store, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "protein conformations")
	ids := paperIDsOf(t, m)
	if len(ids) < 2 {
		t.Fatalf("need two results, have %v", ids)
	}
	click(t, h, m, "U1", "save:0")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 2)); !strings.Contains(text, "Saved “") {
		t.Fatalf("save reply:\n%s", text)
	}
	click(t, h, m, "U1", "save:1")
	h.WaitEphemeral("C1", "U1", 3)
	// The same paper from another message: still one entry.
	m2 := searchEphemeral2(t, h, "U1", "C1", "protein conformations", 4)
	click(t, h, m2, "U1", "save:0")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 5)); !strings.Contains(text, "already on your reading list") {
		t.Fatalf("saving twice:\n%s", text)
	}

	h.Slash("U1", "C1", "list")
	list := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 6))
	first, second := strings.Index(list, ids[1]), strings.Index(list, ids[0])
	if !strings.Contains(list, "2 papers, 0 read") || first < 0 || second < 0 || first > second {
		t.Fatalf("list should hold %s then %s (newest first):\n%s", ids[1], ids[0], list)
	}
	// Another user's list is their own.
	h.Slash("U2", "C1", "list")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U2", 1)); !strings.Contains(text, "Your reading list is empty") || strings.Contains(text, ids[0]) {
		t.Fatalf("U2 sees:\n%s", text)
	}

	h.Slash("U1", "C1", "bibtex")
	h.WaitEphemeral("C1", "U1", 7)
	files := h.srv.Files("U1")
	if len(files) != 1 {
		t.Fatalf("files in U1's DM: %d\nlogs:\n%s", len(files), h.logs)
	}
	content := string(files[0].Content)
	entries := bibEntry.FindAllStringSubmatch(content, -1)
	if files[0].Name != "reading-list.bib" || len(entries) != 2 {
		t.Fatalf("uploaded %s with %d entries:\n%s", files[0].Name, len(entries), content)
	}
	for _, id := range ids[:2] {
		p, _ := testIndex(t).Get(id)
		if key := entries[0][2] + entries[1][2]; !strings.Contains(key, bibKeyPrefix(p)) {
			t.Errorf("no entry keyed for %s (%s) in:\n%s", id, bibKeyPrefix(p), content)
		}
	}
	if h.srv.Files("C1") != nil {
		t.Error("a personal list was uploaded to the channel")
	}
}

// bibKeyPrefix is the surname and year a paper's key starts with.
func bibKeyPrefix(p search.Paper) string {
	key := strings.ToLower(p.Authors[0][strings.LastIndex(p.Authors[0], " ")+1:])
	return fmt.Sprintf("%s%d", key, p.Year)
}

// searchEphemeral2 is searchEphemeral for the user's n-th ephemeral.
func searchEphemeral2(t *testing.T, h *harness, user, channel, query string, n int) slacktest.Message {
	t.Helper()
	h.Slash(user, channel, query)
	return h.WaitEphemeral(channel, user, n)
}

// paperIDsOf lists the papers of a message's cards, by their Save buttons.
func paperIDsOf(t *testing.T, m slacktest.Message) []string {
	t.Helper()
	return cardPaperIDs(bottest.Blocks(t, m))
}

func TestE2EEmptyListIsOneLine(t *testing.T) {
	h := startMemoryBot(t, memoryStore(t), harnessOpts{})
	h.Slash("U1", "C1", "bibtex")
	m := h.WaitEphemeral("C1", "U1", 1)
	if text := bottest.BlockTexts(t, m); !strings.Contains(text, "Your reading list is empty") || strings.Count(text, "\n") > 1 {
		t.Fatalf("empty list reply:\n%s", text)
	}
	if len(h.srv.Files("")) != 0 {
		t.Fatal("an empty list was uploaded")
	}
}

// TestE2EListButtonsAndChannelList: Mark read and Remove edit the list in
// place; the card menu saves for the channel, whose list and .bib are the
// channel's.
func TestE2EListButtonsAndChannelList(t *testing.T) {
	store := memoryStore(t)
	h := startMemoryBot(t, store, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "learning")
	ids := paperIDsOf(t, m)
	click(t, h, m, "U1", "save:0")
	click(t, h, m, "U1", "save:1")
	h.WaitEphemeral("C1", "U1", 3)
	env, err := h.srv.Choose(m, "U1", "card-menu:2", "channel "+ids[2])
	if err != nil {
		t.Fatal(err)
	}
	h.WaitAck(env)
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 4)); !strings.Contains(text, "this channel's reading list") {
		t.Fatalf("save for channel:\n%s", text)
	}

	env, err = h.srv.Choose(m, "U1", "card-menu:0", "bibtex "+ids[0])
	if err != nil {
		t.Fatal(err)
	}
	h.WaitAck(env)
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 5)); !bibEntry.MatchString(strings.Trim(text, "`")) {
		t.Fatalf("BibTeX menu item shows:\n%s", text)
	}

	h.Slash("U1", "C1", "list")
	list := h.WaitEphemeral("C1", "U1", 6)
	click(t, h, list, "U1", "list-read:0")
	if err := h.srv.WaitFor(wait, func() bool {
		l, _ := store.List(context.Background(), memory.User("U1"))
		return len(l) == 2 && l[0].Read
	}); err != nil {
		t.Fatal("Mark read did not mark the first paper read")
	}
	var replaced slacktest.Message
	h.srv.WaitFor(wait, func() bool {
		replaced = h.srv.Ephemerals("C1", "U1")[5]
		return replaced.Edits == 1
	})
	if text := bottest.BlockTexts(t, replaced); !strings.Contains(text, "1 read") || !bottest.HasButton(t, replaced, "list-rm:1") {
		t.Fatalf("list after Mark read:\n%s", text)
	}
	click(t, h, replaced, "U1", "list-rm:1")
	if err := h.srv.WaitFor(wait, func() bool {
		l, _ := store.List(context.Background(), memory.User("U1"))
		return len(l) == 1
	}); err != nil {
		t.Fatal("Remove did not remove")
	}

	h.Slash("U2", "C1", "list channel")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U2", 1)); !strings.Contains(text, ids[2]) || !strings.Contains(text, "<@U1>") {
		t.Fatalf("channel list:\n%s", text)
	}
	h.Slash("U2", "C1", "bibtex channel")
	h.WaitEphemeral("C1", "U2", 2)
	files := h.srv.Files("C1")
	if len(files) != 1 || len(bibEntry.FindAllString(string(files[0].Content), -1)) != 1 {
		t.Fatalf("channel .bib: %+v", files)
	}
}

// withdrawn hides one paper from Get, as if it had left the index.
type withdrawn struct {
	*search.Index
	id string
}

func (w withdrawn) Get(id string) (search.Paper, error) {
	if id == w.id {
		return search.Paper{}, fault.E("get", fault.NotFound, "no such paper")
	}
	return w.Index.Get(id)
}

// TestE2EThousandPapersPageAndExportWhole, and a paper that left the index
// stays on the list, marked.
func TestE2EThousandPapersPageAndExportWhole(t *testing.T) {
	store := memoryStore(t)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	real := seedPapers(t)[0]
	for i := range 1000 {
		p := search.Paper{ID: fmt.Sprintf("p%04d", i), Title: fmt.Sprintf("Paper number %d", i), Authors: []string{"Ann Author"}, Year: 2024}
		if i == 999 {
			p = real
		}
		if _, err := store.Save(ctx, memory.User("U1"), memory.Saved{Paper: p, SavedAt: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	h := startMemoryBot(t, store, harnessOpts{search: withdrawn{testIndex(t), real.ID}})
	h.Slash("U1", "C1", "list")
	m := h.WaitEphemeral("C1", "U1", 1)
	text := bottest.BlockTexts(t, m)
	if !strings.Contains(text, "1000 papers") || !strings.Contains(text, "page 1 of 100") || !strings.Contains(text, "no longer in the index") {
		t.Fatalf("first page:\n%s", text)
	}
	click(t, h, m, "U1", "list-page:next")
	if text := bottest.BlockTexts(t, h.WaitReplaced("C1", "U1", 1)); !strings.Contains(text, "page 2 of 100") || !strings.Contains(text, "p0989") {
		t.Fatalf("second page:\n%s", text)
	}
	h.Slash("U1", "C1", "bibtex")
	h.WaitEphemeral("C1", "U1", 2)
	files := h.srv.Files("U1")
	if len(files) != 1 || len(bibEntry.FindAllString(string(files[0].Content), -1)) != 1000 {
		t.Fatalf("the .bib of 1000 papers has %d entries", len(bibEntry.FindAllString(string(files[0].Content), -1)))
	}
}

// TestE2EVotesAndForgetMe: votes on a shared card show on it, a second
// click takes the vote back, reactions on the bot's post count, and
// "forget me" deletes the user's votes and list.
func TestE2EVotesAndForgetMe(t *testing.T) {
	store := memoryStore(t)
	ctx := context.Background()
	h := startMemoryBot(t, store, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "protein conformations")
	ids := paperIDsOf(t, m)
	click(t, h, m, "U1", "share:0")
	var shared slacktest.Message
	h.srv.WaitFor(wait, func() bool {
		ms := bottest.BotMessages(h.srv.Messages("C1"))
		if len(ms) == 1 {
			shared = ms[0]
		}
		return len(ms) == 1
	})
	click(t, h, shared, "U2", "vote:up:0")
	waitMessage := func(edits int) slacktest.Message {
		t.Helper()
		var got slacktest.Message
		if err := h.srv.WaitFor(wait, func() bool {
			got = bottest.BotMessages(h.srv.Messages("C1"))[0]
			return got.Edits == edits
		}); err != nil {
			t.Fatalf("shared card not updated %d times (%d)\n%s", edits, got.Edits, h.logs)
		}
		return got
	}
	if text := string(waitMessage(1).Blocks); !strings.Contains(text, `":+1: 1"`) {
		t.Fatalf("card after a vote does not show it:\n%s", text)
	}
	click(t, h, waitMessage(1), "U2", "vote:up:0")
	if text := string(waitMessage(2).Blocks); strings.Contains(text, `":+1: 1"`) {
		t.Fatalf("a second click did not take the vote back:\n%s", text)
	}
	click(t, h, waitMessage(2), "U2", "vote:down:0")
	waitMessage(3)
	if v, _ := store.VoteOf(ctx, "C1", "U2", ids[0]); v != memory.Down {
		t.Fatalf("U2's vote %d, want the latest (down)", v)
	}

	if _, err := h.srv.React("C1", shared.TS, "U3", "+1::skin-tone-3"); err != nil {
		t.Fatal(err)
	}
	if err := h.srv.WaitFor(wait, func() bool { v, _ := store.VoteOf(ctx, "C1", "U3", ids[0]); return v == memory.Up }); err != nil {
		t.Fatalf(":+1: on the post did not count:\n%s", h.logs)
	}
	if _, err := h.srv.Unreact("C1", shared.TS, "U3", "+1::skin-tone-3"); err != nil {
		t.Fatal(err)
	}
	if err := h.srv.WaitFor(wait, func() bool { v, _ := store.VoteOf(ctx, "C1", "U3", ids[0]); return v == 0 }); err != nil {
		t.Fatal("taking the reaction back kept the vote")
	}

	if _, err := store.Save(ctx, memory.User("U2"), memory.Saved{Paper: search.Paper{ID: ids[0]}, SavedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	h.Slash("U2", "C1", "forget me")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U2", 1)); !strings.Contains(text, "1 vote and the 1 paper") {
		t.Fatalf("forget me:\n%s", text)
	}
	if v, _ := store.VoteOf(ctx, "C1", "U2", ids[0]); v != 0 {
		t.Error("U2's vote survived forget me")
	}
	if l, _ := store.List(ctx, memory.User("U2")); len(l) != 0 {
		t.Error("U2's list survived forget me")
	}
}

// TestE2EHomeShowsOnlyTheUsersList: App Home lists the user's own saved
// papers, nobody else's.
func TestE2EHomeShowsOnlyTheUsersList(t *testing.T) {
	store := memoryStore(t)
	ctx := context.Background()
	for _, u := range []string{"U1", "U2"} {
		p := seedPapers(t)[map[string]int{"U1": 0, "U2": 1}[u]]
		store.Save(ctx, memory.User(u), memory.Saved{Paper: p, SavedAt: time.Now()})
	}
	h := startMemoryBot(t, store, harnessOpts{})
	h.srv.AppHomeOpened("U1")
	var text string
	if err := h.srv.WaitFor(wait, func() bool {
		vs := h.srv.HomeViews("U1")
		if len(vs) == 0 {
			return false
		}
		var blocks any
		json.Unmarshal(vs[len(vs)-1].Blocks, &blocks)
		text = strings.Join(bottest.Texts(blocks), "\n")
		return true
	}); err != nil {
		t.Fatal("no Home view")
	}
	mine, theirs := seedPapers(t)[0].ID, seedPapers(t)[1].ID
	if !strings.Contains(text, "Your reading list") || !strings.Contains(text, mine) || strings.Contains(text, theirs) {
		t.Fatalf("Home of U1:\n%s", text)
	}
	// Mark read in App Home marks it and shows Home again.
	views := len(h.srv.HomeViews("U1"))
	env, err := h.srv.BlockAction(slacktest.ActionOpts{UserID: "U1", ActionID: "list-read:0", Home: true})
	if err != nil {
		t.Fatal(err)
	}
	h.WaitAck(env)
	if err := h.srv.WaitFor(wait, func() bool {
		l, _ := store.List(ctx, memory.User("U1"))
		return len(l) == 1 && l[0].Read && len(h.srv.HomeViews("U1")) > views
	}); err != nil {
		t.Fatalf("Mark read in App Home: %v\n%s", err, h.logs)
	}
	if l, _ := store.List(ctx, memory.User("U2")); l[0].Read {
		t.Fatal("U1's click marked U2's paper")
	}
}

// TestE2EMemoryOffSaysWhy: without a store, Save and /paper list say what
// is missing instead of doing nothing.
func TestE2EMemoryOffSaysWhy(t *testing.T) {
	h := startBot(t, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "protein conformations")
	click(t, h, m, "U1", "save:0")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 2)); !strings.Contains(text, "PAPERBOT_DATA_DIR") {
		t.Fatalf("Save without a store:\n%s", text)
	}
	h.Slash("U1", "C1", "list")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 3)); !strings.Contains(text, "PAPERBOT_DATA_DIR") {
		t.Fatalf("list without a store:\n%s", text)
	}
}

// TestE2EListAndBibTeXWordsStillSearch: "list papers on …" is a search, and
// "bibtex ID" shows that paper's entry.
func TestE2EListAndBibTeXWordsStillSearch(t *testing.T) {
	h := startMemoryBot(t, memoryStore(t), harnessOpts{})
	h.Slash("U1", "C1", "list papers on protein conformations")
	m := h.WaitEphemeral("C1", "U1", 1)
	if len(paperIDsOf(t, m)) == 0 {
		t.Fatalf("not a search:\n%s", bottest.BlockTexts(t, m))
	}
	id := paperIDsOf(t, m)[0]
	h.Slash("U1", "C1", "bibtex "+id)
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 2)); !bibEntry.MatchString(strings.Trim(text, "`")) {
		t.Fatalf("bibtex %s:\n%s", id, text)
	}
}
