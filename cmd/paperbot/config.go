package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/kelseyhightower/envconfig"
)

// Config is paperbot's whole configuration, read from the environment. It is
// the one source of truth: `paperbot config --markdown`, .env.example and the README's
// table are generated from or checked against these tags.
type Config struct {
	BotToken string `envconfig:"SLACK_BOT_TOKEN" secret:"true" desc:"Bot User OAuth Token (xoxb-...), from the app's OAuth & Permissions page. Needed by serve and check."`
	AppToken string `envconfig:"SLACK_APP_TOKEN" secret:"true" desc:"App-level token (xapp-...) with the connections:write scope, for Socket Mode. Needed by serve."`
	APIURL   string `envconfig:"SLACK_API_URL" default:"https://slack.com/api/" desc:"Base URL of the Slack Web API. Change it only to point at a test emulator."`

	DataDir string `envconfig:"PAPERBOT_DATA_DIR" desc:"Directory for the persistent index and the subscription store. Empty: an in-memory index, and channel subscriptions are off (they need somewhere durable to live)."`
	Corpus  string `envconfig:"PAPERBOT_CORPUS" desc:"Comma-separated paper files or globs (seed text, JSON, JSON Lines, TSV). Empty: the embedded ICML 2025 seeds."`

	AllowShrink bool `envconfig:"PAPERBOT_ALLOW_SHRINK" default:"false" desc:"Accept a re-index that loses more than 2% of the papers or skips records (otherwise the old index stays live). Like paperbot index --allow-shrink."`
	MaxAbstract int  `envconfig:"PAPERBOT_MAX_ABSTRACT" default:"20000" desc:"Most characters of an abstract indexed; longer ones are cut, with a warning. Each paper keeps at most 20 code links."`

	HTTPAddr  string `envconfig:"PAPERBOT_HTTP_ADDR" default:"127.0.0.1:8080" desc:"Listen address for /healthz, /readyz and /metrics; off disables them."`
	LogLevel  string `envconfig:"PAPERBOT_LOG_LEVEL" default:"info" desc:"Log level: debug, info, warn or error."`
	LogFormat string `envconfig:"PAPERBOT_LOG_FORMAT" default:"text" desc:"Log format: text or json."`

	Workers       int           `envconfig:"PAPERBOT_WORKERS" default:"8" desc:"Requests handled at once; more wait their turn."`
	ShutdownGrace time.Duration `envconfig:"PAPERBOT_SHUTDOWN_GRACE" default:"10s" desc:"How long shutdown waits for requests in flight."`

	DigestSize      int           `envconfig:"PAPERBOT_DIGEST_SIZE" default:"5" desc:"Most papers in one digest (past 10 they continue in its thread)."`
	DigestGrace     time.Duration `envconfig:"PAPERBOT_DIGEST_GRACE" default:"6h" desc:"How late a digest missed during downtime may still be posted."`
	DigestPostEmpty bool          `envconfig:"PAPERBOT_DIGEST_POST_EMPTY" default:"false" desc:"Post a one-line 'nothing new today' instead of staying silent."`
}

// httpOff as PAPERBOT_HTTP_ADDR turns the health and metrics listener off
// (an empty value takes the default, like every other variable).
const httpOff = "off"

// loadConfig reads the environment and validates the result. A variable
// set to the empty string counts as unset, so a .env file copied from
// .env.example with blanks left in takes the defaults.
func loadConfig() (Config, error) {
	var c Config
	typ := reflect.TypeOf(c)
	for i := 0; i < typ.NumField(); i++ {
		key := typ.Field(i).Tag.Get("envconfig")
		if v, set := os.LookupEnv(key); set && strings.TrimSpace(v) == "" {
			os.Unsetenv(key)
		}
	}
	if err := envconfig.Process("", &c); err != nil {
		var pe *envconfig.ParseError
		if errors.As(err, &pe) {
			// Only numbers, durations and booleans can fail to parse, never a token.
			return c, fmt.Errorf("%s=%q is not a valid %s (see paperbot config --markdown)", pe.KeyName, pe.Value, typeWord(pe.TypeName))
		}
		return c, fmt.Errorf("configuration: %w", err)
	}
	return c, c.Validate()
}

func typeWord(goType string) string {
	switch goType {
	case "int":
		return "whole number"
	case "time.Duration", "Duration":
		return "duration such as 10s or 6h"
	case "bool":
		return "boolean (true or false)"
	}
	return goType
}

// Validate checks everything that can be checked without the network. Its
// messages never contain a token's value.
func (c Config) Validate() error {
	var errs []error
	u, err := url.Parse(c.APIURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		errs = append(errs, fmt.Errorf("SLACK_API_URL must be an http(s) URL such as https://slack.com/api/"))
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
	if c.Workers < 1 || c.Workers > 256 {
		errs = append(errs, fmt.Errorf("PAPERBOT_WORKERS must be between 1 and 256"))
	}
	if c.ShutdownGrace <= 0 {
		errs = append(errs, fmt.Errorf("PAPERBOT_SHUTDOWN_GRACE must be positive, such as 10s"))
	}
	if c.MaxAbstract < 1000 {
		errs = append(errs, fmt.Errorf("PAPERBOT_MAX_ABSTRACT must be at least 1000 characters"))
	}
	if c.DigestSize < 1 || c.DigestSize > 20 {
		errs = append(errs, fmt.Errorf("PAPERBOT_DIGEST_SIZE must be between 1 and 20"))
	}
	if c.DigestGrace < 0 {
		errs = append(errs, fmt.Errorf("PAPERBOT_DIGEST_GRACE must not be negative"))
	}
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

// CorpusPatterns splits PAPERBOT_CORPUS; nil means the embedded seeds.
func (c Config) CorpusPatterns() []string {
	var out []string
	for _, p := range strings.Split(c.Corpus, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
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

// configTableFormat renders the configuration as a Markdown table; the
// README's table must equal this output (a test checks).
const configTableFormat = `| Variable | Default | Description |
|---|---|---|
{{range .}}| ` + "`{{usage_key .}}`" + ` | {{with usage_default .}}` + "`{{.}}`" + `{{end}} | {{usage_description .}} |
{{end}}`

// printConfigTable writes the configuration table in Markdown.
func printConfigTable(w io.Writer) error {
	return envconfig.Usagef("", &Config{}, w, configTableFormat)
}
