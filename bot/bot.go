// Package bot is paperbot's Slack front end: it receives slash commands,
// mentions, direct messages and button clicks over Socket Mode, acknowledges
// each envelope at once, answers from a Searcher in a bounded worker pool and
// renders Block Kit within Slack's limits.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/thread"
)

// Bot is a running (or ready to run) Slack app. Its methods are safe for
// concurrent use; Run may be called once.
type Bot struct {
	cfg      Config
	log      *slog.Logger
	searcher Searcher
	api      SlackAPI // every Web API call goes through it
	socket   *socketmode.Client
	http     *http.Client // for response_url posts
	table    *commandTable
	home     []HomeBlocksFunc
	memory   memory.Store // nil: reading lists and votes are off
	dedup    *dedup
	shared   SharedDedup // nil: one replica
	threads  thread.Store
	finder   PaperFinder // nil: only indexed papers unfurl
	prompts  prompts     // the assistant's suggested prompts
	metrics  *metrics
	index    *indexMetrics
	now      func() time.Time
	// retryWait is how long a 429 is waited out, given its Retry-After.
	retryWait func(retryAfter time.Duration) time.Duration

	connected atomic.Bool
	running   atomic.Bool
	identity  atomic.Pointer[AuthInfo]
	queue     chan *Request
}

// Option customises New.
type Option func(*options)

type options struct {
	commands   []Command
	actions    []Action
	home       []HomeBlocksFunc
	httpClient *http.Client
	api        SlackAPI
	retryWait  func(retryAfter time.Duration) time.Duration
	now        func() time.Time
	feeds      FeedStatus
	threads    thread.Store
	finder     PaperFinder
	memory     memory.Store
	shared     SharedDedup
}

// WithThreadStore keeps the context of the threads the bot answers in (the
// cards shown, for follow-ups) in s, the bot's store, so that a restart
// keeps it; default: in memory.
func WithThreadStore(s thread.Store) Option {
	return func(o *options) { o.threads = s }
}

// WithCommands adds commands to the table after the built-in ones (search,
// show, similar, help). Names must not clash; New validates the table.
func WithCommands(cmds ...Command) Option {
	return func(o *options) { o.commands = append(o.commands, cmds...) }
}

// WithActions adds button handlers, dispatched on the action_id prefix.
func WithActions(actions ...Action) Option {
	return func(o *options) { o.actions = append(o.actions, actions...) }
}

// HomeBlocksFunc adds blocks for one user to the App Home view (for example
// their subscriptions). Errors are logged and the section left out.
type HomeBlocksFunc func(ctx context.Context, userID string) ([]slack.Block, error)

// WithHomeBlocks adds a section to App Home, after usage and corpus.
func WithHomeBlocks(f HomeBlocksFunc) Option {
	return func(o *options) { o.home = append(o.home, f) }
}

// WithHTTPClient replaces the HTTP client used for the Web API and
// response_url (default: one with Config.HTTPTimeout).
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) { o.httpClient = c }
}

// WithSlackAPI replaces the Web API client the bot calls (default: slack-go's,
// with rate-limit retries and metrics), so handlers can be tested with a
// fake. Socket Mode still connects with slack-go's own client.
func WithSlackAPI(api SlackAPI) Option {
	return func(o *options) { o.api = api }
}

// WithRetryWait replaces how long a rate-limited Web API or response_url
// call waits before it is retried, given the Retry-After Slack asked for
// (default: that long; the Web API adds up to a second of jitter). Tests
// use it to go through a storm of 429s without waiting in real time.
func WithRetryWait(wait func(retryAfter time.Duration) time.Duration) Option {
	return func(o *options) { o.retryWait = wait }
}

// WithClock injects the clock used for de-duplication windows.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// New validates cfg (token shapes, URLs), the command table and the
// searcher, and builds a Bot. It does not contact Slack: see Check and Run.
// Errors are friendly and never include a token.
func New(cfg Config, s Searcher, logger *slog.Logger, opts ...Option) (*Bot, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("bot: no index to answer from")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	b := &Bot{cfg: cfg, log: logger, metrics: newMetrics(), home: o.home, now: o.now, retryWait: o.retryWait, memory: o.memory}
	if b.memory != nil {
		b.home = append([]HomeBlocksFunc{b.listHome}, b.home...)
	}
	if b.now == nil {
		b.now = time.Now
	}
	b.searcher = meteredSearcher{Searcher: s, m: b.metrics}
	b.index = registerIndexMetrics(b.metrics.registry, s)
	if o.feeds != nil {
		b.home = append(b.home, b.feedHome(o.feeds))
		if err := b.RegisterMetrics(feedMetrics(o.feeds)...); err != nil {
			return nil, fmt.Errorf("bot: source metrics: %w", err)
		}
	}
	cmds := append(append(append(b.builtinCommands(), b.feedCommands(o.feeds)...), b.memoryCommands()...), o.commands...)
	b.table, err = newCommandTable(cmds, append(append(b.builtinActions(), b.memoryActions()...), o.actions...))
	if err != nil {
		return nil, fmt.Errorf("bot: command table: %w", err)
	}
	b.http = o.httpClient
	if b.http == nil {
		b.http = &http.Client{Timeout: cfg.HTTPTimeout}
	}
	doer := countingDoer{client: b.http, m: b.metrics}
	sl := slackLogger{log: logger}
	client := slack.New(cfg.BotToken,
		slack.OptionAPIURL(cfg.APIURL),
		slack.OptionAppLevelToken(cfg.AppToken),
		slack.OptionHTTPClient(doer),
		retryOption(o.retryWait), // after OptionHTTPClient: wraps it
		slack.OptionLog(sl),
	)
	b.api = client
	if o.api != nil {
		b.api = o.api
	}
	smOpts := []socketmode.Option{socketmode.OptionLog(sl)}
	if cfg.PingInterval > 0 {
		smOpts = append(smOpts, socketmode.OptionPingInterval(cfg.PingInterval))
	}
	b.socket = socketmode.New(client, smOpts...)
	b.dedup = newDedup(cfg.DedupMax, b.now)
	b.shared = o.shared
	b.threads, b.finder = o.threads, o.finder
	if b.threads == nil {
		b.threads = thread.NewMemory(cfg.DedupMax)
	}
	b.queue = make(chan *Request, cfg.QueueSize)
	return b, nil
}

// Commands returns a copy of the validated command table, in help order.
func (b *Bot) Commands() []Command { return append([]Command(nil), b.table.commands...) }

// Run checks the bot token (auth.test, failing fast), connects over Socket
// Mode and serves until ctx ends. Then it stops taking new work, finishes
// what is in flight (bounded by Config.ShutdownGrace), closes the socket and
// returns nil. It returns an error when the tokens are rejected or the
// connection fails for good.
func (b *Bot) Run(ctx context.Context) error {
	if !b.running.CompareAndSwap(false, true) {
		return errors.New("bot: Run called more than once")
	}
	info, err := b.Check(ctx)
	if err != nil {
		return err
	}
	b.identity.Store(&info)
	b.log.Info("slack identity", "bot_user", info.UserID, "team", info.TeamID)

	// Work and socket outlive ctx so that in-flight requests can finish.
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	sockCtx, cancelSock := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelSock()

	workers := b.startWorkers(workCtx)
	sockDone := make(chan error, 1)
	go func() { sockDone <- b.socket.RunContext(sockCtx) }()

	sockEnded, runErr := b.serve(ctx, sockDone)

	// Stop taking work, then drain what was accepted.
	close(b.queue)
	drained := make(chan struct{})
	go func() { workers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(b.cfg.ShutdownGrace):
		b.log.Warn("shutdown grace elapsed; cancelling in-flight requests", "grace", b.cfg.ShutdownGrace)
		cancelWork()
		<-drained
	}
	cancelSock()
	if !sockEnded {
		if err := <-sockDone; err != nil && !errors.Is(err, context.Canceled) && runErr == nil {
			runErr = socketError(err)
		}
	}
	b.connected.Store(false)
	b.log.Info("stopped")
	return runErr
}

// serve reads socket events until ctx ends (nil) or the socket stops for
// good (its error). sockEnded reports whether sockDone was consumed.
func (b *Bot) serve(ctx context.Context, sockDone <-chan error) (sockEnded bool, err error) {
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case err := <-sockDone:
			if err == nil || errors.Is(err, context.Canceled) {
				return true, nil
			}
			return true, socketError(err)
		case evt := <-b.socket.Events:
			b.onEvent(evt)
		}
	}
}
