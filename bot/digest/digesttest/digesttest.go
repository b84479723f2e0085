// Package digesttest is the conformance suite every digest.Store must pass,
// in the manner of testing/slogtest: run TestStore against a fresh store per
// case, and TestPersistence against stores that outlive their process.
package digesttest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
)

// T0 is the fixed instant the suite's data is built around.
var T0 = time.Date(2025, 3, 10, 8, 0, 0, 0, time.UTC)

// Sub returns a valid subscription with the given ID, channel and creator,
// created n minutes after T0.
func Sub(id, channel, user string, n int) digest.Subscription {
	return digest.Subscription{
		ID: id, ChannelID: channel, CreatedBy: user, Topic: "graph neural networks " + id,
		Schedule:  digest.Schedule{Hour: 9, Minute: 30, TZ: "Europe/Berlin", Every: digest.Weekly, Weekday: time.Tuesday},
		CreatedAt: T0.Add(time.Duration(n) * time.Minute),
	}
}

// Key returns the run key of subscription id on day n after 2025-03-10.
func Key(id string, n int) digest.RunKey {
	return digest.RunKey{SubscriptionID: id, Day: digest.Date{Year: 2025, Month: 3, Day: 10}.AddDays(n)}
}

// Claim returns a run ready for Store.Claim.
func Claim(key digest.RunKey, channel string) digest.Run {
	return digest.Run{Key: key, ChannelID: channel, Scheduled: T0, ClaimedAt: T0.Add(time.Minute)}
}

// TestStore runs the conformance suite. open must return a new, empty store
// for each call and close it when the test ends (t.Cleanup).
func TestStore(t *testing.T, open func(t *testing.T) digest.Store) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, open(t)) })
	}
}

type testCase struct {
	name string
	run  func(t *testing.T, s digest.Store)
}

var cases = []testCase{
	{"create then get returns every field", testCreateGet},
	{"create rejects invalid subscriptions", testCreateInvalid},
	{"create rejects a taken ID", testCreateExists},
	{"unknown IDs are not found", testNotFound},
	{"delete removes only that subscription", testDelete},
	{"lists filter and order", testLists},
	{"pause and resume", testPauseResume},
	{"claim: first claimer wins", testClaim},
	{"claim: one winner among concurrent claimers", testClaimConcurrent},
	{"claim rejects malformed runs", testClaimInvalid},
	{"run state machine", testTransitions},
	{"mark posted fills the ledger and counts in one step", testMarkPosted},
	{"mark posted is idempotent for the same ts", testMarkPostedTwice},
	{"ledger is per channel", testLedgerPerChannel},
	{"mark posted after the subscription was deleted", testPostedAfterDelete},
	{"unfinished lists claimed and posting runs", testUnfinished},
	{"returned values are copies", testCopies},
	{"concurrent posts count every paper", testConcurrentPosts},
}

var ctx = context.Background()

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
}

// SameSub fails t unless got and want are the same subscription (times compared as instants).
func SameSub(t *testing.T, got, want digest.Subscription) {
	t.Helper()
	norm := func(s digest.Subscription) string {
		s.CreatedAt, s.ResumedAt = s.CreatedAt.UTC().Round(0), s.ResumedAt.UTC().Round(0)
		return fmt.Sprintf("%+v", s)
	}
	if norm(got) != norm(want) {
		t.Fatalf("subscription\n got %s\nwant %s", norm(got), norm(want))
	}
}

func ids(subs []digest.Subscription) []string {
	var out []string
	for _, s := range subs {
		out = append(out, s.ID)
	}
	return out
}

func testCreateGet(t *testing.T, s digest.Store) {
	want := Sub("sabcde", "C1", "U1", 0)
	want.PostedCount = 3
	want.CreatedAt = want.CreatedAt.In(time.FixedZone("x", 3600)).Add(123 * time.Nanosecond)
	must(t, s.Create(ctx, want))
	got, err := s.Get(ctx, "sabcde")
	must(t, err)
	SameSub(t, got, want)
}

func testCreateInvalid(t *testing.T, s digest.Store) {
	for _, mod := range []func(*digest.Subscription){
		func(x *digest.Subscription) { x.ID = "bad id" },
		func(x *digest.Subscription) { x.ChannelID = "" },
		func(x *digest.Subscription) { x.Topic = " " },
		func(x *digest.Subscription) { x.Schedule.TZ = "Mars/Olympus" },
		func(x *digest.Subscription) { x.Schedule.Hour = 24 },
	} {
		sub := Sub("sabcde", "C1", "U1", 0)
		mod(&sub)
		wantErr(t, s.Create(ctx, sub), fault.Invalid)
	}
	_, err := s.Get(ctx, "sabcde")
	wantErr(t, err, fault.NotFound)
}

func testCreateExists(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("sabcde", "C1", "U1", 0)))
	wantErr(t, s.Create(ctx, Sub("sabcde", "C2", "U2", 1)), fault.Exists)
	got, err := s.Get(ctx, "sabcde")
	must(t, err)
	if got.ChannelID != "C1" {
		t.Fatalf("a refused create overwrote the subscription: %+v", got)
	}
}

func testNotFound(t *testing.T, s digest.Store) {
	_, err := s.Get(ctx, "szzzzz")
	wantErr(t, err, fault.NotFound)
	wantErr(t, s.Delete(ctx, "szzzzz"), fault.NotFound)
	wantErr(t, s.Pause(ctx, "szzzzz", "x"), fault.NotFound)
	wantErr(t, s.Resume(ctx, "szzzzz", T0), fault.NotFound)
	_, err = s.GetRun(ctx, Key("szzzzz", 0))
	wantErr(t, err, fault.NotFound)
	wantErr(t, s.Choose(ctx, Key("szzzzz", 0), nil, T0), fault.NotFound)
	wantErr(t, s.MarkPosted(ctx, Key("szzzzz", 0), "1.2", T0), fault.NotFound)
	wantErr(t, s.Finish(ctx, Key("szzzzz", 0), digest.Skipped, "x", T0), fault.NotFound)
	wantErr(t, s.Attempt(ctx, Key("szzzzz", 0), "x", T0), fault.NotFound)
}

func testDelete(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 0)))
	must(t, s.Create(ctx, Sub("sbbbbb", "C1", "U1", 1)))
	must(t, s.Delete(ctx, "saaaaa"))
	_, err := s.Get(ctx, "saaaaa")
	wantErr(t, err, fault.NotFound)
	list, err := s.ByChannel(ctx, "C1")
	must(t, err)
	if got := ids(list); !slices.Equal(got, []string{"sbbbbb"}) {
		t.Fatalf("after delete ByChannel = %v", got)
	}
}

func testLists(t *testing.T, s digest.Store) {
	// Created out of order: lists sort by CreatedAt, then ID.
	must(t, s.Create(ctx, Sub("sddddd", "C2", "U1", 3)))
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 1)))
	must(t, s.Create(ctx, Sub("scccc2", "C1", "U2", 2)))
	must(t, s.Create(ctx, Sub("sccccc", "C1", "U2", 2)))
	must(t, s.Pause(ctx, "saaaaa", "not in channel"))
	for _, c := range []struct {
		name string
		list func() ([]digest.Subscription, error)
		want []string
	}{
		{"by channel C1", func() ([]digest.Subscription, error) { return s.ByChannel(ctx, "C1") }, []string{"saaaaa", "scccc2", "sccccc"}},
		{"by channel C2", func() ([]digest.Subscription, error) { return s.ByChannel(ctx, "C2") }, []string{"sddddd"}},
		{"by channel none", func() ([]digest.Subscription, error) { return s.ByChannel(ctx, "C9") }, nil},
		{"by creator U1", func() ([]digest.Subscription, error) { return s.ByCreator(ctx, "U1") }, []string{"saaaaa", "sddddd"}},
		{"by creator U2", func() ([]digest.Subscription, error) { return s.ByCreator(ctx, "U2") }, []string{"scccc2", "sccccc"}},
		{"active skips paused", func() ([]digest.Subscription, error) { return s.Active(ctx) }, []string{"scccc2", "sccccc", "sddddd"}},
	} {
		got, err := c.list()
		must(t, err)
		if !slices.Equal(ids(got), c.want) {
			t.Errorf("%s = %v, want %v", c.name, ids(got), c.want)
		}
	}
}

func testPauseResume(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 0)))
	must(t, s.Pause(ctx, "saaaaa", "channel archived"))
	got, _ := s.Get(ctx, "saaaaa")
	if !got.Paused || got.PauseReason != "channel archived" {
		t.Fatalf("after pause: %+v", got)
	}
	must(t, s.Pause(ctx, "saaaaa", "not in channel"))
	got, _ = s.Get(ctx, "saaaaa")
	if got.PauseReason != "not in channel" {
		t.Fatalf("pausing again should update the reason: %+v", got)
	}
	resumed := T0.Add(48 * time.Hour)
	must(t, s.Resume(ctx, "saaaaa", resumed))
	got, _ = s.Get(ctx, "saaaaa")
	if got.Paused || got.PauseReason != "" || !got.ResumedAt.Equal(resumed) {
		t.Fatalf("after resume: %+v", got)
	}
	must(t, s.Resume(ctx, "saaaaa", resumed.Add(time.Hour)))
	got, _ = s.Get(ctx, "saaaaa")
	if !got.ResumedAt.Equal(resumed) {
		t.Fatalf("resuming an active subscription changed ResumedAt to %v", got.ResumedAt)
	}
}

func testClaim(t *testing.T, s digest.Store) {
	k := Key("saaaaa", 0)
	run, won, err := s.Claim(ctx, Claim(k, "C1"))
	must(t, err)
	if !won || run.State != digest.Claimed || run.Key != k || run.ChannelID != "C1" {
		t.Fatalf("first claim = %+v won=%v", run, won)
	}
	must(t, s.Choose(ctx, k, []string{"p1"}, T0))
	again := Claim(k, "C1")
	again.ClaimedAt = T0.Add(time.Hour)
	run, won, err = s.Claim(ctx, again)
	must(t, err)
	if won || run.State != digest.Posting || !slices.Equal(run.Papers, []string{"p1"}) || !run.ClaimedAt.Equal(T0.Add(time.Minute)) {
		t.Fatalf("second claim = %+v won=%v, want the existing run and false", run, won)
	}
	other, won, err := s.Claim(ctx, Claim(Key("saaaaa", 1), "C1"))
	must(t, err)
	if !won || other.State != digest.Claimed {
		t.Fatalf("claim of another day = %+v won=%v", other, won)
	}
}

func testClaimConcurrent(t *testing.T, s digest.Store) {
	const n = 16
	var wg sync.WaitGroup
	wins := make(chan int, n)
	for i := range n {
		wg.Go(func() {
			_, won, err := s.Claim(ctx, Claim(Key("saaaaa", 0), "C1"))
			if err != nil {
				t.Error(err)
			}
			if won {
				wins <- i
			}
		})
	}
	wg.Wait()
	close(wins)
	if len(wins) != 1 {
		t.Fatalf("%d claimers won, want exactly 1", len(wins))
	}
}

func testClaimInvalid(t *testing.T, s digest.Store) {
	for name, r := range map[string]digest.Run{
		"no channel":    Claim(Key("saaaaa", 0), ""),
		"bad key":       Claim(digest.RunKey{SubscriptionID: "x", Day: Key("saaaaa", 0).Day}, "C1"),
		"no day":        Claim(digest.RunKey{SubscriptionID: "saaaaa"}, "C1"),
		"no claim time": {Key: Key("saaaaa", 0), ChannelID: "C1"},
	} {
		if _, _, err := s.Claim(ctx, r); !errors.Is(err, fault.Invalid) {
			t.Errorf("%s: error = %v, want ErrInvalid", name, err)
		}
	}
}

func testTransitions(t *testing.T, s digest.Store) {
	type step struct {
		name string
		do   func(k digest.RunKey) error
		want error // nil, or the error it must match
	}
	choose := func(k digest.RunKey) error { return s.Choose(ctx, k, []string{"p1", "p2"}, T0) }
	post := func(k digest.RunKey) error { return s.MarkPosted(ctx, k, "100.1", T0) }
	skip := func(k digest.RunKey) error { return s.Finish(ctx, k, digest.Skipped, "too late", T0) }
	fail := func(k digest.RunKey) error { return s.Finish(ctx, k, digest.Failed, "archived", T0) }
	attempt := func(k digest.RunKey) error { return s.Attempt(ctx, k, "timeout", T0) }
	finishAsPosted := func(k digest.RunKey) error { return s.Finish(ctx, k, digest.Posted, "", T0) }
	for _, c := range []struct {
		name  string
		steps []step
		final digest.RunState
	}{
		{"claimed, chosen, posted", []step{{"choose", choose, nil}, {"post", post, nil}}, digest.Posted},
		{"claimed cannot be posted", []step{{"post", post, digest.ErrState}}, digest.Claimed},
		{"claimed cannot record attempts", []step{{"attempt", attempt, digest.ErrState}}, digest.Claimed},
		{"claimed skipped", []step{{"skip", skip, nil}}, digest.Skipped},
		{"posting fails", []step{{"choose", choose, nil}, {"attempt", attempt, nil}, {"fail", fail, nil}}, digest.Failed},
		{"chosen twice", []step{{"choose", choose, nil}, {"choose", choose, digest.ErrState}}, digest.Posting},
		{"posted cannot be skipped", []step{{"choose", choose, nil}, {"post", post, nil}, {"skip", skip, digest.ErrState}}, digest.Posted},
		{"skipped cannot be posted", []step{{"skip", skip, nil}, {"choose", choose, digest.ErrState}, {"post", post, digest.ErrState}}, digest.Skipped},
		{"failed cannot be failed again", []step{{"fail", fail, nil}, {"fail", fail, digest.ErrState}}, digest.Failed},
		{"finish only as skipped or failed", []step{{"finish posted", finishAsPosted, fault.Invalid}}, digest.Claimed},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := Key(digest.NewID(), 0)
			_, _, err := s.Claim(ctx, Claim(k, "C1"))
			must(t, err)
			for _, st := range c.steps {
				err := st.do(k)
				if c := st.want; (c == nil && err != nil) || (c != nil && !errors.Is(err, c)) {
					t.Fatalf("%s: error = %v, want %v", st.name, err, c)
				}
			}
			run, err := s.GetRun(ctx, k)
			must(t, err)
			if run.State != c.final {
				t.Fatalf("final state %s, want %s", run.State, c.final)
			}
		})
	}
	k := Key(digest.NewID(), 0)
	s.Claim(ctx, Claim(k, "C1"))
	must(t, choose(k))
	must(t, attempt(k))
	must(t, s.Attempt(ctx, k, "rate limited", T0.Add(time.Minute)))
	run, _ := s.GetRun(ctx, k)
	if run.Attempts != 2 || run.Reason != "rate limited" || !run.UpdatedAt.Equal(T0.Add(time.Minute)) {
		t.Fatalf("after two attempts: %+v", run)
	}
	must(t, s.Finish(ctx, k, digest.Failed, "gave up", T0.Add(time.Hour)))
	run, _ = s.GetRun(ctx, k)
	if run.Reason != "gave up" || !run.UpdatedAt.Equal(T0.Add(time.Hour)) {
		t.Fatalf("finish did not record reason and time: %+v", run)
	}
}

func testMarkPosted(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 0)))
	k := Key("saaaaa", 0)
	s.Claim(ctx, Claim(k, "C1"))
	must(t, s.Choose(ctx, k, []string{"p1", "p2", "p3"}, T0))
	before, err := s.PostedIn(ctx, "C1", []string{"p1", "p2", "p3", "p4"})
	must(t, err)
	if len(before) != 0 {
		t.Fatalf("ledger has %v before posting", before)
	}
	at := T0.Add(2 * time.Minute)
	must(t, s.MarkPosted(ctx, k, "1741594200.000100", at))
	run, _ := s.GetRun(ctx, k)
	if run.State != digest.Posted || run.TS != "1741594200.000100" || !run.UpdatedAt.Equal(at) {
		t.Fatalf("run after MarkPosted: %+v", run)
	}
	got, _ := s.PostedIn(ctx, "C1", []string{"p1", "p2", "p3", "p4"})
	if len(got) != 3 || !got["p1"] || !got["p2"] || !got["p3"] || got["p4"] {
		t.Fatalf("ledger after posting = %v", got)
	}
	sub, _ := s.Get(ctx, "saaaaa")
	if sub.PostedCount != 3 {
		t.Fatalf("PostedCount = %d, want 3", sub.PostedCount)
	}
	wantErr(t, s.MarkPosted(ctx, k, "", at), fault.Invalid)
}

func testMarkPostedTwice(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 0)))
	k := Key("saaaaa", 0)
	s.Claim(ctx, Claim(k, "C1"))
	must(t, s.Choose(ctx, k, []string{"p1", "p2"}, T0))
	must(t, s.MarkPosted(ctx, k, "1.1", T0))
	must(t, s.MarkPosted(ctx, k, "1.1", T0))
	wantErr(t, s.MarkPosted(ctx, k, "2.2", T0), digest.ErrState)
	sub, _ := s.Get(ctx, "saaaaa")
	if sub.PostedCount != 2 {
		t.Fatalf("PostedCount = %d after marking the same post twice, want 2", sub.PostedCount)
	}
}

func testLedgerPerChannel(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 0)))
	must(t, s.Create(ctx, Sub("sbbbbb", "C2", "U1", 0)))
	for _, c := range []struct {
		id, channel string
		papers      []string
	}{{"saaaaa", "C1", []string{"p1"}}, {"sbbbbb", "C2", []string{"p2"}}} {
		k := Key(c.id, 0)
		s.Claim(ctx, Claim(k, c.channel))
		must(t, s.Choose(ctx, k, c.papers, T0))
		must(t, s.MarkPosted(ctx, k, "1.1", T0))
	}
	c1, _ := s.PostedIn(ctx, "C1", []string{"p1", "p2"})
	c2, _ := s.PostedIn(ctx, "C2", []string{"p1", "p2"})
	if !c1["p1"] || c1["p2"] || c2["p1"] || !c2["p2"] {
		t.Fatalf("ledgers leak across channels: C1=%v C2=%v", c1, c2)
	}
	none, err := s.PostedIn(ctx, "C3", nil)
	must(t, err)
	if len(none) != 0 {
		t.Fatalf("empty query = %v", none)
	}
}

func testPostedAfterDelete(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 0)))
	k := Key("saaaaa", 0)
	s.Claim(ctx, Claim(k, "C1"))
	must(t, s.Choose(ctx, k, []string{"p1"}, T0))
	must(t, s.Delete(ctx, "saaaaa"))
	must(t, s.MarkPosted(ctx, k, "1.1", T0))
	got, _ := s.PostedIn(ctx, "C1", []string{"p1"})
	if !got["p1"] {
		t.Fatal("a digest posted for a deleted subscription must still enter the ledger")
	}
}

func testUnfinished(t *testing.T, s digest.Store) {
	mk := func(id string, minute int, end func(k digest.RunKey)) {
		r := Claim(Key(id, 0), "C1")
		r.ClaimedAt = T0.Add(time.Duration(minute) * time.Minute)
		_, _, err := s.Claim(ctx, r)
		must(t, err)
		if end != nil {
			end(r.Key)
		}
	}
	mk("saaaaa", 3, nil)
	mk("sbbbbb", 1, func(k digest.RunKey) { must(t, s.Choose(ctx, k, []string{"p"}, T0)) })
	mk("sccccc", 2, func(k digest.RunKey) {
		must(t, s.Choose(ctx, k, []string{"p"}, T0))
		must(t, s.MarkPosted(ctx, k, "1.1", T0))
	})
	mk("sddddd", 0, func(k digest.RunKey) { must(t, s.Finish(ctx, k, digest.Skipped, "late", T0)) })
	runs, err := s.Unfinished(ctx)
	must(t, err)
	var got []string
	for _, r := range runs {
		got = append(got, r.Key.SubscriptionID+":"+string(r.State))
	}
	if want := []string{"sbbbbb:posting", "saaaaa:claimed"}; !slices.Equal(got, want) {
		t.Fatalf("Unfinished = %v, want %v", got, want)
	}
}

func testCopies(t *testing.T, s digest.Store) {
	k := Key("saaaaa", 0)
	s.Claim(ctx, Claim(k, "C1"))
	papers := []string{"p1", "p2"}
	must(t, s.Choose(ctx, k, papers, T0))
	papers[0] = "changed"
	run, _ := s.GetRun(ctx, k)
	run.Papers[1] = "changed"
	again, _ := s.GetRun(ctx, k)
	if !slices.Equal(again.Papers, []string{"p1", "p2"}) {
		t.Fatalf("the store shares memory with its callers: %v", again.Papers)
	}
}

func testConcurrentPosts(t *testing.T, s digest.Store) {
	must(t, s.Create(ctx, Sub("saaaaa", "C1", "U1", 0)))
	const days = 20
	var wg sync.WaitGroup
	for d := range days {
		wg.Go(func() {
			k := Key("saaaaa", d)
			if _, _, err := s.Claim(ctx, Claim(k, "C1")); err != nil {
				t.Error(err)
				return
			}
			if err := s.Choose(ctx, k, []string{fmt.Sprint("a", d), fmt.Sprint("b", d)}, T0); err != nil {
				t.Error(err)
				return
			}
			if err := s.MarkPosted(ctx, k, fmt.Sprint(d, ".1"), T0); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	sub, _ := s.Get(ctx, "saaaaa")
	if sub.PostedCount != 2*days {
		t.Fatalf("PostedCount = %d, want %d", sub.PostedCount, 2*days)
	}
	var all []string
	for d := range days {
		all = append(all, fmt.Sprint("a", d), fmt.Sprint("b", d))
	}
	got, _ := s.PostedIn(ctx, "C1", all)
	if len(got) != 2*days {
		t.Fatalf("ledger has %d papers, want %d", len(got), 2*days)
	}
}
