package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedstore"
)

// storeUsage is the store command's usage line, in the command table.
const storeUsage = "store check|backup FILE|repair|reset|migrate --to URL"

// storeLockWait is how long the store commands wait for the lock before
// concluding that paperbot serve holds it.
const storeLockWait = 500 * time.Millisecond

// storeBackupPath serves `paperbot store backup` while the bot holds the
// store's file lock: a consistent copy from one read transaction.
const storeBackupPath = "/debug/store/backup"

// runStore looks after the subscription store, digests.db:
//
//	check          is it a sound paperbot store? (exit 1 with the reason if not)
//	backup FILE    a consistent copy, also while paperbot serve runs
//	repair         keep every record that still decodes, in a fresh file
//	reset          start with an empty store
//	migrate --to URL  copy the store into an empty PostgreSQL database
//
// With PAPERBOT_DATABASE_URL, check reads the database instead, and backup,
// repair and reset name PostgreSQL's tools (storeInDatabase).
//
// repair and reset replace the file only with --keep-copy, and then keep the
// old file beside it; without it they say what they would do and exit 2.
func runStore(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("give one of check, backup FILE, repair, reset, migrate --to URL")
	}
	if wantsHelp(args[:1]) {
		fs := newFlags("store")
		fs.Bool("keep-copy", false, "with repair or reset: replace the store, keeping the old file beside it")
		fs.String("to", "", "with migrate: the PostgreSQL URL to copy the store to (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
		return helpRequested{fs}
	}
	fs := newFlags("store " + args[0])
	keepCopy := fs.Bool("keep-copy", false, "replace the store, keeping the old file beside it")
	to := fs.String("to", "", "the PostgreSQL URL to copy the store to")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	operands := map[string]int{"check": 0, "backup": 1, "repair": 0, "reset": 0, "migrate": 0}
	n, known := operands[args[0]]
	switch {
	case !known:
		return usagef("unknown store command %q", args[0])
	case fs.NArg() != n && n == 1:
		return usagef("store %s needs the FILE to write, and nothing else", args[0])
	case fs.NArg() != n:
		return usagef("store %s takes no arguments", args[0])
	case *keepCopy && args[0] != "repair" && args[0] != "reset":
		return usagef("--keep-copy is for repair and reset")
	case (*to != "") != (args[0] == "migrate"):
		return usagef("store migrate needs --to postgres://USER:PASSWORD@HOST:PORT/DATABASE, and only it takes --to")
	}
	if e.cfg.DatabaseURL != "" && args[0] != "migrate" {
		return storeInDatabase(e, args[0])
	}
	if e.cfg.DataDir == "" {
		return fmt.Errorf("PAPERBOT_DATA_DIR is not set, so there is no subscription store")
	}
	path := filepath.Join(e.cfg.DataDir, boltstore.FileName)
	switch args[0] {
	case "check":
		return storeCheck(e, path)
	case "backup":
		return storeBackup(e, path, fs.Arg(0))
	case "repair":
		return storeRepair(e, path, *keepCopy)
	case "migrate":
		return storeMigrate(e, path, *to)
	}
	return storeReset(e, path, *keepCopy)
}

// storeInDatabase runs a store command when PAPERBOT_DATABASE_URL holds
// the state: check reads the database without writing to it; backup,
// repair and reset are the database's own tools' work, and say which.
func storeInDatabase(e *env, command string) error {
	if command != "check" {
		return usagef("the state is in PostgreSQL (PAPERBOT_DATABASE_URL), where store %s does not apply: %s", command, databaseAdvice[command])
	}
	db, h, err := inspectDatabase(e)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(e.stdout, "database %s: sound, %s\n", db.Where(), h)
	return nil
}

// inspectDatabase opens PAPERBOT_DATABASE_URL without applying migrations,
// for the commands that only look, and reads its schema version and counts.
func inspectDatabase(e *env) (*pgstore.Store, pgstore.Health, error) {
	db, err := pgstore.OpenForReading(e.ctx, e.cfg.DatabaseURL)
	if err != nil {
		return nil, pgstore.Health{}, err // says what is wrong with the URL, never its password
	}
	h, err := db.Inspect(e.ctx)
	if err != nil {
		db.Close()
		return nil, h, err
	}
	return db, h, nil
}

// databaseAdvice says how to do in PostgreSQL what the file commands do.
var databaseAdvice = map[string]string{
	"backup": "back it up with pg_dump, e.g. pg_dump --format=custom --file=paperbot.dump \"$PAPERBOT_DATABASE_URL\" (restore with pg_restore)",
	"repair": "PostgreSQL keeps its tables consistent itself; restore a pg_dump backup if records were lost",
	"reset":  "to start empty, point PAPERBOT_DATABASE_URL at a new, empty database (paperbot creates its tables there)",
}

// storeCheck verifies the store; while the bot holds it, it verifies a hot
// copy fetched from the bot.
func storeCheck(e *env, path string) error {
	err := boltstore.Verify(path, boltstore.Options{Timeout: storeLockWait})
	if errors.Is(err, boltstore.ErrLocked) {
		tmp := filepath.Join(os.TempDir(), fmt.Sprintf("paperbot-check-%d.db", os.Getpid()))
		defer os.Remove(tmp)
		if err := boltstore.SaveCopy(tmp, func(w io.Writer) error { return fetchStoreCopy(e, w) }); err != nil {
			return fmt.Errorf("%s is in use by paperbot serve; checking a copy from it: %w", path, err)
		}
		fmt.Fprintf(e.stdout, "%s: sound (checked a copy from the running paperbot)\n", path)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: sound\n", path)
	return nil
}

// storeBackup writes a checked copy of the store to dest: from the file when
// no bot runs, else from the running bot over its loopback endpoint.
func storeBackup(e *env, path, dest string) error {
	if same, _ := sameFile(path, dest); same {
		return usagef("%s is the store itself: back it up to another file", dest)
	}
	s, err := boltstore.OpenReadOnly(path, boltstore.Options{Timeout: storeLockWait})
	from := "the file"
	switch {
	case err == nil:
		defer s.Close()
		err = boltstore.SaveCopy(dest, func(w io.Writer) error { _, err := s.WriteTo(w); return err })
	case errors.Is(err, boltstore.ErrLocked):
		from = "the running paperbot"
		if err = boltstore.SaveCopy(dest, func(w io.Writer) error { return fetchStoreCopy(e, w) }); err != nil {
			err = fmt.Errorf("%s is in use by paperbot serve; asking it for a copy: %w", path, err)
		}
	}
	if err != nil {
		return err
	}
	info, err := os.Stat(dest)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s (%d bytes, a consistent copy from %s)\n", path, dest, info.Size(), from)
	return nil
}

func storeRepair(e *env, path string, keepCopy bool) error {
	opts := boltstore.Options{Timeout: storeLockWait}
	var r boltstore.RepairReport
	var err error
	if keepCopy {
		r, err = boltstore.Repair(path, opts)
	} else {
		r, err = boltstore.Salvage(path, opts)
	}
	if err != nil {
		return stopServeFirst(err)
	}
	if r.Sound {
		fmt.Fprintf(e.stdout, "%s is sound (%d subscriptions, %d runs, %d ledger entries, %d saved papers, %d votes): nothing to repair\n", path, r.Subscriptions, r.Runs, r.Ledger, r.Saved, r.Votes)
		return nil
	}
	verb := "would keep"
	if keepCopy {
		verb = "kept"
	}
	fmt.Fprintf(e.stdout, "%s: %s %d subscriptions, %d digest runs, %d ledger entries, %d saved papers, %d votes; could not read %d:\n", path, verb, r.Subscriptions, r.Runs, r.Ledger, r.Saved, r.Votes, len(r.Lost))
	const shown = 20 // a garbage page can spoil thousands of elements
	for i, l := range r.Lost {
		if i == shown {
			fmt.Fprintf(e.stdout, "  … and %d more\n", len(r.Lost)-shown)
			break
		}
		fmt.Fprintf(e.stdout, "  - %s\n", l)
	}
	if !keepCopy {
		return usagef("nothing written: run `paperbot store repair --keep-copy` to replace the store with what was read, keeping the old file beside it")
	}
	fmt.Fprintf(e.stdout, "repaired; the old file is kept as %s\n", r.Copy)
	return nil
}

func storeReset(e *env, path string, keepCopy bool) error {
	if !keepCopy {
		info, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("subscription store: %w", err)
		}
		fmt.Fprintf(e.stdout, "would replace %s (%d bytes) with an empty store: every subscription, digest run and ledger entry in it would be gone from paperbot\n", path, info.Size())
		return usagef("nothing written: run `paperbot store reset --keep-copy` to do it, keeping the old file beside it")
	}
	r, err := boltstore.Reset(path, boltstore.Options{Timeout: storeLockWait})
	if err != nil {
		return stopServeFirst(err)
	}
	fmt.Fprintf(e.stdout, "%s is now an empty store; the old file is kept as %s\n", path, r.Copy)
	return nil
}

// stopServeFirst explains a lock held by the running bot.
func stopServeFirst(err error) error {
	if errors.Is(err, boltstore.ErrLocked) {
		return fmt.Errorf("%w: stop paperbot serve first (a store in use cannot be replaced under it)", err)
	}
	return err
}

func sameFile(a, b string) (bool, error) {
	ia, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	ib, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ia, ib), nil
}

// fetchStoreCopy streams a hot copy of the store from the bot serving on
// PAPERBOT_HTTP_ADDR into w.
func fetchStoreCopy(e *env, w io.Writer) error {
	base, err := localURL(e.cfg.HTTPAddr)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Timeout: 5 * time.Minute}).Get(base + storeBackupPath)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	_, err = io.Copy(w, resp.Body)
	return err
}

// storeBackupHandler streams a consistent copy of the store, to clients on
// this host only (the listener may face a cluster network for probes).
func storeBackupHandler(store *boltstore.Store) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !net.ParseIP(host).IsLoopback() {
			http.Error(w, "only from this host", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		if _, err := store.WriteTo(w); err != nil {
			// Part of the copy may be out: abort the response so the client
			// sees a failure, not a short file.
			panic(http.ErrAbortHandler)
		}
	}
}

// storeMigrate copies the store's records into the empty database at
// dbURL and reports the verified counts. The bot must be stopped: what it
// wrote after the copy would be lost.
func storeMigrate(e *env, path, dbURL string) error {
	recs, err := boltstore.ReadRecords(path, boltstore.Options{Timeout: storeLockWait})
	if errors.Is(err, boltstore.ErrLocked) {
		return fmt.Errorf("%s is in use by paperbot serve: stop it first, or what it writes after the copy is lost", path)
	}
	if err != nil {
		return err // names the store, what is wrong and what to do
	}
	entries, progress, feedsPath, err := readFeedStore(e.ctx, filepath.Dir(path))
	if err != nil {
		return err
	}
	db, err := pgstore.Open(e.ctx, dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.Import(e.ctx, pgstore.Records(recs))
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "copied %s to %s: %s (counts verified). Thread contexts and looked-up links are caches and start empty. Set PAPERBOT_DATABASE_URL to use it.\n", path, db.Where(), n)
	if feedsPath == "" {
		return nil
	}
	papers, sources, err := db.Feeds().Import(e.ctx, entries, progress)
	if err != nil {
		return fmt.Errorf("the subscriptions are copied, the fetched papers are not: %w", err)
	}
	fmt.Fprintf(e.stdout, "copied %s: %d fetched papers, %d sources' progress (counts verified).\n", feedsPath, papers, sources)
	return nil
}

// readFeedStore reads the catalog in dir's feed store, for migrate; path ""
// when there is none (nothing was ever fetched).
func readFeedStore(ctx context.Context, dir string) (entries []ingest.Entry, progress []ingest.Progress, path string, err error) {
	path = filepath.Join(dir, feedstore.FileName)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil, "", nil
	}
	st, err := feedstore.Open(path, storeLockWait)
	if errors.Is(err, feedstore.ErrInUse) {
		return nil, nil, "", fmt.Errorf("%s is in use by paperbot serve: stop it first, or what it fetches after the copy is lost", path)
	}
	if err != nil {
		return nil, nil, "", err
	}
	defer st.Close()
	entries, progress, err = st.Load(ctx)
	return entries, progress, path, err
}
