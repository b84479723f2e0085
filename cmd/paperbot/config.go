package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"reflect"
	"strings"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/ingest"
)

// Config is paperbot's whole configuration, read from the environment. It is
// the one source of truth: `paperbot config --markdown` (docs/configuration.md)
// and .env.example are generated from or checked against these tags. A variable's
// default is its default tag, or, for settings a package owns (bot, digest,
// search), that package's own default (defaultOf): one set of defaults.
type Config struct {
	BotToken  string `env:"SLACK_BOT_TOKEN" secret:"true" desc:"Bot User OAuth Token (xoxb-...), from the app's OAuth & Permissions page. Needed by serve and check."`
	AppToken  string `env:"SLACK_APP_TOKEN" secret:"true" desc:"App-level token (xapp-...) with the connections:write scope, for Socket Mode. Needed by serve."`
	APIURL    string `env:"SLACK_API_URL" desc:"Base URL of the Slack Web API. Change it only to point at a test emulator."`
	Assistant bool   `env:"PAPERBOT_ASSISTANT" default:"false" desc:"Answer on Slack's assistant surface (Agents & AI Apps, paid plans): suggested prompts from the corpus's topics and a status while searching. Install the app from deploy/slack/manifest.assistant.yaml; check then asks for its assistant:write scope."`

	DataDir string `env:"PAPERBOT_DATA_DIR" desc:"Directory for the persistent index and the subscription store; a build also spools the corpus here (about the size of the corpus files, removed when it ends). Empty: an in-memory index, and channel subscriptions are off (they need somewhere durable to live)."`
	// DatabaseURL may hold a password: secret, so `paperbot config` masks it.
	DatabaseURL string        `env:"PAPERBOT_DATABASE_URL" secret:"true" desc:"PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE) for subscriptions, digest runs, reading lists, votes, thread contexts, looked-up links and the fetched papers, instead of the files in PAPERBOT_DATA_DIR; several replicas can share it, each keeping its index in a replica-N directory of its own there. Its tables are created or updated at start. A URL that is wrong, unreachable or whose user may not create tables stops start-up. Empty: the files in PAPERBOT_DATA_DIR."`
	LeaseTTL    time.Duration `env:"PAPERBOT_LEASE_TTL" desc:"With PAPERBOT_DATABASE_URL, how long the replica running the fetcher and the digest scheduler keeps them after its last heartbeat (2s to 10m; heartbeats every quarter of it). When it is lost, another replica takes over within this and a quarter more."`
	Corpus      string        `env:"PAPERBOT_CORPUS" desc:"Comma-separated paper files or globs (seed text, JSON, JSON Lines, TSV). Empty: the embedded ICML 2025 seeds."`

	AllowShrink bool `env:"PAPERBOT_ALLOW_SHRINK" default:"false" desc:"Accept a re-index that loses more than 2% of the papers or skips records (otherwise the old index stays live). Like paperbot index --allow-shrink."`
	MaxAbstract int  `env:"PAPERBOT_MAX_ABSTRACT" desc:"Most characters of an abstract indexed; longer ones are cut, with a warning. Each paper keeps at most 20 code links."`

	Meaning           bool          `env:"PAPERBOT_MEANING" default:"true" desc:"Rank by meaning as well as words: a sentence model's vector per paper finds papers that say what you asked in other words. false: words alone (smaller index, no model)."`
	EmbeddingsURL     string        `env:"PAPERBOT_EMBEDDINGS_URL" desc:"Base URL of an OpenAI-compatible embeddings server (Ollama, Text Embeddings Inference, vLLM, llama.cpp, LM Studio, OpenAI: the URL before /v1/embeddings). Empty: the sentence model embedded in the binary. Its vectors are cached in PAPERBOT_DATA_DIR by paper content."`
	EmbeddingsModel   string        `env:"PAPERBOT_EMBEDDINGS_MODEL" desc:"Model name sent to PAPERBOT_EMBEDDINGS_URL, such as nomic-embed-text or text-embedding-3-small. Required with it."`
	EmbeddingsKey     string        `env:"PAPERBOT_EMBEDDINGS_KEY" secret:"true" desc:"API key sent as a bearer token to PAPERBOT_EMBEDDINGS_URL only. Optional."`
	EmbeddingsBatch   int           `env:"PAPERBOT_EMBEDDINGS_BATCH" default:"64" desc:"Texts per request to PAPERBOT_EMBEDDINGS_URL."`
	EmbeddingsTimeout time.Duration `env:"PAPERBOT_EMBEDDINGS_TIMEOUT" default:"30s" desc:"How long one request to PAPERBOT_EMBEDDINGS_URL may take; a query waits at most 2s, then is answered on words alone."`
	// The prefixes end in a space: unquote strips the quotes docker run
	// --env-file leaves around a value (a shell, compose and systemd remove
	// them), so a quoted value in .env keeps its trailing space everywhere.
	EmbeddingsQueryPrefix    string `env:"PAPERBOT_EMBEDDINGS_QUERY_PREFIX" unquote:"true" desc:"Text put before each search query sent to PAPERBOT_EMBEDDINGS_URL, for models that embed queries and documents differently: \"query: \" for the e5 family, \"search_query: \" for nomic-embed-text, \"Represent this sentence for searching relevant passages: \" for bge-*-en-v1.5 and mxbai-embed-large. Quote it in .env to keep the trailing space. Changing either prefix makes the papers' vectors anew, as another model would. Empty: queries are sent as they are."`
	EmbeddingsDocumentPrefix string `env:"PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX" unquote:"true" desc:"Text put before each paper sent to PAPERBOT_EMBEDDINGS_URL: \"passage: \" for the e5 family, \"search_document: \" for nomic-embed-text; none for bge-*-en-v1.5, mxbai-embed-large, all-MiniLM and OpenAI's text-embedding-3. Empty: papers are sent as they are."`

	HTTPAddr  string `env:"PAPERBOT_HTTP_ADDR" default:"127.0.0.1:8080" desc:"Listen address for /healthz, /readyz and /metrics; off disables them."`
	LogLevel  string `env:"PAPERBOT_LOG_LEVEL" default:"info" desc:"Log level: debug, info, warn or error."`
	LogFormat string `env:"PAPERBOT_LOG_FORMAT" default:"text" desc:"Log format: text or json."`

	Workers       int           `env:"PAPERBOT_WORKERS" desc:"Requests handled at once; more wait their turn."`
	ShutdownGrace time.Duration `env:"PAPERBOT_SHUTDOWN_GRACE" desc:"How long shutdown waits for requests in flight."`

	DigestSize      int           `env:"PAPERBOT_DIGEST_SIZE" desc:"Most papers in one digest (past 10 they continue in its thread)."`
	DigestGrace     time.Duration `env:"PAPERBOT_DIGEST_GRACE" desc:"How late a digest missed during downtime may still be posted."`
	DigestPostEmpty bool          `env:"PAPERBOT_DIGEST_POST_EMPTY" default:"false" desc:"Post a one-line 'nothing new today' instead of staying silent."`
	DigestTick      time.Duration `env:"PAPERBOT_DIGEST_TICK" desc:"How often the digest scheduler looks for digests due (1s to 10m): a digest is posted at most this late."`
	DigestNewDays   int           `env:"PAPERBOT_DIGEST_NEW_DAYS" desc:"With PAPERBOT_SOURCES, how many days back a new subscription's first digest reaches; later digests carry the papers first seen since the one before."`

	Sources         string        `env:"PAPERBOT_SOURCES" desc:"Services to follow for new papers: entries separated by ';', each KIND:VALUE,VALUE with KIND arxiv (categories, e.g. arxiv:cs.LG,stat.ML), openreview (venue IDs, e.g. openreview:ICLR.cc/2026/Conference) or files (paths or globs, added to PAPERBOT_CORPUS). Needs PAPERBOT_DATA_DIR and PAPERBOT_CONTACT for arxiv and openreview."`
	Contact         string        `env:"PAPERBOT_CONTACT" desc:"E-mail or URL of whoever runs this bot, sent in the User-Agent to arXiv and OpenReview as arXiv asks. Required with arxiv or openreview sources."`
	FetchAt         string        `env:"PAPERBOT_FETCH_AT" default:"00:30" desc:"Time of day (HH:MM in PAPERBOT_FETCH_TZ) serve fetches the sources: after arXiv's daily announcement by default."`
	FetchTZ         string        `env:"PAPERBOT_FETCH_TZ" default:"America/New_York" desc:"IANA time zone of PAPERBOT_FETCH_AT (arXiv announces on US Eastern time)."`
	CatalogPoll     time.Duration `env:"PAPERBOT_CATALOG_POLL" default:"15s" desc:"With PAPERBOT_DATABASE_URL and PAPERBOT_SOURCES: how often each replica looks in the database for papers the fetching replica added and brings them into its own index (100ms to 1m)."`
	ArXivURL        string        `env:"PAPERBOT_ARXIV_URL" desc:"Base URL of arXiv's RSS feeds (categories are appended as /cs.LG+stat.ML). Change it for a mirror or a test server."`
	ArXivOAIURL     string        `env:"PAPERBOT_ARXIV_OAI_URL" desc:"arXiv's OAI-PMH endpoint, used to catch up on days missed while down."`
	ArXivAPIURL     string        `env:"PAPERBOT_ARXIV_API_URL" desc:"arXiv's query API, where a pasted arXiv link of a paper the index lacks is looked up (with PAPERBOT_CONTACT set) to unfold it."`
	ArXivBackfill   int           `env:"PAPERBOT_ARXIV_BACKFILL_DAYS" default:"0" desc:"Days of arXiv the first fetch harvests over OAI-PMH before today's feed (0 to 30). 0: a first fetch takes today's announcements only, one request; back-filling lists whole archives (all of cs), some minutes at arXiv's pace."`
	OpenReviewURL   string        `env:"PAPERBOT_OPENREVIEW_URL" desc:"Base URL of the OpenReview API v2."`
	OpenReviewToken string        `env:"PAPERBOT_OPENREVIEW_TOKEN" secret:"true" desc:"OpenReview access token, sent as a bearer token to OpenReview only (it answers some anonymous clients with a browser check). Optional."`
}

// httpOff as PAPERBOT_HTTP_ADDR turns the health and metrics listener off
// (an empty value takes the default, like every other variable).
const httpOff = "off"

// Validate checks everything that can be checked without the network. Its
// messages never contain a token's value.
func (c Config) Validate() error {
	var errs []error
	if _, err := bot.NormalizeAPIURL(c.APIURL); err != nil || c.APIURL == "" {
		errs = append(errs, bot.ErrAPIURL)
	}
	if c.HTTPAddr != httpOff {
		if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
			errs = append(errs, fmt.Errorf("PAPERBOT_HTTP_ADDR must be host:port, such as 127.0.0.1:8080, or off"))
		}
	}
	if _, err := c.slogLevel(); err != nil {
		errs = append(errs, err)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		errs = append(errs, fmt.Errorf("PAPERBOT_LOG_FORMAT must be text or json"))
	}
	if c.Workers < 1 || c.Workers > bot.MaxWorkers {
		errs = append(errs, fmt.Errorf("PAPERBOT_WORKERS must be between 1 and %d", bot.MaxWorkers))
	}
	if c.ShutdownGrace <= 0 {
		errs = append(errs, fmt.Errorf("PAPERBOT_SHUTDOWN_GRACE must be positive, such as 10s"))
	}
	if c.MaxAbstract < 1000 {
		errs = append(errs, fmt.Errorf("PAPERBOT_MAX_ABSTRACT must be at least 1000 characters"))
	}
	if c.DigestSize < 1 || c.DigestSize > digest.MaxPapers {
		errs = append(errs, fmt.Errorf("PAPERBOT_DIGEST_SIZE must be between 1 and %d", digest.MaxPapers))
	}
	if c.DigestGrace < 0 {
		errs = append(errs, fmt.Errorf("PAPERBOT_DIGEST_GRACE must not be negative"))
	}
	if c.DigestTick < time.Second || c.DigestTick > 10*time.Minute {
		errs = append(errs, fmt.Errorf("PAPERBOT_DIGEST_TICK must be between 1s and 10m"))
	}
	if c.LeaseTTL < 2*time.Second || c.LeaseTTL > 10*time.Minute {
		errs = append(errs, fmt.Errorf("PAPERBOT_LEASE_TTL must be between 2s and 10m"))
	}
	if c.DigestNewDays < 1 || c.DigestNewDays > digest.MaxNewDays {
		errs = append(errs, fmt.Errorf("PAPERBOT_DIGEST_NEW_DAYS must be between 1 and %d", digest.MaxNewDays))
	}
	if c.DatabaseURL != "" {
		errs = append(errs, pgstore.CheckURL(c.DatabaseURL))
	}
	if c.CatalogPoll < 100*time.Millisecond || c.CatalogPoll > time.Minute {
		errs = append(errs, fmt.Errorf("PAPERBOT_CATALOG_POLL must be between 100ms and 1m, such as 15s"))
	}
	errs = append(errs, c.validateEmbeddings())
	errs = append(errs, c.validateSources())
	return errors.Join(errs...)
}

// ValidateSlack checks the two tokens' presence and shape, for commands that
// talk to Slack.
func (c Config) ValidateSlack() error {
	var errs []error
	if c.BotToken == "" {
		errs = append(errs, fmt.Errorf("SLACK_BOT_TOKEN is not set (the Bot User OAuth Token, xoxb-...)"))
	} else if !strings.HasPrefix(c.BotToken, "xoxb-") {
		errs = append(errs, fmt.Errorf("SLACK_BOT_TOKEN must start with xoxb- (is it the user or app-level token?)"))
	}
	if c.AppToken == "" {
		errs = append(errs, fmt.Errorf("SLACK_APP_TOKEN is not set (the app-level token, xapp-..., with connections:write)"))
	} else if !strings.HasPrefix(c.AppToken, "xapp-") {
		errs = append(errs, fmt.Errorf("SLACK_APP_TOKEN must start with xapp- (create one under Basic Information > App-Level Tokens)"))
	}
	return errors.Join(errs...)
}

// CorpusPatterns splits PAPERBOT_CORPUS and adds the files sources of
// PAPERBOT_SOURCES; nil means the embedded seeds.
func (c Config) CorpusPatterns() []string {
	var out []string
	for _, p := range strings.Split(c.Corpus, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	if src, err := ingest.ParseSources(c.Sources); err == nil {
		out = append(out, src.Files...)
	}
	return out
}

func (c Config) slogLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return l, fmt.Errorf("PAPERBOT_LOG_LEVEL must be debug, info, warn or error")
	}
	return l, nil
}

// newLogger builds the process logger. Level and format were validated.
func (c Config) newLogger(w io.Writer) *slog.Logger {
	level, _ := c.slogLevel()
	opts := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

//go:generate sh -c "go run . config --markdown > ../../docs/configuration.md"

// configPageIntro opens docs/configuration.md, the page
// `paperbot config --markdown` prints.
const configPageIntro = `# Configuration

Everything comes from the environment (` + "`.env.example`" + ` has every variable; ` + "`paperbot config`" + ` prints the
values in effect with tokens masked; a malformed value is an error, exit 2).

This page is the output of ` + "`paperbot config --markdown`" + `, made from the code: after changing a variable,
regenerate it with ` + "`go generate ./cmd/paperbot`" + ` (a test fails until it matches).

`

// printConfigPage writes the configuration reference page in Markdown: a
// short introduction, then every variable with its default and description.
// docs/configuration.md must equal this output (a test checks).
func printConfigPage(w io.Writer) error {
	var b strings.Builder
	b.WriteString(configPageIntro)
	b.WriteString("| Variable | Default | Description |\n|---|---|---|\n")
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Config]()) {
		def := defaultOf(f)
		if def != "" {
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Tag.Get("env"), def, f.Tag.Get("desc"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
