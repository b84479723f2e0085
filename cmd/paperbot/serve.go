package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/lease"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/search"
)

// digestsOffReason is what users see for subscription commands when the bot
// has nowhere durable to keep subscriptions.
const digestsOffReason = "Channel digests are off on this install: the operator has set neither PAPERBOT_DATA_DIR " +
	"nor PAPERBOT_DATABASE_URL, so subscriptions would be lost on restart. Searching works as usual."

// runServe runs the Slack bot until the context ends: it checks the
// subscription store (reading only) and the token, loads the index, opens
// the store, then serves Socket Mode, the digest scheduler and the health
// endpoints, and shuts them down in reverse order. Nothing is written to the
// store before the token is accepted.
func runServe(e *env, args []string) error {
	fs := newFlags("serve")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve takes no arguments; it is configured by the environment (paperbot config)")
	}
	cfg := e.cfg
	if err := cfg.ValidateSlack(); err != nil {
		return err
	}
	log := cfg.newLogger(e.stderr)
	ctx := e.ctx

	// Health comes up first, so orchestrators see a live process that is not
	// ready while a large corpus is indexed.
	health := &lateHandler{}
	stopHTTP, err := serveHTTP(cfg.HTTPAddr, e.httpListener, health, log)
	if err != nil {
		return err
	}
	defer stopHTTP()

	botCfg := cfg.botConfig()
	if cfg.DataDir != "" && cfg.DatabaseURL == "" {
		storePath := filepath.Join(cfg.DataDir, boltstore.FileName)
		// A damaged store is refused before anything connects, reading only.
		if err := boltstore.Verify(storePath, boltstore.Options{}); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	// Fail fast on a bad token, before the store is created or written and
	// before anything posts (a digest posting with a revoked token would
	// pause every subscription).
	info, err := bot.CheckAuth(ctx, botCfg)
	if err != nil {
		return err
	}
	db, err := openDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
	}

	// With the state in the database, replicas may share the data
	// directory: each keeps its index (and what goes with it) in its own.
	icfg := cfg
	if db != nil && cfg.DataDir != "" {
		dir, release, err := claimReplicaDir(cfg.DataDir)
		if err != nil {
			return err
		}
		defer release()
		icfg.DataDir = dir
		log.Info("replica directory claimed", "dir", dir)
	}

	// The feed store is opened before the index, which holds its papers.
	fd, err := openFeeds(ctx, cfg, db, log, nil, nil)
	if err != nil {
		return err
	}
	defer fd.Close()

	start := time.Now()
	var starting atomic.Bool
	starting.Store(true)
	indexExisted := hasIndex(icfg)
	ix, _, err := openIndexGuarded(ctx, icfg, log, nil, startupLenient(&starting, shrinkGuard(cfg.AllowShrink, log), log), fd.cat())
	starting.Store(false)
	if err != nil {
		return err
	}
	defer ix.Close()
	fd.matchFiles(ix)
	log.Info("index ready", "papers", ix.Stats().Papers, "took", time.Since(start).Round(time.Millisecond), "persistent", cfg.DataDir != "")

	var opts []bot.Option
	var digests *bot.Digests
	state, store, err := openState(cfg, db)
	if err != nil {
		return err
	}
	if store != nil {
		defer store.Close()
	}
	if state != nil {
		dcfg := cfg.digestConfig()
		dcfg.Log = log
		dcfg.Fresh = fd.fresh(cfg.DigestNewDays)
		digests = bot.NewDigests(state, learning(state, ix), dcfg)
		opts = append(digests.Options(), bot.WithThreadStore(state.Threads()), bot.WithMemory(state))
	} else {
		log.Warn("neither PAPERBOT_DATA_DIR nor PAPERBOT_DATABASE_URL is set: channel digests are off")
		opts = []bot.Option{bot.DigestsOff(digestsOffReason)}
	}

	if db != nil {
		// Slack may retry an event on another replica's connection.
		opts = append(opts, bot.WithSharedDedup(db))
	}
	if fd != nil {
		opts = append(opts, bot.WithFeeds(fd.status()))
	}
	finder, err := linkFinder(cfg, fd, state, log)
	if err != nil {
		return err
	}
	if finder != nil {
		opts = append(opts, bot.WithPaperFinder(finder))
	}
	b, err := bot.New(botCfg, ix, log, opts...)
	if err != nil {
		return err
	}
	if err := b.RegisterMetrics(meaningMetrics(ix)...); err != nil {
		return err
	}
	var handler http.Handler = b.Handler()
	if db != nil {
		handler = readyWithDatabase(handler, db)
	}
	health.set(withLocalAPI(handler, cfg, &liveParts{ix: ix, store: store, state: state, fresh: fd.fresh(cfg.DigestNewDays)}, e.commands))
	log.Info("connecting to Slack", "team", info.Team, "bot_user", info.UserID)

	var sched *digest.Scheduler
	if digests != nil {
		if sched, err = digests.Attach(b); err != nil {
			return err
		}
	}
	stopReloads := reloadOnHangup(ctx, icfg, ix, b, log, fd.cat())
	defer stopReloads()
	var loops []func(context.Context) error
	if fd != nil {
		// What a process that died before applying left pending, too.
		apply := func(ctx context.Context) { fd.apply(ctx, ix, b, log) }
		if fd.shared {
			// Every replica's index follows the shared catalog; the
			// fetching one brings its own run in at once.
			fl, err := newFollower(fd, ix, icfg.DataDir, indexExisted, cfg.CatalogPoll, b, log)
			if err != nil {
				return err
			}
			loops = append(loops, fl.run)
			apply = func(ctx context.Context) {
				if _, err := fl.sync(ctx); err != nil && ctx.Err() == nil {
					log.Error("applying fetched papers to the index failed; the next poll tries again", "err", oneLine(err))
				}
			}
		}
		loops = append(loops, onOneReplica(db, cfg.LeaseTTL, log, fetcherLease, func(ctx context.Context) error { return fd.loop(ctx, cfg, apply, log) }))
	}
	if sched != nil && db != nil {
		s := sched
		loops = append(loops, onOneReplica(db, cfg.LeaseTTL, log, "digest-scheduler", func(ctx context.Context) error {
			if err := s.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				return fmt.Errorf("digest scheduler: %w", err)
			}
			return nil
		}))
		sched = nil // runs as the loop above
	}
	if cfg.EmbeddingsURL != "" {
		loops = append(loops, func(ctx context.Context) error {
			fillVectors(ctx, ix, log)
			<-ctx.Done() // a loop that returns stops the group
			return nil
		})
	}
	return runGroup(ctx, log, b, sched, loops...)
}

// onOneReplica runs job under the lease name in the database, so that one
// replica at a time runs it, under a lease of ttl; without a database, job
// itself.
func onOneReplica(db *pgstore.Store, ttl time.Duration, log *slog.Logger, name string, job func(context.Context) error) func(context.Context) error {
	if db == nil {
		return job
	}
	r := lease.Runner{Store: db, Holder: lease.Holder(), TTL: ttl, Log: log}
	return func(ctx context.Context) error { return r.Run(ctx, name, job) }
}

// runGroup runs the bot, the scheduler and any other loops until ctx ends
// or one of them fails; a failure stops the others.
func runGroup(ctx context.Context, log *slog.Logger, b *bot.Bot, sched *digest.Scheduler, loops ...func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2+len(loops))
	for i, loop := range loops {
		wg.Go(func() {
			if err := loop(ctx); err != nil && !errors.Is(err, context.Canceled) {
				errs[2+i] = err
			}
			cancel()
		})
	}
	wg.Go(func() {
		errs[0] = b.Run(ctx)
		cancel()
	})
	if sched != nil {
		wg.Go(func() {
			if err := sched.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				errs[1] = fmt.Errorf("digest scheduler: %w", err)
			}
			cancel()
		})
	}
	wg.Wait()
	err := errors.Join(errs...)
	if err == nil {
		log.Info("shut down cleanly")
	}
	return err
}

// digestPreviewPath serves `paperbot digest --dry-run` while the bot holds
// the store's file lock: the command asks the running bot instead.
const digestPreviewPath = "/debug/digest"

// withLocalAPI adds the loopback-only endpoints the CLI uses while the bot
// holds the data directory: the command runner (forward.go) and the digest
// preview.
func withLocalAPI(h http.Handler, cfg Config, live *liveParts, table []command) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.Handle("POST "+runPath, runHandler(cfg, live, table))
	if live.store != nil {
		mux.HandleFunc("GET "+storeBackupPath, storeBackupHandler(live.store))
	}
	if live.state != nil {
		addDigestPreview(mux, live.state, live.ix, cfg.DigestSize, live.fresh)
	}
	return mux
}

// addDigestPreview adds the read-only digest preview, for curl.
func addDigestPreview(mux *http.ServeMux, store stateStore, ix *search.Index, papers int, fresh digest.Fresh) {
	mux.HandleFunc("GET "+digestPreviewPath, func(w http.ResponseWriter, r *http.Request) {
		// Only for an operator on this host (or in this pod): the listener
		// may face a cluster network for probes and metrics.
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !net.ParseIP(host).IsLoopback() {
			http.Error(w, "only from this host", http.StatusForbidden)
			return
		}
		channel := strings.TrimSpace(r.URL.Query().Get("channel"))
		if channel == "" {
			http.Error(w, "give ?channel=ID", http.StatusBadRequest)
			return
		}
		out, err := bot.DigestDryRun(r.Context(), store, learning(store, ix), channel, papers, time.Now(), fresh)
		if err != nil {
			http.Error(w, userMessage(err), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, out)
	})
}

// lateHandler answers /healthz before the bot exists and /readyz with 503
// until then; afterwards it delegates to the bot's handler.
type lateHandler struct{ h atomic.Pointer[http.Handler] }

func (l *lateHandler) set(h http.Handler) { l.h.Store(&h) }

func (l *lateHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := l.h.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	switch r.URL.Path {
	case "/healthz":
		fmt.Fprintln(w, "ok")
	case "/readyz":
		http.Error(w, "not ready: loading the index", http.StatusServiceUnavailable)
	default:
		http.NotFound(w, r)
	}
}

// serveHTTP serves h on ln, or when ln is nil on addr ("off" disables it),
// and returns its stop function.
func serveHTTP(addr string, ln net.Listener, h http.Handler, log *slog.Logger) (stop func(), err error) {
	if ln == nil && addr == httpOff {
		return func() {}, nil
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", addr); err != nil {
			return nil, fmt.Errorf("PAPERBOT_HTTP_ADDR %s: %w", addr, err)
		}
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("health server stopped", "err", err)
		}
	}()
	log.Info("health endpoints listening", "addr", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}

var _ bot.Searcher = (*search.Index)(nil)
