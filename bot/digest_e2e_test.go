package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/search"
)

// digestClock is the test's settable time, shared by the emulator, the
// commands and the scheduler.
type digestClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *digestClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *digestClock) Set(t time.Time)     { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }
func (c *digestClock) Add(d time.Duration) { c.Set(c.Now().Add(d)) }

// digestBot is the real bot with digests, a bbolt store and a fake clock,
// running against the emulator. The test drives the scheduler with Tick.
type digestBot struct {
	*harness
	clock *digestClock
	store *boltstore.Store
	d     *Digests
	sched *digest.Scheduler
}

// monday0700UTC is the default start: Monday 10 March 2025, 07:00 UTC.
var monday0700UTC = time.Date(2025, 3, 10, 7, 0, 0, 0, time.UTC)

func startDigestBot(t *testing.T, cfg digest.Config, srvOpts ...slacktest.Option) *digestBot {
	t.Helper()
	return startDigestBotOn(t, testIndex(t), cfg, srvOpts...)
}

// startDigestBotOn is startDigestBot over a given index.
func startDigestBotOn(t *testing.T, ix *search.Index, cfg digest.Config, srvOpts ...slacktest.Option) *digestBot {
	t.Helper()
	return startDigestBotWith(t, ix, cfg, nil, srvOpts...)
}

// startDigestBotWith is startDigestBotOn with options for the bot.
func startDigestBotWith(t *testing.T, ix *search.Index, cfg digest.Config, botOpts []Option, srvOpts ...slacktest.Option) *digestBot {
	t.Helper()
	store := memoryStore(t)
	return launchDigestBot(t, store, store, ix, cfg, harnessOpts{srv: srvOpts, bot: botOpts, search: ix})
}

// launchDigestBot starts the bot with digests kept in ds (store, or a
// wrapper of it) and drawn from searcher, on the fake clock, o adding
// emulator and bot options; it waits until the bot is ready.
func launchDigestBot(t *testing.T, store *boltstore.Store, ds digest.Store, searcher digest.Searcher, cfg digest.Config, o harnessOpts) *digestBot {
	t.Helper()
	clock := &digestClock{t: monday0700UTC}
	cfg.Now = clock.Now
	d := NewDigests(ds, searcher, cfg)
	o.srv = append([]slacktest.Option{slacktest.WithClock(clock.Now)}, o.srv...)
	o.bot = append(d.Options(), o.bot...)
	h := newHarness(t, o)
	sched, err := d.Attach(h.bot)
	if err != nil {
		t.Fatal(err)
	}
	h.Start(h.bot)
	return &digestBot{harness: h, clock: clock, store: store, d: d, sched: sched}
}

// tickAt moves the clock and runs one scheduler round.
func (b *digestBot) tickAt(t time.Time) {
	b.t.Helper()
	b.clock.Set(t)
	if err := b.sched.Tick(context.Background(), t); err != nil {
		b.t.Fatalf("tick: %v", err)
	}
}

// subscribe runs /paper subscribe, clicks Confirm on the preview and
// returns the subscription it created.
func (b *digestBot) subscribe(user, channel, args string) digest.Subscription {
	b.t.Helper()
	before, _ := b.store.ByChannel(context.Background(), channel)
	n := b.EphemeralCount(channel, user)
	b.Slash(user, channel, "subscribe "+args)
	preview := b.WaitEphemeral(channel, user, n+1)
	if !strings.Contains(string(preview.Blocks), actionSubConfirm) {
		b.t.Fatalf("preview has no Confirm button: %s %s", preview.Text, preview.Blocks)
	}
	if _, err := b.srv.Click(preview, user, actionSubConfirm); err != nil {
		b.t.Fatal(err)
	}
	var created digest.Subscription
	err := b.srv.WaitFor(wait, func() bool {
		subs, _ := b.store.ByChannel(context.Background(), channel)
		if len(subs) > len(before) {
			created = subs[len(subs)-1]
			return true
		}
		return false
	})
	if err != nil {
		b.t.Fatalf("Confirm created no subscription: %v\nlogs:\n%s", err, b.logs)
	}
	return created
}

// digests returns the bot's top-level digest messages in channel.
func (b *digestBot) digests(channel string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range b.srv.Messages(channel) {
		if m.Metadata != nil && m.Metadata.EventType == DigestEventType {
			out = append(out, m)
		}
	}
	return out
}

// wireText is every text and value in wire blocks, decoded, one per line.
func wireText(raw json.RawMessage) string {
	var v any
	json.Unmarshal(raw, &v)
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			out = append(out, x)
		}
	}
	walk(v)
	return strings.Join(out, "\n")
}

// allPaperIDs lists the papers of a digest message and its thread.
func (b *digestBot) allPaperIDs(t *testing.T, m slacktest.Message) []string {
	ids := paperIDs(t, m)
	for _, r := range b.srv.Thread(m.Channel, m.TS) {
		ids = append(ids, paperIDs(t, r)...)
	}
	return ids
}

// paperIDs lists the paper IDs a digest message shows (its button values).
func paperIDs(t *testing.T, m slacktest.Message) []string {
	t.Helper()
	var blocks []struct {
		Type     string `json:"type"`
		Elements []struct {
			ActionID string `json:"action_id"`
			Value    string `json:"value"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range blocks {
		for _, e := range b.Elements {
			if strings.HasPrefix(e.ActionID, actionAbstract+":") {
				ids = append(ids, e.Value)
			}
		}
	}
	return ids
}

func TestDigestSubscribePreviewConfirmAndPost(t *testing.T) {
	b := startDigestBot(t, digest.Config{Papers: 3})
	b.srv.SetUser(slacktest.User{ID: "UALICE001", TZ: "America/New_York"})
	b.srv.SetChannel("CPAPERS01", slacktest.Channel{Name: "papers", Member: true})

	// Preview: counts and the top three, nothing stored before Confirm.
	b.Slash("UALICE001", "CPAPERS01", "subscribe protein conformations at 08:30")
	preview := b.WaitEphemeral("CPAPERS01", "UALICE001", 1)
	for _, want := range []string{"match now", "The top three", "08:30 weekdays, America/New_York", "Confirm", "Cancel"} {
		if !strings.Contains(preview.Text+string(preview.Blocks), want) {
			t.Errorf("preview lacks %q: %s", want, preview.Blocks)
		}
	}
	if subs, _ := b.store.ByChannel(context.Background(), "CPAPERS01"); len(subs) != 0 {
		t.Fatalf("preview stored a subscription: %+v", subs)
	}
	// Cancel removes the preview and creates nothing.
	if _, err := b.srv.Click(preview, "UALICE001", actionSubCancel); err != nil {
		t.Fatal(err)
	}
	if err := b.srv.WaitFor(wait, func() bool { return b.EphemeralCount("CPAPERS01", "UALICE001") == 0 }); err != nil {
		t.Fatalf("Cancel left the preview: %v", err)
	}

	sub := b.subscribe("UALICE001", "CPAPERS01", "protein conformations at 08:30")
	if sub.Schedule.TZ != "America/New_York" || sub.Schedule.Hour != 8 || sub.Schedule.Minute != 30 || sub.CreatedBy != "UALICE001" {
		t.Fatalf("subscription = %+v, want 08:30 in the user's zone", sub)
	}
	if err := b.srv.WaitFor(wait, func() bool {
		es := b.srv.Ephemerals("CPAPERS01", "UALICE001")
		return len(es) > 0 && strings.Contains(es[len(es)-1].Text, "Subscribed")
	}); err != nil {
		t.Fatalf("no confirmation: %v", err)
	}

	// Monday 10 March: 08:30 New York is 12:30 UTC (EDT since the 9th).
	ny, _ := time.LoadLocation("America/New_York")
	day := func(d, h, m int) time.Time { return time.Date(2025, 3, 10+d, h, m, 0, 0, ny) }
	b.tickAt(day(0, 8, 29))
	if n := len(b.digests("CPAPERS01")); n != 0 {
		t.Fatalf("%d digests before 08:30 local", n)
	}
	b.tickAt(day(0, 8, 30))
	b.tickAt(day(0, 8, 31))
	first := b.digests("CPAPERS01")
	if len(first) != 1 {
		t.Fatalf("%d digests at 08:30 local, want 1", len(first))
	}
	if got := first[0].PostedAt.In(ny).Format("15:04"); got != "08:30" {
		t.Fatalf("digest posted at %s New York time", got)
	}
	m := first[0]
	if m.Metadata.EventPayload["run"] != sub.ID+"/2025-03-10" {
		t.Fatalf("metadata = %+v", m.Metadata)
	}
	if !strings.Contains(string(m.Blocks), "Manage: `/paper subscriptions`") || !strings.Contains(string(m.Blocks), "Why this") ||
		!strings.Contains(m.Text, "protein conformations") || m.Params.Get("unfurl_links") != "false" {
		t.Fatalf("digest message lacks header, why line, footer or unfurl off: %s %s", m.Text, m.Blocks)
	}
	ids0 := paperIDs(t, m)
	if len(ids0) != 3 {
		t.Fatalf("first digest shows %v, want 3 papers", ids0)
	}

	// Tuesday: a new digest, none of Monday's papers again.
	b.tickAt(day(1, 8, 30))
	all := b.digests("CPAPERS01")
	if len(all) != 2 {
		t.Fatalf("%d digests after Tuesday, want 2", len(all))
	}
	for _, id := range paperIDs(t, all[1]) {
		for _, old := range ids0 {
			if id == old {
				t.Fatalf("paper %s posted again on Tuesday", id)
			}
		}
	}
	// Wednesday to Friday at 08:30, then Saturday, which is not a weekday.
	for d := 2; d <= 5; d++ {
		b.tickAt(day(d, 8, 30))
	}
	// Every weekday has its run; once the topic's seed papers are all
	// posted the runs end "nothing new" and post nothing.
	posted := 0
	for d := 0; d < 5; d++ {
		r, err := b.store.GetRun(context.Background(), digest.RunKey{SubscriptionID: sub.ID, Day: digest.DateOf(day(d, 12, 0))})
		switch {
		case err != nil:
			t.Fatalf("day %d: %v", d, err)
		case r.State == digest.Posted:
			posted++
		case r.State != digest.Skipped || r.Reason != "nothing new":
			t.Fatalf("day %d run = %+v", d, r)
		}
	}
	seen := map[string]bool{}
	all = b.digests("CPAPERS01")
	for _, m := range all {
		for _, id := range paperIDs(t, m) {
			if seen[id] {
				t.Fatalf("paper %s posted twice", id)
			}
			seen[id] = true
		}
	}
	if len(all) != posted || posted < 2 {
		t.Fatalf("%d digest messages for %d posted runs", len(all), posted)
	}

	// The list shows the subscription with the next run in Slack date format.
	n := b.EphemeralCount("CPAPERS01", "UALICE001")
	b.Slash("UALICE001", "CPAPERS01", "subscriptions")
	list := b.WaitEphemeral("CPAPERS01", "UALICE001", n+1)
	for _, want := range []string{"protein conformations", sub.ID, "<!date^", "<@UALICE001>", "papers posted", actionSubRemove} {
		if !strings.Contains(wireText(list.Blocks), want) {
			t.Errorf("subscriptions list lacks %q: %s", want, list.Blocks)
		}
	}
	// /paper digest previews privately.
	b.Slash("UALICE001", "CPAPERS01", "digest")
	pv := b.WaitEphemeral("CPAPERS01", "UALICE001", n+2)
	if txt := wireText(pv.Blocks); !strings.Contains(txt, "protein conformations") || !strings.Contains(txt, "<!date^") {
		t.Errorf("digest preview: %s", pv.Blocks)
	}
	// App Home lists it with its channel.
	b.srv.AppHomeOpened("UALICE001")
	if err := b.srv.WaitFor(wait, func() bool {
		vs := b.srv.HomeViews("UALICE001")
		return len(vs) > 0 && strings.Contains(wireText(vs[len(vs)-1].Blocks), "Your paper digests") &&
			strings.Contains(wireText(vs[len(vs)-1].Blocks), "<#CPAPERS01>")
	}); err != nil {
		t.Fatalf("App Home lacks the subscription: %v", err)
	}
	// Unsubscribe with the button: the list updates in place and no more digests come.
	if _, err := b.srv.Click(list, "UALICE001", actionSubRemove+":0"); err != nil {
		t.Fatal(err)
	}
	if err := b.srv.WaitFor(wait, func() bool { _, err := b.store.Get(context.Background(), sub.ID); return err != nil }); err != nil {
		t.Fatalf("Unsubscribe button did not delete: %v", err)
	}
	b.tickAt(day(7, 8, 30))
	if n := len(b.digests("CPAPERS01")); n != posted {
		t.Fatalf("a digest came after unsubscribing (%d)", n)
	}
	if c := b.sched.Counts(); c.Posted != int64(posted) {
		t.Fatalf("counts %+v", c)
	}
}

func TestDigestUnsubscribeByID(t *testing.T) {
	b := startDigestBot(t, digest.Config{})
	sub := b.subscribe("UBOB00001", "CPAPERS02", "graph neural networks")
	b.Slash("UBOB00001", "COTHER001", "unsubscribe "+sub.ID)
	e := b.WaitEphemeral("COTHER001", "UBOB00001", 1)
	if !strings.Contains(e.Text, "No subscription") {
		t.Fatalf("unsubscribing from another channel: %q", e.Text)
	}
	n := b.EphemeralCount("CPAPERS02", "UBOB00001")
	b.Slash("UBOB00001", "CPAPERS02", "unsubscribe "+strings.ToUpper(sub.ID))
	e = b.WaitEphemeral("CPAPERS02", "UBOB00001", n+1)
	if !strings.Contains(e.Text, "Unsubscribed") {
		t.Fatalf("reply %q", e.Text)
	}
	if _, err := b.store.Get(context.Background(), sub.ID); err == nil {
		t.Fatal("subscription still there")
	}
	// By its topic, as the list shows it: people remember the topic.
	sub = b.subscribe("UBOB00001", "CPAPERS02", "protein design")
	n = b.EphemeralCount("CPAPERS02", "UBOB00001")
	b.Slash("UBOB00001", "CPAPERS02", "unsubscribe Protein  Design")
	if e = b.WaitEphemeral("CPAPERS02", "UBOB00001", n+1); !strings.Contains(e.Text, "Unsubscribed") || !strings.Contains(e.Text, sub.ID) {
		t.Fatalf("unsubscribe by topic: reply %q", e.Text)
	}
	if _, err := b.store.Get(context.Background(), sub.ID); err == nil {
		t.Fatal("subscription still there after unsubscribing by topic")
	}
}

func TestDigestPrivateChannelRefusedUpFront(t *testing.T) {
	b := startDigestBot(t, digest.Config{})
	b.srv.SetChannel("GSECRET01", slacktest.Channel{Name: "secret", Private: true})
	b.Slash("UCAROL001", "GSECRET01", "subscribe diffusion models")
	e := b.WaitEphemeral("GSECRET01", "UCAROL001", 1)
	if !strings.Contains(e.Text, "/invite @") || !strings.Contains(e.Text, "private channel") {
		t.Fatalf("refusal %q lacks the /invite advice", e.Text)
	}
	if strings.Contains(string(e.Blocks), actionSubConfirm) {
		t.Fatal("a refused subscription still offers Confirm")
	}
	// Invited: the same command now previews.
	b.srv.SetChannel("GSECRET01", slacktest.Channel{Name: "secret", Private: true, Member: true})
	sub := b.subscribe("UCAROL001", "GSECRET01", "diffusion models")
	if sub.ChannelID != "GSECRET01" {
		t.Fatalf("subscription %+v", sub)
	}
}

func TestDigestArchivedChannelPausesAndDMsCreator(t *testing.T) {
	b := startDigestBot(t, digest.Config{})
	sub := b.subscribe("UDAVE0001", "CARCHIVE1", "protein at 09:00 tz UTC daily")
	b.srv.SetChannel("CARCHIVE1", slacktest.Channel{Member: true, Archived: true})
	b.tickAt(time.Date(2025, 3, 10, 9, 0, 30, 0, time.UTC))
	got, _ := b.store.Get(context.Background(), sub.ID)
	if !got.Paused || !strings.Contains(got.PauseReason, "archived") {
		t.Fatalf("subscription = %+v, want paused: archived", got)
	}
	dms := bottest.BotMessages(b.srv.Messages(b.srv.DMChannel("UDAVE0001")))
	if len(dms) != 1 || !strings.Contains(dms[0].Text, "archived") || !strings.Contains(dms[0].Text, "/paper resume "+sub.ID) ||
		!strings.Contains(dms[0].Text, "/invite @paperbot") {
		t.Fatalf("DMs to the creator = %+v", dms)
	}
	// Paused: the next days pass without attempts or more DMs.
	calls := len(b.srv.Calls("chat.postMessage")) // the refused digest and the DM
	b.tickAt(time.Date(2025, 3, 12, 9, 0, 30, 0, time.UTC))
	if n := len(b.srv.Calls("chat.postMessage")); n != calls || calls != 2 {
		t.Fatalf("chat.postMessage calls: %d while paused, %d before; want 2 (refused post, DM) and no more", n, calls)
	}
	// Unarchived and resumed: digests come again.
	b.srv.SetChannel("CARCHIVE1", slacktest.Channel{Member: true})
	b.Slash("UDAVE0001", "CARCHIVE1", "resume "+sub.ID)
	if err := b.srv.WaitFor(wait, func() bool { s, _ := b.store.Get(context.Background(), sub.ID); return !s.Paused }); err != nil {
		t.Fatalf("resume: %v", err)
	}
	b.tickAt(time.Date(2025, 3, 13, 9, 0, 30, 0, time.UTC))
	if n := len(b.digests("CARCHIVE1")); n != 1 {
		t.Fatalf("%d digests after resume, want 1", n)
	}
}

func TestDigestCatchUpWithinAndBeyondGrace(t *testing.T) {
	b := startDigestBot(t, digest.Config{})
	within := b.subscribe("UERIN0001", "CCATCH001", "protein at 09:00 tz UTC daily")
	beyond := b.subscribe("UERIN0001", "CCATCH002", "graph at 03:00 tz UTC daily")
	// The bot was down from 07:00 until 14:00: 09:00 is 5h late, 03:00 (the
	// next day's) is not due; yesterday's 03:00 was before the subscription.
	b.tickAt(time.Date(2025, 3, 10, 14, 0, 0, 0, time.UTC))
	late := b.digests("CCATCH001")
	if len(late) != 1 || !strings.Contains(string(late[0].Blocks), "Catch-up digest for *Mon 10 Mar 2025*") {
		t.Fatalf("catch-up within grace: %+v", late)
	}
	// Down again from Tuesday 02:00 until 10:00: 03:00 is 7h late, beyond the 6h grace.
	b.tickAt(time.Date(2025, 3, 11, 2, 0, 0, 0, time.UTC))
	b.tickAt(time.Date(2025, 3, 11, 10, 0, 0, 0, time.UTC))
	if n := len(b.digests("CCATCH002")); n != 0 {
		t.Fatalf("%d digests beyond grace, want 0", n)
	}
	r, err := b.store.GetRun(context.Background(), digest.RunKey{SubscriptionID: beyond.ID, Day: digest.Date{Year: 2025, Month: 3, Day: 11}})
	if err != nil || r.State != digest.Skipped || !strings.Contains(r.Reason, "beyond the 6h0m0s grace") {
		t.Fatalf("run beyond grace = %+v, %v", r, err)
	}
	if c := b.sched.Counts(); c.SkippedLate != 1 || c.Posted != 2 {
		t.Fatalf("counts %+v, want 1 skipped (logged) and 2 posted", c)
	}
	if !strings.Contains(b.logs.String(), "digest skipped") {
		t.Fatalf("skip not logged:\n%s", b.logs)
	}
	rec := httptest.NewRecorder()
	b.bot.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{`paperbot_digest_runs_total{outcome="skipped_late"} 1`, `paperbot_digest_runs_total{outcome="posted"} 2`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if r, _ := b.store.GetRun(context.Background(), digest.RunKey{SubscriptionID: within.ID, Day: digest.Date{Year: 2025, Month: 3, Day: 10}}); r.State != digest.Posted {
		t.Fatalf("run within grace = %+v", r)
	}
}

func TestDigestDryRun(t *testing.T) {
	b := startDigestBot(t, digest.Config{})
	sub := b.subscribe("UGRACE001", "CDRYRUN01", "protein conformations at 09:00 tz Europe/Berlin")
	out, err := DigestDryRun(context.Background(), b.store, testIndex(t), "CDRYRUN01", 3, b.clock.Now(), digest.Fresh{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{sub.ID, "protein conformations", "09:00 weekdays, Europe/Berlin", "2025-03-10T09:00:00+01:00", "# New papers: protein conformations", "Why this"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	if len(b.srv.Calls("chat.postMessage")) != 0 {
		t.Fatal("the dry run posted")
	}
	if runs, _ := b.store.Unfinished(context.Background()); len(runs) != 0 {
		t.Fatal("the dry run claimed a run")
	}
	out, err = DigestDryRun(context.Background(), b.store, testIndex(t), "CNOTHING1", 3, b.clock.Now(), digest.Fresh{})
	if err != nil || !strings.Contains(out, "no active subscriptions") {
		t.Fatalf("dry run of an empty channel: %q, %v", out, err)
	}
}

// TestDigestRateLimitStorm: 50 subscriptions in 50 channels due the same
// minute while chat.postMessage answers 429 in bursts: every channel gets
// exactly one digest.
func TestDigestRateLimitStorm(t *testing.T) {
	// Retry-After is honoured (TestE2ERateLimitedReplyArrivesOnce waits it
	// out for real); here each wait is a millisecond, so 30 of them cost
	// no wall-clock seconds.
	var waits atomic.Int64
	instant := WithRetryWait(func(retryAfter time.Duration) time.Duration {
		if retryAfter >= time.Second {
			waits.Add(1)
		}
		return time.Millisecond
	})
	b := startDigestBotWith(t, testIndex(t), digest.Config{Concurrency: 8}, []Option{instant})
	ctx := context.Background()
	for i := range 50 {
		sub := digest.Subscription{ID: fmt.Sprintf("s%05d", 0)[:1] + stormID(i), ChannelID: fmt.Sprintf("CSTORM%03d", i), CreatedBy: "USTORM001",
			Topic: "learning", Schedule: digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily}, CreatedAt: b.clock.Now()}
		b.srv.SetChannel(sub.ChannelID, slacktest.Channel{Member: true})
		if err := b.store.Create(ctx, sub); err != nil {
			t.Fatal(err)
		}
	}
	b.srv.RateLimit("chat.postMessage", 30, time.Second)
	start := time.Now()
	at := time.Date(2025, 3, 10, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 10; i++ { // ticks 30 s apart until everything is posted
		b.tickAt(at.Add(time.Duration(i) * 30 * time.Second))
		if b.sched.Counts().Posted+b.sched.Counts().Recovered == 50 {
			break
		}
	}
	for i := range 50 {
		ch := fmt.Sprintf("CSTORM%03d", i)
		if n := len(b.digests(ch)); n != 1 {
			t.Errorf("%s got %d digests, want 1", ch, n)
		}
	}
	var limited int
	for _, c := range b.srv.Calls("chat.postMessage") {
		if c.Status == 429 {
			limited++
		}
	}
	c := b.sched.Counts()
	t.Logf("50 digests through %d 429s in %s (%d posted, %d recovered, %d retries)", limited, time.Since(start).Round(time.Millisecond), c.Posted, c.Recovered, c.Retries)
	if limited != 30 {
		t.Fatalf("%d rate-limited calls, want the 30 injected", limited)
	}
	if n := waits.Load(); n == 0 || n > int64(limited) {
		t.Errorf("%d waits of at least Retry-After (1s) asked for, want between 1 and %d", n, limited)
	}
}

func stormID(i int) string {
	const a = "abcdefghjkmnpqrstuvwxyz23456789"
	return string([]byte{'z', 'z', 'z', a[i/len(a)], a[i%len(a)]})
}

// TestDigestNewPapersBecomeEligible: after the topic runs dry, a re-index
// with more papers fills the next digest with only the new ones.
func TestDigestNewPapersBecomeEligible(t *testing.T) {
	all := seedPapers(t)
	ix, err := search.Open(context.Background(), &search.Corpus{Papers: all[:20]}, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	b := startDigestBotOn(t, ix, digest.Config{Papers: digest.MaxPapers}) // all 20 papers fit in one digest
	sub := b.subscribe("UFRAN0001", "CGROW0001", "learning at 09:00 tz UTC daily")
	b.tickAt(time.Date(2025, 3, 10, 9, 0, 0, 0, time.UTC))
	b.tickAt(time.Date(2025, 3, 11, 9, 0, 0, 0, time.UTC))
	first := b.digests("CGROW0001")
	if len(first) != 1 {
		t.Fatalf("%d digests over two days from 20 papers, want 1 then nothing new", len(first))
	}
	before := map[string]bool{}
	for _, m := range first {
		for _, id := range b.allPaperIDs(t, m) {
			before[id] = true
		}
	}
	if err := ix.Reload(context.Background(), &search.Corpus{Papers: all}); err != nil {
		t.Fatal(err)
	}
	b.tickAt(time.Date(2025, 3, 12, 9, 0, 0, 0, time.UTC))
	got := b.digests("CGROW0001")
	if len(got) != 2 {
		t.Fatalf("%d digests after the re-index, want 2", len(got))
	}
	ids := b.allPaperIDs(t, got[1])
	if len(ids) == 0 {
		t.Fatal("the digest after the re-index is empty")
	}
	inFirst := map[string]bool{}
	for _, p := range all[:20] {
		inFirst[p.ID] = true
	}
	for _, id := range ids {
		if before[id] || inFirst[id] {
			t.Fatalf("paper %s was in the corpus before the re-index", id)
		}
	}
	s, _ := b.store.Get(context.Background(), sub.ID)
	if s.PostedCount != len(before)+len(ids) {
		t.Fatalf("PostedCount = %d, want %d", s.PostedCount, len(before)+len(ids))
	}
}

func TestDigestCommandsInHelpWithinLimits(t *testing.T) {
	b := startDigestBot(t, digest.Config{})
	var names []string
	for _, c := range b.bot.Commands() {
		names = append(names, c.Name)
	}
	for _, want := range []string{cmdSubscribe, cmdSubscriptions, cmdUnsubscribe, cmdResume, cmdDigest} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("command table lacks %s: %v", want, names)
		}
	}
	rep := renderHelp(b.bot.Commands(), "/paper ", "@paperbot")
	checkDigestSafe(t, *rep)
	raw, _ := json.Marshal(rep.Blocks)
	if !strings.Contains(wireText(raw), "subscribe TOPIC [at HH:MM]") {
		t.Fatalf("help lacks the subscribe usage")
	}
}

// TestDigestThreadFinishedAfterAFailedReply: a digest longer than one
// message whose thread reply fails is finished on the next tick: the reply is
// posted once, the top message never again.
func TestDigestThreadFinishedAfterAFailedReply(t *testing.T) {
	b := startDigestBot(t, digest.Config{Papers: 15})
	sub := b.subscribe("ULONG0001", "CLONG0001", "learning at 09:00 tz UTC daily")
	b.srv.FailAfter("chat.postMessage", 1, "internal_error") // the top message passes, its reply fails
	b.tickAt(time.Date(2025, 3, 10, 9, 0, 0, 0, time.UTC))
	top := b.digests("CLONG0001")
	if len(top) != 1 || len(b.srv.Thread("CLONG0001", top[0].TS)) != 0 {
		t.Fatalf("after the failed reply: %d digests, thread %d", len(top), len(b.srv.Thread("CLONG0001", top[0].TS)))
	}
	key := digest.RunKey{SubscriptionID: sub.ID, Day: digest.Date{Year: 2025, Month: 3, Day: 10}}
	if r, _ := b.store.GetRun(context.Background(), key); r.State == digest.Posted {
		t.Fatal("a digest missing its thread was recorded as posted")
	}
	b.tickAt(time.Date(2025, 3, 10, 9, 1, 0, 0, time.UTC))
	b.tickAt(time.Date(2025, 3, 10, 9, 2, 0, 0, time.UTC))
	top = b.digests("CLONG0001")
	if len(top) != 1 {
		t.Fatalf("%d top-level digests, want 1", len(top))
	}
	ids := b.allPaperIDs(t, top[0])
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("paper %s posted twice: %v", id, ids)
		}
		seen[id] = true
	}
	r, err := b.store.GetRun(context.Background(), key)
	if err != nil || r.State != digest.Posted || len(ids) != len(r.Papers) || len(r.Papers) <= DigestPapersPerMessage {
		t.Fatalf("run %+v (%v): %d papers shown, want all of more than %d", r, err, len(ids), DigestPapersPerMessage)
	}
}
