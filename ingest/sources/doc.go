// Package sources reads new papers from the services that announce them:
// arXiv (RSS announcement feeds, OAI-PMH, the query API) and OpenReview
// (API v2). Parsers turn recorded or live response bodies into Records;
// Client fetches them politely (one request at a time, a minimum interval,
// Retry-After honoured). The package imports search only to convert a Record
// into a search.Paper; search never imports it.
package sources
