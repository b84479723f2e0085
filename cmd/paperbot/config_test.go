package main

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	base := func() Config {
		return Config{APIURL: "https://slack.com/api/", HTTPAddr: "127.0.0.1:8080", LogLevel: "info",
			LogFormat: "text", Workers: 8, ShutdownGrace: 1, DigestSize: 5, MaxAbstract: 20000,
			DigestNewDays: 3, FetchAt: "00:30", FetchTZ: "America/New_York", Meaning: true, EmbeddingsBatch: 64, EmbeddingsTimeout: time.Second,
			CatalogPoll: 15 * time.Second, DigestTick: 30 * time.Second, LeaseTTL: 20 * time.Second}
	}
	tests := []struct {
		name    string
		mutate  func(*Config)
		wantErr string
	}{
		{"defaults are valid", func(*Config) {}, ""},
		{"bad api url", func(c *Config) { c.APIURL = "slack.com" }, "SLACK_API_URL"},
		{"bad http addr", func(c *Config) { c.HTTPAddr = "8080" }, "PAPERBOT_HTTP_ADDR"},
		{"http disabled", func(c *Config) { c.HTTPAddr = httpOff }, ""},
		{"empty http addr", func(c *Config) { c.HTTPAddr = "" }, "PAPERBOT_HTTP_ADDR"},
		{"bad level", func(c *Config) { c.LogLevel = "loud" }, "PAPERBOT_LOG_LEVEL"},
		{"bad format", func(c *Config) { c.LogFormat = "xml" }, "PAPERBOT_LOG_FORMAT"},
		{"no workers", func(c *Config) { c.Workers = 0 }, "PAPERBOT_WORKERS"},
		{"huge digest", func(c *Config) { c.DigestSize = 500 }, "PAPERBOT_DIGEST_SIZE"},
		{"digest tick too short", func(c *Config) { c.DigestTick = time.Millisecond }, "PAPERBOT_DIGEST_TICK"},
		{"lease shorter than its heartbeats can keep", func(c *Config) { c.LeaseTTL = time.Second }, "PAPERBOT_LEASE_TTL"},
		{"sources", func(c *Config) {
			c.Sources, c.DataDir, c.Contact = "arxiv:cs.LG,stat.ML; openreview:ICLR.cc/2026/Conference", "/data", "ops@example.org"
		}, ""},
		{"unknown source kind names the entry", func(c *Config) { c.Sources = "arxiv:cs.LG; medrxiv:all" }, `entry 2 "medrxiv:all": unknown kind "medrxiv"`},
		{"sources need a contact", func(c *Config) { c.Sources, c.DataDir = "arxiv:cs.LG", "/data" }, "PAPERBOT_CONTACT"},
		{"sources need a data dir", func(c *Config) { c.Sources, c.Contact = "arxiv:cs.LG", "ops@example.org" }, "PAPERBOT_DATA_DIR"},
		{"files only need neither", func(c *Config) { c.Sources = "files:/corpus/*.jsonl" }, ""},
		{"bad source URL", func(c *Config) {
			c.Sources, c.DataDir, c.Contact, c.ArXivURL = "arxiv:cs.LG", "/data", "ops@example.org", "ftp://mirror"
		}, "ftp://mirror"},
		{"bad fetch time", func(c *Config) { c.FetchAt = "25:00" }, "PAPERBOT_FETCH_AT"},
		{"negative back-fill", func(c *Config) { c.ArXivBackfill = -1 }, "PAPERBOT_ARXIV_BACKFILL_DAYS"},
		{"back-fill of a year", func(c *Config) { c.ArXivBackfill = 365 }, "PAPERBOT_ARXIV_BACKFILL_DAYS"},
		{"catalog poll of an hour", func(c *Config) { c.CatalogPoll = time.Hour }, "PAPERBOT_CATALOG_POLL"},
		{"bad fetch zone", func(c *Config) { c.FetchTZ = "Mars/Olympus" }, "PAPERBOT_FETCH_TZ"},
		{"embeddings server", func(c *Config) { c.EmbeddingsURL, c.EmbeddingsModel = "http://127.0.0.1:11434", "nomic-embed-text" }, ""},
		{"embeddings URL not http", func(c *Config) { c.EmbeddingsURL, c.EmbeddingsModel = "127.0.0.1:11434", "m" }, "PAPERBOT_EMBEDDINGS_URL"},
		{"embeddings without a model", func(c *Config) { c.EmbeddingsURL = "http://127.0.0.1:11434" }, "PAPERBOT_EMBEDDINGS_MODEL"},
		{"embeddings with meaning off", func(c *Config) {
			c.EmbeddingsURL, c.EmbeddingsModel, c.Meaning = "http://127.0.0.1:11434", "m", false
		}, "PAPERBOT_MEANING"},
		{"embeddings batch too big", func(c *Config) { c.EmbeddingsBatch = 5000 }, "PAPERBOT_EMBEDDINGS_BATCH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.mutate(&c)
			err := c.Validate()
			if tt.wantErr == "" && err != nil {
				t.Fatalf("Validate() = %v, want nil", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Validate() = %v, want an error naming %s", err, tt.wantErr)
			}
		})
	}
}

func TestValidateSlackNeverPrintsTokens(t *testing.T) {
	secret := "xoxp-fake-user-secret-value"
	c := Config{BotToken: secret, AppToken: "xoxb-wrong-kind-secret"}
	err := c.ValidateSlack()
	if err == nil {
		t.Fatal("a user token as SLACK_BOT_TOKEN was accepted")
	}
	if strings.Contains(err.Error(), "secret") {
		t.Fatalf("error leaks a token: %v", err)
	}
	if !strings.Contains(err.Error(), "xoxb-") || !strings.Contains(err.Error(), "xapp-") {
		t.Fatalf("error does not say which prefixes are expected: %v", err)
	}
	ok := Config{BotToken: "xoxb-abc", AppToken: "xapp-abc"}
	if err := ok.ValidateSlack(); err != nil {
		t.Fatalf("well-formed tokens rejected: %v", err)
	}
}

// lookupIn is a lookupFunc over a map, for tests that run in parallel.
func lookupIn(vars map[string]string) lookupFunc {
	return func(key string) (string, bool) { v, ok := vars[key]; return v, ok }
}

func TestConfigFromEnvironment(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"PAPERBOT_CORPUS": " a.json, papers/*.tsv ,,", "PAPERBOT_WORKERS": "3", "PAPERBOT_HTTP_ADDR": " "}
	c, err := loadConfig(lookupIn(vars))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.CorpusPatterns(), []string{"a.json", "papers/*.tsv"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CorpusPatterns() = %q, want %q", got, want)
	}
	if c.Workers != 3 || c.APIURL != "https://slack.com/api/" || c.HTTPAddr != "127.0.0.1:8080" || c.DigestGrace != 6*time.Hour {
		t.Errorf("env not applied or defaults missing: %+v", c)
	}
	vars["PAPERBOT_WORKERS"] = "many"
	if _, err := loadConfig(lookupIn(vars)); err == nil || err.Error() != `PAPERBOT_WORKERS="many" is not a valid whole number (see paperbot config --markdown)` {
		t.Errorf("loadConfig with a non-number = %v, want a friendly error naming PAPERBOT_WORKERS", err)
	}
	vars["PAPERBOT_WORKERS"] = "3"
	vars["PAPERBOT_DIGEST_GRACE"] = "6 hours"
	if _, err := loadConfig(lookupIn(vars)); err == nil || !strings.Contains(err.Error(), "PAPERBOT_DIGEST_GRACE") || !strings.Contains(err.Error(), "such as 10s") {
		t.Errorf("loadConfig with a bad duration = %v", err)
	}
}

// configKeys lists every variable of Config, in declaration order.
func configKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	typ := reflect.TypeOf(Config{})
	for i := 0; i < typ.NumField(); i++ {
		keys = append(keys, typ.Field(i).Tag.Get("env"))
	}
	return keys
}

func TestEnvExampleDocumentsEveryVariable(t *testing.T) {
	b, err := os.ReadFile("../../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// A variable is documented set (KEY=value) or commented out with its
		// default ("# KEY=value").
		line := strings.TrimPrefix(sc.Text(), "# ")
		if k, _, ok := strings.Cut(line, "="); ok && !strings.ContainsAny(k, " #") {
			documented[k] = true
		}
	}
	keys := configKeys(t)
	for _, k := range keys {
		if !documented[k] {
			t.Errorf(".env.example does not document %s", k)
		}
		delete(documented, k)
	}
	for k := range documented {
		t.Errorf(".env.example sets %s, which the code does not read", k)
	}
}

// TestConfigurationPageMatchesCode: docs/configuration.md is what
// `paperbot config --markdown` prints, byte for byte.
func TestConfigurationPageMatchesCode(t *testing.T) {
	var want bytes.Buffer
	if err := printConfigPage(&want); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(page, want.Bytes()) {
		t.Errorf("docs/configuration.md differs from the code; regenerate it: go generate ./cmd/paperbot")
	}
}

// TestConfigMarkdownPrintsThePage: the command the page says regenerates
// it prints it.
func TestConfigMarkdownPrintsThePage(t *testing.T) {
	clearEnv(t)
	code, out, errOut := runCmd(t, t.Context(), "config", "--markdown")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	var want bytes.Buffer
	if err := printConfigPage(&want); err != nil {
		t.Fatal(err)
	}
	if out != want.String() || !strings.HasPrefix(out, "# Configuration\n") || !strings.Contains(out, "| `PAPERBOT_DATA_DIR` |") {
		t.Errorf("config --markdown printed:\n%s", out)
	}
}
