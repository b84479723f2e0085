package main

import (
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/taste"
	"github.com/paperbot/paperbot/search"
)

// learning is the index as the digests search it: each channel's papers
// ordered by its votes, kept in the same store (bot/taste).
func learning(store taste.Votes, ix *search.Index) digest.Searcher {
	return taste.Searcher{Searcher: ix, Votes: store, Vectors: taste.TermVectors{Index: ix}}
}
