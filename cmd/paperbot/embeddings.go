package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/search/semantic"
	"github.com/paperbot/paperbot/search/semantic/served"
)

// maxEmbeddingsBatch bounds PAPERBOT_EMBEDDINGS_BATCH: servers cap a
// request's inputs (OpenAI at 2,048).
const maxEmbeddingsBatch = 2048

// maxEmbeddingsPrefix bounds the query and document prefixes: the longest
// in use (bge's "Represent this sentence for searching relevant passages: ")
// has 58 characters.
const maxEmbeddingsPrefix = 200

// validateEmbeddings checks the embeddings server settings.
func (c Config) validateEmbeddings() error {
	var errs []error
	if c.EmbeddingsURL != "" {
		u, err := url.Parse(c.EmbeddingsURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("PAPERBOT_EMBEDDINGS_URL must be an http(s) URL such as http://127.0.0.1:11434 (the part before /v1/embeddings)"))
		}
		if c.EmbeddingsModel == "" {
			errs = append(errs, fmt.Errorf("PAPERBOT_EMBEDDINGS_MODEL must name the model to ask PAPERBOT_EMBEDDINGS_URL for, such as nomic-embed-text"))
		}
		if !c.Meaning {
			errs = append(errs, fmt.Errorf("PAPERBOT_EMBEDDINGS_URL is set but PAPERBOT_MEANING is false: unset one"))
		}
	}
	for _, p := range []struct{ name, value string }{
		{"PAPERBOT_EMBEDDINGS_QUERY_PREFIX", c.EmbeddingsQueryPrefix},
		{"PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX", c.EmbeddingsDocumentPrefix},
	} {
		switch {
		case p.value == "":
		case c.EmbeddingsURL == "":
			errs = append(errs, fmt.Errorf("%s is set but PAPERBOT_EMBEDDINGS_URL is not: the built-in model takes no prefix", p.name))
		case strings.ContainsAny(p.value, "\r\n") || utf8.RuneCountInString(p.value) > maxEmbeddingsPrefix:
			errs = append(errs, fmt.Errorf("%s must be one line of at most %d characters, such as \"query: \"", p.name, maxEmbeddingsPrefix))
		}
	}
	if c.EmbeddingsBatch < 1 || c.EmbeddingsBatch > maxEmbeddingsBatch {
		errs = append(errs, fmt.Errorf("PAPERBOT_EMBEDDINGS_BATCH must be between 1 and %d", maxEmbeddingsBatch))
	}
	if c.EmbeddingsTimeout <= 0 {
		errs = append(errs, fmt.Errorf("PAPERBOT_EMBEDDINGS_TIMEOUT must be positive, such as 30s"))
	}
	return errors.Join(errs...)
}

// meaningOptions sets the sentence-model side of opts from cfg: words
// alone, the embedded model (the default, opts unchanged), or a served
// model behind a vector cache in the data directory. A server that cannot
// be reached now is not an error: the index builds on words and
// fillVectors adds the vectors once it answers.
func (cfg Config) meaningOptions(ctx context.Context, opts *search.Options, log *slog.Logger) error {
	if !cfg.Meaning {
		opts.NoMeaning = true
		return nil
	}
	if cfg.EmbeddingsURL == "" {
		return nil
	}
	client, err := cfg.embeddingsClient()
	if err != nil {
		return err
	}
	var emb semantic.Embedder = client
	if cfg.DataDir != "" {
		cache, err := served.OpenCache(cfg.DataDir, log)
		if err != nil {
			return fmt.Errorf("open the embeddings cache in %s: %w", cfg.DataDir, err)
		}
		emb, opts.Release = served.NewCachedEmbedder(client, cache), cache.Close
	}
	pctx, cancel := context.WithTimeout(ctx, cfg.EmbeddingsTimeout)
	defer cancel()
	model := append([]any{"url", shownURL(cfg.EmbeddingsURL), "model", cfg.EmbeddingsModel}, cfg.embeddingsPrefixAttrs()...)
	if dims, err := client.Probe(pctx); err != nil {
		log.Warn("embeddings server not answering: papers are indexed on words and get their vectors once it answers",
			append(model, "err", oneLine(err))...)
	} else {
		log.Info("embeddings server answers", append(model, "dims", dims)...)
	}
	opts.Embedder = emb
	opts.MeaningFailed = func(err error) {
		log.Warn("query not embedded, answered on words alone", "model", cfg.EmbeddingsModel, "err", oneLine(err))
	}
	return nil
}

func (cfg Config) embeddingsClient() (*served.Client, error) {
	c, err := served.New(served.Config{URL: cfg.EmbeddingsURL, Model: cfg.EmbeddingsModel, APIKey: cfg.EmbeddingsKey,
		BatchSize: cfg.EmbeddingsBatch, Timeout: cfg.EmbeddingsTimeout,
		QueryPrefix: cfg.EmbeddingsQueryPrefix, DocumentPrefix: cfg.EmbeddingsDocumentPrefix})
	if err != nil {
		return nil, fmt.Errorf("PAPERBOT_EMBEDDINGS_URL: %w", err)
	}
	return c, nil
}

// embeddingsPrefixAttrs are the prefixes in use, for logs (none when
// unset).
func (cfg Config) embeddingsPrefixAttrs() []any {
	var out []any
	if cfg.EmbeddingsQueryPrefix != "" {
		out = append(out, "query_prefix", cfg.EmbeddingsQueryPrefix)
	}
	if cfg.EmbeddingsDocumentPrefix != "" {
		out = append(out, "document_prefix", cfg.EmbeddingsDocumentPrefix)
	}
	return out
}

// embeddingsModel names the served model and the prefixes in use, for
// paperbot check: model e5 (query prefix "query: ", document prefix
// "passage: ").
func (cfg Config) embeddingsModel() string {
	var p []string
	if cfg.EmbeddingsQueryPrefix != "" {
		p = append(p, fmt.Sprintf("query prefix %q", cfg.EmbeddingsQueryPrefix))
	}
	if cfg.EmbeddingsDocumentPrefix != "" {
		p = append(p, fmt.Sprintf("document prefix %q", cfg.EmbeddingsDocumentPrefix))
	}
	if len(p) == 0 {
		return "model " + cfg.EmbeddingsModel
	}
	return "model " + cfg.EmbeddingsModel + " (" + strings.Join(p, ", ") + ")"
}

// meaningMetrics export how the sentence model fares: queries it failed
// (answered on words alone) and papers still without a vector.
func meaningMetrics(ix *search.Index) []prometheus.Collector {
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "paperbot_query_embedding_failures_total", Help: "Queries answered on words alone because the embeddings server failed or was too slow.",
		}, func() float64 { return float64(ix.MeaningFailures()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "paperbot_papers_without_vectors", Help: "Papers indexed while the embeddings server was down, found by their words only until their vectors are filled in.",
		}, func() float64 { return float64(ix.MissingVectors()) }),
	}
}

// fillVectorsEvery is how often serve retries the vectors a served model
// down at build time left missing.
const fillVectorsEvery = 5 * time.Minute

// fillVectors adds the vectors of papers indexed while the embeddings
// server was down, every fillVectorsEvery until none is missing or ctx
// ends.
func fillVectors(ctx context.Context, ix *search.Index, log *slog.Logger) {
	t := time.NewTicker(fillVectorsEvery)
	defer t.Stop()
	for ix.MissingVectors() > 0 {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := ix.FillVectors(ctx)
		if err != nil {
			log.Warn("papers still without vectors", "missing", ix.MissingVectors(), "err", oneLine(err))
			continue
		}
		log.Info("paper vectors filled in", "papers", n)
	}
}

// shownURL is u without what may hold a secret (user info, query), for
// logs.
func shownURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	p.User, p.RawQuery, p.Fragment = nil, "", ""
	return p.String()
}

// checkMeaning reports the sentence model for paperbot check: off, the
// built-in model (loaded and checked), or a served one (asked for a
// vector, which also tells its size).
func checkMeaning(ctx context.Context, cfg Config, r *checkReport) {
	switch {
	case !cfg.Meaning:
		r.add("sentence model", true, "off (PAPERBOT_MEANING=false): papers are ranked on words alone")
		return
	case cfg.EmbeddingsURL == "":
		m, err := semantic.Embedded()
		if err != nil {
			r.add("sentence model", false, "the built-in model cannot be read: %s (the binary is damaged: reinstall it)", oneLine(err))
			return
		}
		r.add("sentence model", true, "built in: %s (%d tokens, %d dimensions)", m.ModelID(), m.Rows(), m.Dims())
		return
	}
	client, err := cfg.embeddingsClient()
	if err != nil {
		r.add("embeddings server", false, "%s", oneLine(err))
		return
	}
	pctx, cancel := context.WithTimeout(ctx, cfg.EmbeddingsTimeout)
	defer cancel()
	dims, err := client.Probe(pctx)
	if err != nil {
		r.add("embeddings server", false, "%s %s: %s (serve would index on words and add the vectors once it answers)",
			shownURL(cfg.EmbeddingsURL), cfg.embeddingsModel(), oneLine(err))
		return
	}
	r.add("embeddings server", true, "%s %s answers with %d-dimension vectors; an index made with another model, size or prefixes is rebuilt at start",
		shownURL(cfg.EmbeddingsURL), cfg.embeddingsModel(), dims)
}
