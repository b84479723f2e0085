package search

import "github.com/paperbot/paperbot/search/corpus"

// span is a byte range of a text.
type span = corpus.Span

// sentences splits text into sentences (corpus.SentenceSpans).
func sentences(text string) []span { return corpus.SentenceSpans(text) }
