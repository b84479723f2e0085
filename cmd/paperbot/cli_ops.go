package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/search"
)

// checkReport is what check found, in order; --json prints it as is.
type checkReport struct {
	Ready  bool        `json:"ready"`
	Checks []checkItem `json:"checks"`
}

type checkItem struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func (r *checkReport) add(name string, ok bool, format string, args ...any) {
	r.Checks = append(r.Checks, checkItem{Name: name, OK: ok, Detail: fmt.Sprintf(format, args...)})
}

// runCheck validates the configuration and the corpus and checks the tokens
// against Slack, listing missing scopes: what to fix before going live. Not
// ready (a token missing or refused, a scope missing) is exit code 1.
func runCheck(e *env, args []string) error {
	fs := newFlags("check")
	asJSON := fs.Bool("json", false, "print the checks as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("check takes no arguments")
	}
	r := checkSlack(e, e.cfg)
	r.Ready = true
	for _, c := range r.Checks {
		r.Ready = r.Ready && c.OK
	}
	if *asJSON {
		if err := writeJSON(e.stdout, r); err != nil {
			return err
		}
	} else {
		for _, c := range r.Checks {
			mark := "ok"
			if !c.OK {
				mark = "NOT OK"
			}
			fmt.Fprintf(e.stdout, "%s: %s: %s\n", c.Name, mark, c.Detail)
		}
		if r.Ready {
			fmt.Fprintln(e.stdout, "ready to go live: paperbot serve")
		}
	}
	if !r.Ready {
		var problems []string
		for _, c := range r.Checks {
			if !c.OK {
				problems = append(problems, c.Name+": "+c.Detail)
			}
		}
		return answerNo{"not ready to go live: " + strings.Join(problems, "; ")}
	}
	return nil
}

// checkSlack runs the checks in order; a failed step skips those that
// depend on it.
func checkSlack(e *env, cfg Config) *checkReport {
	r := &checkReport{}
	r.add("configuration", true, "valid")
	if corpus, err := loadCorpus(cfg); err != nil {
		r.add("corpus", false, "%s", userMessage(err))
	} else {
		r.add("corpus", true, "%d papers from %s (%d skipped, %d duplicates)",
			len(corpus.Papers), corpusName(cfg), corpus.Skipped, corpus.Duplicates)
	}
	if cfg.DataDir == "" {
		r.add("data directory", true, "not set (in-memory index; channel digests off)")
	} else {
		r.add("data directory", true, "%s", cfg.DataDir)
	}
	checkMeaning(e.ctx, cfg, r)
	if err := cfg.ValidateSlack(); err != nil {
		r.add("slack tokens", false, "%s", oneLine(err))
		return r
	}
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	p, err := bot.CheckTokens(ctx, cfg.botConfig())
	if err != nil {
		r.add("bot token", false, "%s", oneLine(err))
		return r
	}
	r.add("bot token", true, "@%s (%s) in %s (%s)", p.Auth.User, p.Auth.UserID, p.Auth.Team, p.Auth.TeamID)
	switch {
	case p.Scopes == nil:
		r.add("scopes", true, "Slack did not report the token's scopes; compare them with deploy/slack/manifest.yaml")
	case len(p.Missing) > 0:
		r.add("scopes", false, "the bot token lacks scopes %s: add them (or re-create the app from deploy/slack/manifest.yaml) and reinstall the app",
			strings.Join(p.Missing, ", "))
	default:
		r.add("scopes", true, "all %d required scopes granted", len(bot.RequiredScopes(e.cfg.Assistant)))
	}
	if p.SocketMode != nil {
		r.add("socket mode", false, "%v (is Socket Mode enabled, and does the app-level token have connections:write?)", p.SocketMode)
	} else {
		r.add("socket mode", true, "app-level token ok: Socket Mode connection available")
	}
	return r
}

// runDigest prints what a channel's digests would post now, without posting
// or recording anything. While the bot serves the data directory, it asks
// the bot (which holds the store) first, so nothing waits on the lock.
func runDigest(e *env, args []string) error {
	fs := newFlags("digest")
	dryRun := fs.Bool("dry-run", false, "print, do not post (required)")
	channel := fs.String("channel", "", "Slack channel `ID` (C0123456789), or #name with SLACK_BOT_TOKEN set")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !*dryRun {
		return usagef("only --dry-run is supported: the running bot posts digests on schedule")
	}
	if strings.TrimSpace(*channel) == "" || fs.NArg() > 0 {
		return usagef("give the channel with --channel: its ID (in Slack: channel details, at the bottom) or #name")
	}
	if e.cfg.DataDir == "" && e.cfg.DatabaseURL == "" {
		return errNoLiveStore
	}
	if err := e.forward("digest", args, ""); err != nil {
		return err
	}
	channelID, err := resolveChannel(e, strings.TrimSpace(*channel))
	if err != nil {
		return err
	}
	var store stateStore
	var ix *search.Index
	if e.live != nil {
		store, ix = e.live.state, e.live.ix
	} else if e.cfg.DatabaseURL != "" {
		// The replicas' shared state, read without applying migrations.
		db, h, err := inspectDatabase(e)
		if err != nil {
			return err
		}
		defer db.Close()
		if h.Schema == 0 {
			return noSubscriptionsYet(e, channelID, *asJSON, "no tables yet: paperbot serve creates them")
		}
		store = db
	} else {
		// No bot answered for this data directory: open the store here. A
		// short wait only: a holder that is not a reachable bot will not let go.
		// Read-only: a dry run never creates or writes the store.
		bs, err := boltstore.OpenReadOnly(filepath.Join(e.cfg.DataDir, boltstore.FileName), boltstore.Options{Timeout: 100 * time.Millisecond})
		if errors.Is(err, boltstore.ErrLocked) {
			return fmt.Errorf("%w (another process holds it: a paperbot serve whose PAPERBOT_HTTP_ADDR %s does not answer?)", err, e.cfg.HTTPAddr)
		}
		if errors.Is(err, os.ErrNotExist) {
			return noSubscriptionsYet(e, channelID, *asJSON, "no subscription store yet")
		}
		if err != nil {
			return err // names the store, what is wrong and what to do
		}
		defer bs.Close()
		store = bs
	}
	if store == nil {
		return errNoLiveStore
	}
	if ix == nil { // no live bot: the index queries use here
		var done func()
		if ix, done, err = e.queryIndex(); err != nil {
			return err
		}
		defer done()
	}
	fresh := digest.Fresh{NewDays: e.cfg.DigestNewDays}
	if e.live != nil {
		fresh = e.live.fresh
	} else if e.cfg.sources().Remote() {
		cat, err := loadCatalog(e.ctx, e.cfg)
		if err != nil {
			return err
		}
		if cat != nil {
			fresh.Arrivals = cat
		}
	}
	if *asJSON {
		ds, err := digest.PreviewChannel(e.ctx, store, learning(store, ix), channelID, e.cfg.DigestSize, time.Now(), fresh)
		if err != nil {
			return err
		}
		return writeJSON(e.stdout, digestJSON(channelID, ds))
	}
	out, err := bot.DigestDryRun(e.ctx, store, learning(store, ix), channelID, e.cfg.DigestSize, time.Now(), fresh)
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, out)
	return nil
}

// noSubscriptionsYet answers a dry run for a store that paperbot serve has
// not created yet.
func noSubscriptionsYet(e *env, channelID string, asJSON bool, why string) error {
	if asJSON {
		return writeJSON(e.stdout, digestJSON(channelID, nil))
	}
	fmt.Fprintf(e.stdout, "Channel %s has no active subscriptions (%s).\n", channelID, why)
	return nil
}

// localURL turns a listen address into a URL this machine can reach.
func localURL(addr string) (string, error) {
	if addr == httpOff {
		return "", fmt.Errorf("PAPERBOT_HTTP_ADDR is off: no local endpoint to ask")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("PAPERBOT_HTTP_ADDR %q: %w", addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// runHealthcheck asks the local health endpoint, for container health checks
// in images without curl.
func runHealthcheck(e *env, args []string) error {
	fs := newFlags("healthcheck")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("healthcheck takes no arguments")
	}
	// Every failure is "not healthy", exit 1: Docker reserves exit code 2.
	base, err := localURL(e.cfg.HTTPAddr)
	if err != nil {
		return answerNo{err.Error()}
	}
	client := &http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get(base + "/healthz")
	if err != nil {
		return answerNo{fmt.Sprintf("health endpoint unreachable: %v", err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return answerNo{"health endpoint answered " + resp.Status}
	}
	fmt.Fprintln(e.stdout, "healthy")
	return nil
}
