package bot

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/blockkit"
	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/search"
)

var digestNow = time.Date(2025, 3, 10, 7, 30, 0, 0, time.UTC)

func fixedSub() digest.Subscription {
	return digest.Subscription{ID: "sk7m2q", ChannelID: "CGRAPHS01", CreatedBy: "UALICE001", Topic: "protein conformations",
		Schedule:  digest.Schedule{Hour: 9, TZ: "Europe/Berlin", Every: digest.Weekdays},
		CreatedAt: digestNow.Add(-72 * time.Hour), PostedCount: 12}
}

func fixedDigest(papers ...search.Result) digest.Digest {
	sub := fixedSub()
	day := digest.Date{Year: 2025, Month: 3, Day: 10}
	return digest.Digest{Key: digest.RunKey{SubscriptionID: sub.ID, Day: day}, Subscription: sub,
		Scheduled: sub.Schedule.At(day), Papers: papers, NothingNew: len(papers) == 0}
}

var allowedToken = regexp.MustCompile(`^(#C[A-Z0-9]+|@U[A-Z0-9]+|!date\^\d+\^\{date_short_pretty\} at \{time\}\|[^<>|]+|https?://[^|<>\s]+(\|[^<>]*)?)$`)

// checkDigestSafe asserts a message is within Slack's limits and that every
// <…> token in it is a channel, a user the test allows, a date or an http link.
func checkDigestSafe(t *testing.T, rep Reply, users ...string) {
	t.Helper()
	if err := blockkit.ValidateMessage(rep.Text, rep.Blocks); err != nil {
		t.Fatalf("message outside Slack's limits: %v", err)
	}
	raw, _ := json.Marshal(message{Text: rep.Text, Blocks: rep.Blocks})
	var decoded struct {
		Text   string           `json:"text"`
		Blocks []map[string]any `json:"blocks"`
	}
	json.Unmarshal(raw, &decoded)
	texts := []string{decoded.Text}
	texts = append(texts, bottest.Texts(decoded.Blocks)...)
	for _, s := range texts {
		for _, tok := range regexp.MustCompile(`<[^>]*>`).FindAllString(s, -1) {
			inner := tok[1 : len(tok)-1]
			ok := allowedToken.MatchString(inner)
			if strings.HasPrefix(inner, "@") {
				ok = false
				for _, u := range users {
					ok = ok || inner == "@"+u
				}
			}
			if !ok || strings.Contains(inner, "evil") {
				t.Errorf("unsafe token %s in %q", tok, s)
			}
		}
	}
}

func TestRenderDigestGolden(t *testing.T) {
	late := fixedDigest(fixedResult(), unicodeResult())
	late.Late = true
	hostileTopic := fixedDigest(emptyResult())
	hostileTopic.Subscription.Topic = "<!channel> graphs & <@U123> *bold*"
	lifted := fixedDigest(fixedResult(), unicodeResult())
	lifted.Lifted = map[string]digest.Lift{unicodeResult().ID: {Because: "<!channel> Liked & *loved*", From: 7}}
	for _, c := range []struct {
		name string
		d    digest.Digest
	}{
		{"digest_two_papers", fixedDigest(fixedResult(), unicodeResult())},
		{"digest_late", late},
		{"digest_nothing_new", fixedDigest()},
		{"digest_hostile_topic", hostileTopic},
		{"digest_lifted_by_votes", lifted},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs := RenderDigest(c.d, "/paper")
			if len(msgs) != 1 {
				t.Fatalf("%d messages, want 1", len(msgs))
			}
			checkDigestSafe(t, msgs[0])
			checkGolden(t, c.name, &msgs[0])
		})
	}
}

func TestRenderDigestSaysWhatUsersNeed(t *testing.T) {
	d := fixedDigest(fixedResult(), unicodeResult())
	d.Late = true
	m := RenderDigest(d, "/paper")[0]
	raw, _ := json.Marshal(m.Blocks)
	for _, want := range []string{
		"New papers: protein conformations · Mon 10 Mar 2025",          // header with the topic and date
		"Catch-up digest for *Mon 10 Mar 2025*",                        // a late digest names its day
		"Why this: matches *protein*, *conformations* from your topic", // the why line from Result.Matched
		"Manage: `/paper subscriptions`",                               // the footer
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("digest lacks %q:\n%s", want, raw)
		}
	}
	if !strings.Contains(m.Text, "2 new papers") {
		t.Errorf("fallback text %q does not count the papers", m.Text)
	}
}

// TestRenderDigestLongAndHostile: many huge, hostile papers split into a
// first message and thread continuations, each within Slack's limits.
func TestRenderDigestLongAndHostile(t *testing.T) {
	var papers []search.Result
	for i := range 25 {
		r := hostileResult()
		r.ID = r.ID + string(rune('a'+i))
		papers = append(papers, r)
	}
	d := fixedDigest(papers...)
	d.Subscription.Topic = "<!here> " + strings.Repeat("very long topic ", 30)
	d.Late = true
	msgs := RenderDigest(d, "/paper")
	if len(msgs) != 3 {
		t.Fatalf("%d messages for 25 papers, want 3 (10 per message)", len(msgs))
	}
	for i, m := range msgs {
		checkDigestSafe(t, m)
		if i > 0 && !strings.HasPrefix(m.Text, "Continued: papers") {
			t.Errorf("message %d text %q does not say it continues", i, m.Text)
		}
	}
}

func TestRenderDigestEverySeedPaper(t *testing.T) {
	var papers []search.Result
	for _, p := range seedPapers(t) {
		papers = append(papers, search.Result{Paper: p, Matched: []string{"learning"}})
	}
	msgs := RenderDigest(fixedDigest(papers...), "/paper")
	if want := (len(papers) + DigestPapersPerMessage - 1) / DigestPapersPerMessage; len(msgs) != want {
		t.Fatalf("%d messages for %d papers, want %d", len(msgs), len(papers), want)
	}
	for _, m := range msgs {
		checkDigestSafe(t, m)
	}
}

func TestRenderSubscribeGolden(t *testing.T) {
	res := &search.Results{Total: 17, Results: []search.Result{fixedResult(), unicodeResult(), emptyResult()}}
	p := pendingSub{Topic: "protein <!channel> conformations", Schedule: fixedSub().Schedule}
	next := fixedSub().Schedule.Next(digestNow)
	paused := fixedSub()
	paused.ID, paused.Paused, paused.PauseReason = "sp2use", true, digest.PauseReason("is_archived")
	for _, c := range []struct {
		name  string
		rep   *Reply
		users []string
	}{
		{"digest_subscribe_preview", renderSubscribePreview(p, res, "CGRAPHS01", 5, next, 0), nil},
		{"digest_subscribe_preview_nomatch", renderSubscribePreview(p, &search.Results{NoMatch: true}, "CGRAPHS01", 5, next, 0), nil},
		{"digest_subscribe_preview_fresh", renderSubscribePreview(p, res, "CGRAPHS01", 5, next, 3), nil},
		{"digest_subscribed", renderSubscribed(fixedSub(), "/paper", next), nil},
		{"digest_subscriptions", renderSubscriptions([]digest.Subscription{fixedSub(), paused}, "CGRAPHS01", "/paper", digestNow), []string{"UALICE001"}},
		{"digest_subscriptions_none", renderSubscriptions(nil, "CGRAPHS01", "/paper", digestNow), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkDigestSafe(t, *c.rep, c.users...)
			checkGolden(t, c.name, c.rep)
		})
	}
	home := &Reply{Text: "home", Blocks: renderHomeDigests([]digest.Subscription{fixedSub(), paused}, "/paper", digestNow)}
	checkDigestSafe(t, *home, "UALICE001")
	checkGolden(t, "digest_home", home)
}

func TestSubscribePreviewButtonRoundTrips(t *testing.T) {
	p := pendingSub{Topic: "graph \"neural\" -survey", Schedule: digest.Schedule{Hour: 7, Minute: 5, TZ: "Asia/Tokyo", Every: digest.Weekly, Weekday: time.Friday}}
	got, err := decodePending(p.encode())
	if err != nil || got != p {
		t.Fatalf("decode(encode) = %+v, %v; want %+v", got, err, p)
	}
	for _, bad := range []string{"", "!!!", "eyJ0IjoiIn0"} {
		if _, err := decodePending(bad); err == nil {
			t.Errorf("decodePending(%q) accepted", bad)
		}
	}
}

func TestSlackDateFormatsForEachReader(t *testing.T) {
	at := time.Date(2025, 3, 10, 9, 0, 0, 0, time.FixedZone("CET", 3600))
	if got, want := slackDate(at), "<!date^1741593600^{date_short_pretty} at {time}|Mon 10 Mar 2025 08:00 UTC>"; got != want {
		t.Fatalf("slackDate = %q, want %q", got, want)
	}
}
