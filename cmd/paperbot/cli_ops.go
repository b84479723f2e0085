package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/boltstore"
)

// runCheck validates the configuration and, when tokens are set, checks them
// against Slack and lists missing scopes: what to fix before going live.
func runCheck(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("check takes no arguments")
	}
	cfg := e.cfg
	fmt.Fprintln(e.stdout, "configuration: ok")
	corpus, err := loadCorpus(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "corpus: %d papers from %s (%d skipped, %d duplicates)\n",
		len(corpus.Papers), corpusName(cfg), corpus.Skipped, corpus.Duplicates)
	if cfg.DataDir == "" {
		fmt.Fprintln(e.stdout, "data directory: not set (in-memory index; channel digests off)")
	} else {
		fmt.Fprintf(e.stdout, "data directory: %s\n", cfg.DataDir)
	}
	if cfg.BotToken == "" && cfg.AppToken == "" {
		fmt.Fprintln(e.stdout, "slack: no tokens set; set SLACK_BOT_TOKEN and SLACK_APP_TOKEN to check the connection")
		return nil
	}
	if err := cfg.ValidateSlack(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	p, err := bot.CheckTokens(ctx, bot.Config{BotToken: cfg.BotToken, AppToken: cfg.AppToken, APIURL: cfg.APIURL})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "slack: bot token ok: @%s (%s) in %s (%s)\n", p.Auth.User, p.Auth.UserID, p.Auth.Team, p.Auth.TeamID)
	var problems []string
	switch {
	case p.Scopes == nil:
		fmt.Fprintln(e.stdout, "slack: Slack did not report the token's scopes; compare them with deploy/slack/manifest.yaml")
	case len(p.Missing) > 0:
		problems = append(problems, fmt.Sprintf("the bot token lacks scopes %s: add them (or re-create the app from deploy/slack/manifest.yaml) and reinstall the app",
			strings.Join(p.Missing, ", ")))
	default:
		fmt.Fprintf(e.stdout, "slack: all %d required scopes granted\n", len(bot.RequiredScopes()))
	}
	if p.SocketMode != nil {
		problems = append(problems, fmt.Sprintf("Socket Mode: %v (is Socket Mode enabled, and does the app-level token have connections:write?)", p.SocketMode))
	} else {
		fmt.Fprintln(e.stdout, "slack: app-level token ok: Socket Mode connection available")
	}
	if len(problems) > 0 {
		return fmt.Errorf("not ready to go live:\n  - %s", strings.Join(problems, "\n  - "))
	}
	fmt.Fprintln(e.stdout, "ready to go live: paperbot serve")
	return nil
}

// runDigest prints what a channel's digests would post now, without posting
// or recording anything.
func runDigest(e *env, args []string) error {
	fs := newFlags("digest")
	dryRun := fs.Bool("dry-run", false, "print, do not post")
	channel := fs.String("channel", "", "Slack channel ID, such as C0123456789")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !*dryRun {
		return usagef("only --dry-run is supported: the running bot posts digests on schedule")
	}
	if *channel == "" || fs.NArg() > 0 {
		return usagef("give the channel ID with --channel (in Slack: channel details, at the bottom)")
	}
	if e.cfg.DataDir == "" {
		return fmt.Errorf("PAPERBOT_DATA_DIR is not set, so there are no subscriptions to show")
	}
	channelID := strings.TrimSpace(*channel)
	// Read-only: a dry run never creates or writes the store.
	store, err := boltstore.OpenReadOnly(filepath.Join(e.cfg.DataDir, boltstore.FileName), boltstore.Options{Timeout: time.Second})
	if errors.Is(err, boltstore.ErrLocked) {
		// The bot is running and holds the store: ask it.
		out, askErr := askRunningBot(e, channelID)
		if askErr != nil {
			return fmt.Errorf("%w; asking the running bot failed too: %v", err, askErr)
		}
		fmt.Fprint(e.stdout, out)
		return nil
	}
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no subscription store in %s yet, so no subscriptions (paperbot serve creates it)", e.cfg.DataDir)
	}
	if err != nil {
		return err // names the store, what is wrong and what to do
	}
	defer store.Close()
	ix, _, err := openIndex(e.ctx, e.cfg, quietLogger(e), e.stderr)
	if err != nil {
		return err
	}
	defer ix.Close()
	out, err := bot.DigestDryRun(e.ctx, store, ix, channelID, e.cfg.DigestSize, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, out)
	return nil
}

// askRunningBot fetches a digest preview from the bot serving on
// PAPERBOT_HTTP_ADDR.
func askRunningBot(e *env, channelID string) (string, error) {
	base, err := localURL(e.cfg.HTTPAddr)
	if err != nil {
		return "", err
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(base + digestPreviewPath + "?channel=" + url.QueryEscape(channelID))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	return string(body), nil
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
	if len(args) > 0 {
		return usagef("healthcheck takes no arguments")
	}
	base, err := localURL(e.cfg.HTTPAddr)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get(base + "/healthz")
	if err != nil {
		return fmt.Errorf("health endpoint unreachable: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health endpoint answered %s", resp.Status)
	}
	fmt.Fprintln(e.stdout, "healthy")
	return nil
}
