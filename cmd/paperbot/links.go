package main

import (
	"log/slog"

	"github.com/paperbot/paperbot/ingest"
)

// maxMemoryLinks bounds the looked-up links kept without a data directory.
const maxMemoryLinks = 10_000

// linkFinder looks up pasted arXiv and OpenReview links of papers the index
// lacks, so they unfold too: through the feeds' client when they run (one
// polite pace per site), cached in the store (in memory without one). Nil
// when PAPERBOT_CONTACT is not set: arXiv asks to know who calls.
func linkFinder(cfg Config, fd *feeds, store ingest.LinkCache, log *slog.Logger) (*ingest.LinkFinder, error) {
	if cfg.Contact == "" {
		log.Info("PAPERBOT_CONTACT is not set: pasted links of papers outside the index are not looked up")
		return nil, nil
	}
	var cache ingest.LinkCache = ingest.NewMemoryLinkCache(maxMemoryLinks)
	if store != nil {
		cache = store
	}
	if fd != nil && fd.client != nil {
		return ingest.NewLinkFinder(fd.client, cache, nil), nil
	}
	client, err := cfg.sourcesClient(nil, nil)
	if err != nil {
		return nil, err
	}
	return ingest.NewLinkFinder(client, cache, nil), nil
}
