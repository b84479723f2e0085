package sources

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// OAIQuery selects what HarvestOAI lists. With Token set, the harvest
// resumes from it and the other fields are ignored (OAI-PMH sends a token
// alone).
type OAIQuery struct {
	// MetadataPrefix is "arXiv" (default), "arXivRaw" or "oai_dc".
	MetadataPrefix string
	// Set is an OAI set spec such as "cs" or "physics:hep-ex"; "" for all.
	Set string
	// From and Until bound the datestamps, inclusive, as YYYY-MM-DD; "" for
	// unbounded.
	From, Until string
	// Token is a resumptionToken saved from an interrupted harvest.
	Token string
}

// OAIProgress is where a harvest stands after a page. Persist it after the
// page's records are stored: Token resumes with the next page.
type OAIProgress struct {
	// Token fetches the next page; "" when Done.
	Token string
	// Cursor and CompleteListSize are the server's, -1 when not sent.
	Cursor, CompleteListSize int
	// LastDatestamp is the latest record datestamp seen in this run (a
	// restart after a finished harvest can ask from it).
	LastDatestamp  string
	Pages, Records int
	// Done is true once the last page has been handed over.
	Done bool
}

// HarvestOAI lists records from the OAI-PMH endpoint page by page, following
// resumption tokens, and calls page with each page's records and the
// progress after it. The harvest stops at the first error from page, which
// is returned. noRecordsMatch is an empty, finished harvest, not an error;
// From or Until not of the form YYYY-MM-DD is an error before any request;
// other OAI-PMH errors are *OAIError (a stale saved token gives
// ErrBadResumptionToken: restart from LastDatestamp). The returned progress
// is the last one handed to page.
func (c *Client) HarvestOAI(ctx context.Context, q OAIQuery, page func(recs []Record, p OAIProgress) error) (OAIProgress, error) {
	prog := OAIProgress{Token: q.Token, Cursor: -1, CompleteListSize: -1}
	for _, d := range []string{q.From, q.Until} {
		// arXiv's OAI-PMH granularity is a day; anything else is badArgument.
		if _, err := time.Parse(oaiDate, d); d != "" && err != nil {
			return prog, fmt.Errorf("oai-pmh harvest: date %q is not YYYY-MM-DD", d)
		}
	}
	if q.MetadataPrefix == "" {
		q.MetadataPrefix = "arXiv"
	}
	for {
		v := url.Values{"verb": {"ListRecords"}}
		if prog.Token != "" {
			v.Set("resumptionToken", prog.Token)
		} else {
			v.Set("metadataPrefix", q.MetadataPrefix)
			for k, s := range map[string]string{"set": q.Set, "from": q.From, "until": q.Until} {
				if s != "" {
					v.Set(k, s)
				}
			}
		}
		body, err := c.get(ctx, c.cfg.OAIURL+"?"+v.Encode(), "text/xml, application/xml")
		if err != nil {
			return prog, fmt.Errorf("oai-pmh harvest: %w", err)
		}
		p, err := ParseOAI(body)
		if errors.Is(err, ErrNoRecordsMatch) && prog.Pages == 0 {
			prog.Token, prog.Done = "", true
			return prog, page(nil, prog)
		}
		if err != nil {
			return prog, fmt.Errorf("oai-pmh harvest: %w", err)
		}
		if p.Token != "" && p.Token == prog.Token {
			return prog, fmt.Errorf("oai-pmh harvest: server returned the token %q it was given: %w", p.Token, ErrUnexpectedContent)
		}
		prog.Pages++
		prog.Records += len(p.Records)
		prog.Token, prog.Cursor, prog.CompleteListSize = p.Token, p.Cursor, p.CompleteListSize
		for _, r := range p.Records {
			if r.Datestamp > prog.LastDatestamp {
				prog.LastDatestamp = r.Datestamp
			}
		}
		prog.Done = p.Token == ""
		if err := page(p.Records, prog); err != nil {
			return prog, err
		}
		if prog.Done {
			return prog, nil
		}
	}
}
