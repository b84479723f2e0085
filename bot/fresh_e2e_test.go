package bot

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedstore"
	"github.com/paperbot/paperbot/ingest/feedtest"
	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
)

// feedsDir holds the recorded service responses the fakes adapt.
const feedsDir = "../../shared/feeds"

const venue = "ICLR.cc/2026/Conference"

// liveArrivals lets the digest scheduler see the catalog of whichever
// fetcher process is current (the test restarts it).
type liveArrivals struct {
	cat atomic.Pointer[ingest.Catalog]
}

func (a *liveArrivals) FirstSeen(ids []string) map[string]time.Time {
	return a.cat.Load().FirstSeen(ids)
}

// fetchProc is one "process" of the fetching side: feed store, catalog,
// fetcher, over the fake services, with the test's clock.
type fetchProc struct {
	t       *testing.T
	store   *feedstore.Store
	cat     *ingest.Catalog
	fetcher *ingest.Fetcher
}

func startFetcher(t *testing.T, path string, srv *feedtest.Server, now func() time.Time, slept *waits) *fetchProc {
	t.Helper()
	rss, oai, or := srv.URLs()
	client, err := sources.NewClient(sources.Config{Contact: "ops@example.org", RSSURL: rss, OAIURL: oai, OpenReviewURL: or,
		Now: now, Sleep: slept.sleep})
	if err != nil {
		t.Fatal(err)
	}
	st, err := feedstore.Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	entries, progress, err := st.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	cat := ingest.NewCatalog(entries)
	f, err := ingest.NewFetcher(ingest.Config{
		Sources: ingest.Sources{ArXiv: []string{"cs.LG", "q-bio.BM"}, OpenReview: []string{venue}},
		Client:  client, Store: st, Catalog: cat, Now: now}, progress)
	if err != nil {
		t.Fatal(err)
	}
	return &fetchProc{t: t, store: st, cat: cat, fetcher: f}
}

// waits records the client's sleeps (pacing, Retry-After) without sleeping.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) count(d time.Duration) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, x := range w.d {
		if x == d {
			n++
		}
	}
	return n
}

// Papers of the three days. Relevant ones are on the subscribed topic.
var (
	topic = "protein design diffusion"
	pA    = feedtest.Paper{ArXivID: "2609.40001", Title: "Diffusion models for de novo protein design",
		Abstract:   "We train a denoising diffusion model over protein backbones and use it for de novo protein design, generating binders that fold as designed.",
		Categories: []string{"cs.LG", "q-bio.BM"}}
	pA2 = feedtest.Paper{ArXivID: "2609.40001", Version: 2, Announce: "replace", Title: pA.Title,
		Abstract:   "Version 2. We train a denoising diffusion model over protein backbones for de novo protein design and add wet-lab validation of forty binders.",
		Categories: pA.Categories}
	pB = feedtest.Paper{ArXivID: "2609.40002", Title: "Equivariant diffusion for protein backbone design",
		Abstract:   "An SE(3)-equivariant diffusion process designs protein backbones conditioned on a motif; protein design benchmarks improve by a wide margin.",
		Categories: []string{"cs.LG"}}
	pBcross = feedtest.Paper{ArXivID: "2609.40002", Announce: "cross", Title: pB.Title, Abstract: pB.Abstract, Categories: []string{"q-bio.BM", "cs.LG"}}
	pG      = feedtest.Paper{ArXivID: "2609.40003", Title: "Latent diffusion for enzyme and protein design",
		Abstract:   "Latent diffusion over sequence and structure embeddings supports protein design of enzymes with a given active site.",
		Categories: []string{"q-bio.BM"}}
	pGgone = feedtest.Paper{ArXivID: "2609.40003", Version: 2, Announce: "replace", Title: pG.Title,
		Abstract: "This paper has been withdrawn by the authors because of an error in the evaluation.", Categories: pG.Categories}
	pD = feedtest.Paper{OpenReviewID: "Zq7protDif", Title: "Discrete diffusion language models for protein sequence design",
		Abstract: "A discrete diffusion language model over amino acids performs protein sequence design and inpainting, accepted at ICLR."}
	pE = feedtest.Paper{ArXivID: "2609.41001", Title: "Score-based diffusion for constrained protein design",
		Abstract:   "Score-based diffusion with structural constraints enables protein design of symmetric assemblies.",
		Categories: []string{"cs.LG"}}
	pI = feedtest.Paper{ArXivID: "2609.42001", Title: "Flow matching and diffusion for antibody protein design",
		Abstract:   "We compare flow matching with diffusion for antibody protein design and find diffusion better at loop design.",
		Categories: []string{"cs.LG"}, Created: "2026-09-25"}
	pJ = feedtest.Paper{ArXivID: "2609.42002", Title: "Guided diffusion sampling for protein binder design",
		Abstract:   "Classifier-free guided diffusion samples protein binders; protein design success rates double.",
		Categories: []string{"q-bio.BM", "cs.LG"}, Created: "2026-09-26"}
	pFiller = feedtest.Paper{ArXivID: "2609.42003", Title: "Sparse attention for long documents",
		Abstract:   "Sparse attention patterns let transformers read long legal documents at linear cost.",
		Categories: []string{"cs.CL"}, Created: "2026-09-26"} // not a followed category: filtered
	pK = feedtest.Paper{ArXivID: "2609.43001", Title: "Protein design with diffusion on torsion angles",
		Abstract:   "Diffusion on torsion angles gives a compact generative model for protein design.",
		Categories: []string{"cs.LG"}}
)

// etMidnight is arXiv's announcement date of a day.
func etMidnight(y int, m time.Month, d int) time.Time {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		loc = time.FixedZone("EDT", -4*3600)
	}
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// TestFreshPapersThreeDays runs a fake arXiv and OpenReview through three
// announcement days (Thursday, Friday, then Monday after the bot's fetcher
// was down over the weekend) and checks each day's digest in the Slack
// emulator: the right papers, once, none missing. Along the way: a 503
// storm with Retry-After, a v2 replacement (same card, new abstract, not
// news again), cross-lists of known papers (not news), a withdrawal (leaves
// the index) and a restart in the middle of the OAI-PMH catch-up harvest
// (resumed from its token, the first page not fetched again).
func TestFreshPapersThreeDays(t *testing.T) {
	rec, err := feedtest.Load(feedsDir)
	if err != nil {
		t.Fatal(err)
	}
	srv := feedtest.NewServer()
	defer srv.Close()
	storePath := filepath.Join(t.TempDir(), feedstore.FileName)
	slept := &waits{}

	arrivals := &liveArrivals{}
	seedPapers(t)
	ix, err := search.Open(t.Context(), seedCorpus, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var b *digestBot
	now := func() time.Time { return b.clock.Now() } // one clock for bot, scheduler and fetcher
	status := &testFeedStatus{}
	proc := startFetcher(t, storePath, srv, now, slept)
	arrivals.cat.Store(proc.cat)
	status.p.Store(proc)
	b = startDigestBotWith(t, ix, digest.Config{Fresh: digest.Fresh{Arrivals: arrivals, NewDays: 3}},
		[]Option{WithFeeds(status), WithClock(now)})
	defer func() { proc.store.Close() }()

	fetch := func(p *fetchProc) error {
		t.Helper()
		_, err := p.fetcher.Run(t.Context())
		if _, aerr := p.fetcher.ApplyTo(t.Context(), ix); aerr != nil {
			t.Fatalf("apply: %v", aerr)
		}
		return err
	}
	idOf := func(key string) string {
		t.Helper()
		e, ok := proc.cat.Lookup(key)
		if !ok {
			t.Fatalf("%s is not in the catalog", key)
		}
		return e.ID
	}
	const channel = "CFRESH001"
	posted := func(day time.Time, want ...string) {
		t.Helper()
		var wantIDs []string
		for _, k := range want {
			wantIDs = append(wantIDs, idOf(k))
		}
		ds := b.digests(channel)
		if len(ds) == 0 {
			t.Fatalf("%s: no digest posted\nlogs:\n%s", day.Format("Mon"), b.logs)
		}
		got := b.allPaperIDs(t, ds[len(ds)-1])
		slices.Sort(got)
		slices.Sort(wantIDs)
		if !slices.Equal(got, wantIDs) {
			t.Fatalf("%s digest has %v, want %v (%v)\nlogs:\n%s", day.Format("Mon"), got, wantIDs, want, b.logs)
		}
	}

	// Wednesday: the channel subscribes (daily at 09:00 UTC, weekdays).
	b.clock.Set(time.Date(2026, 9, 23, 10, 0, 0, 0, time.UTC))
	b.subscribe("UFRESH001", channel, topic+" at 09:00 tz UTC")

	// Thursday 05:00 UTC: arXiv is busy (two 503s with Retry-After), then
	// the day's feed: the recorded items plus three papers on the topic;
	// OpenReview lists the recorded accepted notes plus one on the topic.
	thu := time.Date(2026, 9, 24, 5, 0, 0, 0, time.UTC)
	b.clock.Set(thu)
	srv.SetRSS(rec.RSS(etMidnight(2026, 9, 24), true, pA, pB, pG))
	srv.SetNotes(venue, rec.OpenReviewNotes(venue, true, pD))
	srv.SetNotes(venue+"/Withdrawn_Submission", rec.OpenReviewWithdrawn(venue))
	srv.Storm(2, 120)
	if err := fetch(proc); err != nil {
		t.Fatalf("Thursday fetch: %v", err)
	}
	if n := slept.count(120 * time.Second); n != 2 {
		t.Errorf("Retry-After 120 honoured %d times, want 2", n)
	}
	// A second run the same day asks arXiv and OpenReview nothing.
	before := len(srv.Requests())
	if err := fetch(proc); err != nil || len(srv.Requests()) != before {
		t.Errorf("second run on Thursday: %v, %d more requests", err, len(srv.Requests())-before)
	}
	b.tickAt(time.Date(2026, 9, 24, 9, 0, 0, 0, time.UTC))
	posted(thu, "arxiv:2609.40001", "arxiv:2609.40002", "arxiv:2609.40003", "openreview:Zq7protDif")
	aID := idOf("arxiv:2609.40001")

	// Friday: A's v2, B cross-listed, G withdrawn, one new paper E.
	fri := time.Date(2026, 9, 25, 5, 0, 0, 0, time.UTC)
	b.clock.Set(fri)
	srv.SetRSS(rec.RSS(etMidnight(2026, 9, 25), false, pA2, pBcross, pGgone, pE))
	if err := fetch(proc); err != nil {
		t.Fatalf("Friday fetch: %v", err)
	}
	if got := idOf("arxiv:2609.40001"); got != aID {
		t.Errorf("v2 changed the paper's ID from %s to %s", aID, got)
	}
	if p, err := ix.Get(aID); err != nil || p.Abstract != pA2.Abstract {
		t.Errorf("v2 abstract not in the index: %q, %v", p.Abstract, err)
	}
	if _, err := ix.Get(idOf("arxiv:2609.40003")); fault.KindOf(err) != fault.NotFound {
		t.Errorf("withdrawn paper still in the index: %v", err)
	}
	b.tickAt(time.Date(2026, 9, 25, 9, 0, 0, 0, time.UTC))
	if n := len(b.digests(channel)); n != 2 {
		t.Fatalf("%d digests after Friday, want 2", n)
	}
	posted(fri, "arxiv:2609.41001")

	// The fetcher is down from Friday until Monday. Monday's catch-up
	// harvests OAI-PMH from Friday; the process dies after the first page.
	mon := time.Date(2026, 9, 28, 5, 0, 0, 0, time.UTC)
	b.clock.Set(mon)
	srv.SetOAI("cs", "", rec.OAIPage("2026-09-26", "tok|1001", pI, pFiller))
	srv.SetOAI("", "tok|1001", rec.OAIPage("2026-09-27", "", pJ))
	srv.SetRSS(rec.RSS(etMidnight(2026, 9, 28), false, pK))
	ctx, kill := context.WithCancel(t.Context())
	var killed atomic.Bool
	srv.Hook(func(r *http.Request) bool {
		if r.URL.Query().Get("resumptionToken") != "" && killed.CompareAndSwap(false, true) {
			kill() // the process dies while asking for page two
			return false
		}
		return true
	})
	if _, err := proc.fetcher.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted harvest: %v\n%q", err, srv.Requests())
	}
	proc.store.Close()
	proc = startFetcher(t, storePath, srv, now, slept) // restart
	arrivals.cat.Store(proc.cat)
	status.p.Store(proc)
	if _, ok := proc.cat.Lookup("arxiv:2609.42001"); !ok {
		t.Fatal("the first page's paper was not stored before the restart")
	}
	// OpenReview answers Monday with a browser check (an HTML page, 200):
	// an error for that source, while arXiv's papers still come in.
	srv.SetNotes(venue, []byte("<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>"))
	if err := fetch(proc); err == nil || !strings.Contains(err.Error(), "openreview") {
		t.Fatalf("Monday fetch after restart: %v, want OpenReview's HTML answer as its error", err)
	}
	if n := srv.Count("/oai", "set=cs", "from=2026-09-25"); n != 1 {
		t.Errorf("the harvest's first page was asked %d times, want 1 (resumed from its token)", n)
	}
	if n := srv.Count("/oai", "resumptionToken=tok|1001"); n != 2 {
		t.Errorf("the resumption token was sent %d times, want 2", n)
	}
	if _, ok := proc.cat.Lookup("arxiv:2609.42003"); ok {
		t.Error("a harvested paper outside the followed categories was kept")
	}
	b.tickAt(time.Date(2026, 9, 28, 9, 0, 0, 0, time.UTC))
	if n := len(b.digests(channel)); n != 3 {
		t.Fatalf("%d digests after Monday, want 3", n)
	}
	posted(mon, "arxiv:2609.42001", "arxiv:2609.42002", "arxiv:2609.43001")

	// Replaying Monday's tick posts nothing again.
	b.tickAt(time.Date(2026, 9, 28, 9, 5, 0, 0, time.UTC))
	if n := len(b.digests(channel)); n != 3 {
		t.Fatalf("%d digests after a replayed tick, want 3", n)
	}
	if st := proc.fetcher.Status(); len(st) != 2 || st[0].Failing() || st[0].Day != "2026-09-28" || st[0].Harvest != nil || !st[1].Failing() {
		t.Errorf("source status after Monday: %+v", st)
	}

	// /paper new: what arrived since yesterday (Sunday), on a topic.
	n := b.EphemeralCount(channel, "UFRESH001")
	b.Slash("UFRESH001", channel, "new protein design")
	reply := wireText(b.WaitEphemeral(channel, "UFRESH001", n+1).Blocks)
	for _, p := range []feedtest.Paper{pI, pJ, pK} {
		if !strings.Contains(reply, p.Title) {
			t.Errorf("/paper new lacks %q:\n%s", p.Title, reply)
		}
	}
	if strings.Contains(reply, pE.Title) || strings.Count(reply, "Show abstract") != 3 {
		t.Errorf("/paper new shows other papers than Monday's three:\n%s", reply)
	}
	// A second channel subscribing now previews what arrived in the last
	// three days: Monday's papers and Friday's, not Thursday's.
	m := b.EphemeralCount("CFRESH002", "UFRESH001")
	b.Slash("UFRESH001", "CFRESH002", "subscribe "+topic+" at 09:00 tz UTC")
	preview := wireText(b.WaitEphemeral("CFRESH002", "UFRESH001", m+1).Blocks)
	if !strings.Contains(preview, "from the last 3 days match") || !strings.Contains(preview, "reaches back 3 days") ||
		!strings.Contains(preview, pK.Title) || strings.Contains(preview, pA.Title) {
		t.Errorf("preview of a new subscription:\n%s", preview)
	}

	// App Home: each source's last success, today's count, the failing one.
	b.srv.AppHomeOpened("UFRESH001")
	var home string
	if err := b.srv.WaitFor(wait, func() bool {
		vs := b.srv.HomeViews("UFRESH001")
		if len(vs) == 0 {
			return false
		}
		home = wireText(vs[len(vs)-1].Blocks)
		return strings.Contains(home, "Paper sources")
	}); err != nil {
		t.Fatalf("App Home has no sources section: %v", err)
	}
	metrics := metricsText(t, b.bot)
	for _, want := range []string{
		`paperbot_source_failing{source="openreview:` + venue + `"} 1`,
		`paperbot_source_failing{source="arxiv"} 0`,
		`paperbot_source_last_success_timestamp_seconds{source="arxiv"} ` + strconv.FormatFloat(float64(mon.Unix()), 'e', -1, 64),
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for _, want := range []string{"3 new papers today", "*arxiv*: fetched 4h ago", "openreview:" + venue + "* is failing", "HTML"} {
		if !strings.Contains(home, want) {
			t.Errorf("App Home lacks %q:\n%s", want, home)
		}
	}

	// Tuesday: a new paper off the topic and the recorded ones again: no
	// digest, no filler from older papers.
	b.clock.Set(time.Date(2026, 9, 29, 5, 0, 0, 0, time.UTC))
	offTopic := feedtest.Paper{ArXivID: "2609.44001", Title: "Sparse attention for long legal documents",
		Abstract: "Sparse attention patterns let transformers read long legal documents at linear cost.", Categories: []string{"cs.LG"}}
	srv.SetRSS(rec.RSS(etMidnight(2026, 9, 29), true, offTopic))
	srv.SetNotes(venue, rec.OpenReviewNotes(venue, true))
	if err := fetch(proc); err != nil {
		t.Fatalf("Tuesday fetch: %v", err)
	}
	if _, ok := proc.cat.Lookup("arxiv:2609.44001"); !ok {
		t.Fatal("Tuesday's paper was not fetched")
	}
	b.tickAt(time.Date(2026, 9, 29, 9, 0, 0, 0, time.UTC))
	if n := len(b.digests(channel)); n != 3 {
		t.Errorf("%d digests after a day with nothing on the topic, want still 3", n)
	}
}

// metricsText is the bot's /metrics page.
func metricsText(t *testing.T, b *Bot) string {
	t.Helper()
	rec := httptest.NewRecorder()
	b.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

// testFeedStatus reports on the current fetcher process, as cmd/paperbot's does.
type testFeedStatus struct{ p atomic.Pointer[fetchProc] }

func (s *testFeedStatus) Sources() []SourceStatus {
	var out []SourceStatus
	for _, p := range s.p.Load().fetcher.Status() {
		out = append(out, SourceStatus{Name: p.Source, LastSuccess: p.LastSuccess, LastError: p.LastError,
			LastErrorAt: p.LastErrorAt, Added: p.LastChanges.News})
	}
	return out
}

func (s *testFeedStatus) AddedSince(t time.Time) int { return s.p.Load().cat.AddedSince(t) }
func (s *testFeedStatus) Papers() int                { return s.p.Load().cat.Len() }
func (s *testFeedStatus) FirstSeen(ids []string) map[string]time.Time {
	return s.p.Load().cat.FirstSeen(ids)
}
