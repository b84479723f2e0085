package digest

import (
	"context"
	"fmt"
	"time"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// Search pages and the most results scanned for papers a channel has not seen.
const (
	searchPage = 50
	maxScan    = 500
)

// rerankPool is how many of the topic's unseen papers, per paper a digest
// posts, a Reranker may choose from. Chosen on the simulated channels'
// train split (bot/taste): nDCG 0.0568 at 5, 0.0539 at 10, 0.0521 at 20;
// votes reaching deeper bring more papers the topic ranks low.
const rerankPool = 5

// choosePapers returns up to n results for the topic, best first, that no
// digest has posted to the channel and no unfinished run of the channel has
// chosen, and, when fresh is on, that arrived after since. A search that
// finds nothing relevant (NoMatch) gives none. When srch is a Reranker, it
// orders the first rerankPool*n such results for the channel, and lifted
// says why votes moved a paper up.
func choosePapers(ctx context.Context, srch Searcher, st Store, sub Subscription, n int, fresh Fresh, since time.Time) (out []search.Result, lifted map[string]Lift, err error) {
	rr, rerank := srch.(Reranker)
	want := n
	if rerank {
		want = n * rerankPool
	}
	seen := map[string]bool{}
	open, err := st.Unfinished(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range open {
		if r.ChannelID == sub.ChannelID {
			for _, id := range r.Papers {
				seen[id] = true
			}
		}
	}
	req := search.Request{Text: sub.Topic, Limit: searchPage}
	if fresh.On() {
		// Only the window's arrivals are candidates: asking the index for
		// them keeps a day's papers within the scan however large the corpus.
		req.Filter.SeenSince = since
	}
	for offset := 0; offset < maxScan && len(out) < want; offset += searchPage {
		req.Offset = offset
		res, err := srch.Search(ctx, req)
		if err != nil {
			return nil, nil, fmt.Errorf("search %q: %w", sub.Topic, err)
		}
		if res.NoMatch || len(res.Results) == 0 {
			break
		}
		ids := make([]string, 0, len(res.Results))
		for _, r := range res.Results {
			ids = append(ids, r.ID)
		}
		posted, err := st.PostedIn(ctx, sub.ChannelID, ids)
		if err != nil {
			return nil, nil, err
		}
		var arrived map[string]bool
		if fresh.On() {
			arrived = fresh.keep(ids, since)
		}
		for _, r := range res.Results {
			if !posted[r.ID] && !seen[r.ID] && (arrived == nil || arrived[r.ID]) && len(out) < want {
				out = append(out, r)
			}
			seen[r.ID] = true
		}
		if offset+len(res.Results) >= res.Total {
			break
		}
	}
	if rerank && len(out) > 0 {
		if out, lifted, err = rr.Rerank(ctx, sub.ChannelID, out); err != nil {
			return nil, nil, fmt.Errorf("rerank %q: %w", sub.Topic, err)
		}
	}
	return out[:min(n, len(out))], lifted, nil
}

// resolvePapers turns the recorded paper IDs of a run back into results, in
// order: from a fresh search where it still finds them (keeping the "why
// this" terms), else from the corpus by ID. Papers gone from the corpus are
// left out of the message; the ledger still records them.
func resolvePapers(ctx context.Context, srch Searcher, sub Subscription, ids []string) ([]search.Result, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	found := map[string]search.Result{}
	for offset := 0; offset < maxScan && len(found) < len(want); offset += searchPage {
		res, err := srch.Search(ctx, search.Request{Text: sub.Topic, Limit: searchPage, Offset: offset})
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", sub.Topic, err)
		}
		for _, r := range res.Results {
			if want[r.ID] {
				found[r.ID] = r
			}
		}
		if len(res.Results) == 0 || offset+len(res.Results) >= res.Total {
			break
		}
	}
	out := make([]search.Result, 0, len(ids))
	for _, id := range ids {
		if r, ok := found[id]; ok {
			out = append(out, r)
			continue
		}
		p, err := srch.Get(id)
		if fault.KindOf(err) == fault.NotFound {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("paper %s: %w", id, err)
		}
		out = append(out, search.Result{Paper: p})
	}
	return out, nil
}
