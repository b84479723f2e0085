package snippet

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/search/corpus"
)

// hit is a marked word's byte range, as the matcher gives it.
type hit struct{ start, end int }

func (h hit) Bounds() (int, int) { return h.start, h.end }

func TestMake(t *testing.T) {
	long := "Intro sentence that goes on for a while to fill space and then some more words here. " +
		"The middle sentence mentions KV cache compression, which is what we look for. " +
		"Afterwards there is a long tail of text that should be cut somewhere because snippets are short and " +
		"the abstract keeps going with details about experiments, datasets and baselines, well beyond the limit. " +
		"Then it lists more results, ablations and limitations, and a link to the code, all of which the snippet drops."
	kv := strings.Index(long, "KV")
	cache := strings.Index(long, "cache")
	hits := []hit{{start: kv, end: kv + 2}, {start: cache, end: cache + 5}}
	sents := corpus.SentenceSpans(long)
	sn := Make(long, hits, sents[1])

	if got := sn.Marked("[", "]"); !strings.Contains(got, "[KV] [cache] compression") {
		t.Errorf("snippet %q lacks marked terms", got)
	}
	if !sn[0].Mark && sn[0].Text != "…" {
		t.Errorf("snippet starts mid-text without an ellipsis: %q", sn[0].Text)
	}
	if sn[len(sn)-1].Text != "…" {
		t.Errorf("cut snippet does not end with an ellipsis: %q", sn.String())
	}
	if n := len(sn.String()); n > Len+40 {
		t.Errorf("snippet is %d bytes, want about %d", n, Len)
	}
	if got := Make[hit]("Short abstract.", nil, corpus.Span{}); got.String() != "Short abstract." {
		t.Errorf("short text snippet %q", got.String())
	}
	if got := Make[hit]("", nil, corpus.Span{}); got != nil {
		t.Errorf("empty text snippet %q", got.String())
	}
}
