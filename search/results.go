package search

import "github.com/paperbot/paperbot/search/snippet"

// Request is a search over the index.
type Request struct {
	// Text is free text in the query language (phrases, -exclusions,
	// title:/author:/venue:/year:/has:code filters) or a natural-language question.
	Text string
	// Query is Text parsed by ParseQuery, when the caller parsed it
	// already (the bot reads the count asked for from it); Text is then
	// ignored.
	Query  *Query
	Limit  int // results per page; 0 means 5
	Offset int // for paging
	// Answer asks for an answer sentence on every result, as a
	// conversation (a mention, a DM) does; without it only questions and
	// queries of several words get one.
	Answer bool
	// Filter restricts the results to some categories or dates.
	Filter Filter
}

// Results answers a Request.
type Results struct {
	Query string `json:"query"`
	// NoMatch is true when nothing in the corpus is really relevant; Results
	// may then still list the closest papers, which callers must not present
	// as answers.
	NoMatch bool `json:"no_match"`
	// Confidence is how sure the search is that the best paper is relevant,
	// 0..1; NoMatch is Confidence below a threshold fitted on data.
	Confidence float64  `json:"confidence"`
	Total      int      `json:"total"`
	Offset     int      `json:"offset"`
	Results    []Result `json:"results"`
	// Missing lists, as typed, the query's words that none of Results has
	// (not even through an association), when Results are relevant: the
	// user sees what the papers lack ("legal" of "legal document
	// summarization").
	Missing []string `json:"missing,omitempty"`
}

// Result is one ranked paper.
type Result struct {
	Paper
	// Score is relative to the query's best result (1), for ordering and
	// display; it is not comparable across queries.
	Score float64 `json:"score"`
	// Snippet is an abstract fragment with the query's terms marked.
	Snippet Snippet `json:"snippet"`
	// Answer is the single abstract sentence that best answers the query,
	// empty when no sentence does.
	Answer string `json:"answer,omitempty"`
	// Matched lists the query terms (as the user typed them) found in this
	// paper, each matched through an association followed by the paper's
	// words for it in brackets: the "why this matched" line.
	Matched []string `json:"matched,omitempty"`
	// Meaning is the paper's cosine with the query in the sentence
	// model's space (0 without vectors): high for a paper on what was
	// asked in other words.
	Meaning float64 `json:"meaning,omitempty"`
}

// Span is a piece of a Snippet; Mark is true for a highlighted query term.
type Span = snippet.Span

// Snippet is text with highlighted spans (snippet.Make cuts it). It marshals
// to JSON as one string with highlights wrapped in "**".
type Snippet = snippet.Snippet

// Stats describes an index's corpus.
type Stats struct {
	Papers int      `json:"papers"`
	Venues []string `json:"venues"`
}
