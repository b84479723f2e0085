package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/paperbot/paperbot/search"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/slack-go/slack"
)

// SourceStatus is one followed paper source as App Home and /metrics show it.
type SourceStatus struct {
	// Name is "arxiv" or "openreview:VENUE".
	Name string
	// LastSuccess is the end of the last run without error (zero: never).
	LastSuccess time.Time
	// LastError is the last run's error, "" when it succeeded.
	LastError   string
	LastErrorAt time.Time
	// Added is how many new papers the last successful run brought.
	Added int
}

// FeedStatus reports on the followed sources (package ingest's fetcher and
// catalog, through cmd/paperbot). Safe for concurrent use.
type FeedStatus interface {
	Sources() []SourceStatus
	// AddedSince counts new papers first seen at or after t.
	AddedSince(t time.Time) int
	// Papers counts the papers fetched so far.
	Papers() int
	// FirstSeen returns, for those of ids that the sources brought as new
	// papers, when paperbot first saw them (digest.Arrivals).
	FirstSeen(ids []string) map[string]time.Time
}

// cmdNew is the command that lists what arrived since yesterday.
const cmdNew = "new"

// WithFeeds shows the followed sources in App Home (last successful fetch,
// papers added today, failing sources with their error), exports the same
// on /metrics, and adds `/paper new [TOPIC]`: the papers first seen since
// the start of yesterday (UTC), on a topic or all of them.
func WithFeeds(fs FeedStatus) Option {
	return func(o *options) {
		o.feeds = fs
	}
}

// feedHome is the App Home section of the sources, on the bot's clock.
func (b *Bot) feedHome(fs FeedStatus) HomeBlocksFunc {
	return func(ctx context.Context, _ string) ([]slack.Block, error) {
		now := b.now()
		return renderHomeSources(fs.Sources(), fs.AddedSince(startOfDay(now)), now), nil
	}
}

// feedCommands are the commands WithFeeds adds (none without it).
func (b *Bot) feedCommands(fs FeedStatus) []Command {
	if fs == nil {
		return nil
	}
	return []Command{{Name: cmdNew, Usage: "new [TOPIC]", Example: "new protein design",
		Help:    "Papers that arrived from the followed sources since yesterday, on a topic or all of them.",
		Handler: func(ctx context.Context, req *Request) (*Reply, error) { return b.cmdNew(ctx, req, fs) }}}
}

// newScan is how many of the topic's results cmdNew looks through.
const newScan = 50

// cmdNew searches the topic among the papers the sources brought since the
// start of yesterday (UTC): the query language's since: filter narrows the
// search, and only papers the sources brought are kept (files indexed
// lately are first seen too, but are not news). One page, the best first.
func (b *Bot) cmdNew(ctx context.Context, req *Request, fs FeedStatus) (*Reply, error) {
	since := startOfDay(b.now().UTC()).AddDate(0, 0, -1)
	q := strings.TrimSpace(req.Args + " since:" + since.Format(time.DateOnly))
	res, err := b.searcher.Search(ctx, search.Request{Text: q, Limit: newScan, Answer: public(req)})
	if err != nil {
		return nil, err
	}
	f := fetched{State: viewState{Kind: viewSearch, Arg: q}, Results: res, PageSize: b.cfg.PageSize}
	if !res.NoMatch {
		ids := make([]string, len(res.Results))
		for i, r := range res.Results {
			ids[i] = r.ID
		}
		seen := fs.FirstSeen(ids)
		page := *res
		page.Results = nil
		for _, r := range res.Results {
			if t, ok := seen[r.ID]; ok && !t.Before(since) && len(page.Results) < b.cfg.PageSize {
				page.Results = append(page.Results, r)
			}
		}
		page.Total = len(page.Results)
		f.Results = &page
	}
	if f.noMatch() {
		what := "no new papers"
		if t := strings.TrimSpace(req.Args); t != "" {
			what = "no new papers on “" + EscapeInline(t) + "”"
		}
		return textReply(fmt.Sprintf("The sources brought %s since %s.", what, since.Format("Monday 2 January")), VisibilityDefault), nil
	}
	return b.renderView(f, req, audience{Public: public(req)}), nil
}

func startOfDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// renderHomeSources is App Home's sources section.
func renderHomeSources(sources []SourceStatus, addedToday int, now time.Time) []slack.Block {
	blocks := []slack.Block{slack.NewDividerBlock(),
		slack.NewSectionBlock(mrkdwn(fmt.Sprintf("*Paper sources* · %d new papers today", addedToday)), nil, nil,
			slack.SectionBlockOptionBlockID("home_sources"))}
	for i, s := range sources {
		if i == 10 {
			break // App Home holds 100 blocks
		}
		blocks = append(blocks, slack.NewContextBlock(fmt.Sprintf("home_source_%d", i), mrkdwn(Truncate(sourceLine(s, now), sectionBudget))))
	}
	return blocks
}

// sourceLine is one source for people: when it last worked, and its error
// when it is failing.
func sourceLine(s SourceStatus, now time.Time) string {
	var b strings.Builder
	name := EscapeInline(s.Name)
	switch {
	case s.LastError != "":
		fmt.Fprintf(&b, ":warning: *%s* is failing (since %s): %s", name, ago(s.LastErrorAt, now), EscapeInline(oneLineText(s.LastError)))
		if !s.LastSuccess.IsZero() {
			fmt.Fprintf(&b, " · last worked %s", ago(s.LastSuccess, now))
		}
	case s.LastSuccess.IsZero():
		fmt.Fprintf(&b, "*%s*: not fetched yet", name)
	default:
		fmt.Fprintf(&b, ":white_check_mark: *%s*: fetched %s, %d new", name, ago(s.LastSuccess, now), s.Added)
	}
	return b.String()
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// ago is a short "3h ago" for times within a day, else the UTC date and time.
func ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// feedMetrics exports the sources' state.
func feedMetrics(fs FeedStatus) []prometheus.Collector {
	var cs []prometheus.Collector
	for _, s := range fs.Sources() {
		name := s.Name
		get := func() SourceStatus {
			for _, x := range fs.Sources() {
				if x.Name == name {
					return x
				}
			}
			return SourceStatus{}
		}
		labels := prometheus.Labels{"source": name}
		cs = append(cs,
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "paperbot_source_last_success_timestamp_seconds",
				Help: "When the source last fetched without error (Unix time; 0: never).", ConstLabels: labels},
				func() float64 {
					if t := get().LastSuccess; !t.IsZero() {
						return float64(t.Unix())
					}
					return 0
				}),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "paperbot_source_failing",
				Help: "1 when the source's last fetch failed.", ConstLabels: labels},
				func() float64 {
					if get().LastError != "" {
						return 1
					}
					return 0
				}),
		)
	}
	cs = append(cs,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "paperbot_papers_added_today",
			Help: "New papers first seen since local midnight."},
			func() float64 { return float64(fs.AddedSince(startOfDay(time.Now()))) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "paperbot_fetched_papers",
			Help: "Papers the sources have announced so far (withdrawn ones included)."},
			func() float64 { return float64(fs.Papers()) }),
	)
	return cs
}
