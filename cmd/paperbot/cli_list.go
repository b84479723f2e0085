package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/memory"
)

// listUsage is the list command's usage line, in the command table.
const listUsage = "list export --bibtex|--json --user U…|--channel C…"

// savedJSON is one saved paper as `list export --json` writes it.
type savedJSON struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Authors []string  `json:"authors"`
	Venue   string    `json:"venue,omitempty"`
	Year    int       `json:"year,omitempty"`
	URL     string    `json:"url,omitempty"`
	SavedAt time.Time `json:"saved_at"`
	SavedBy string    `json:"saved_by,omitempty"`
	Read    bool      `json:"read"`
}

// runList exports a user's or a channel's reading list, whole, to stdout:
// as a .bib file or as JSON, newest first. While paperbot serve holds the
// store it reads a consistent copy from the running bot.
func runList(e *env, args []string) error {
	if len(args) == 0 || args[0] != "export" {
		if wantsHelp(args) {
			return helpRequested{listFlags()}
		}
		return usagef("usage: paperbot %s", listUsage)
	}
	fs := listFlags()
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	asBib, asJSON := fs.Lookup("bibtex").Value.String() == "true", fs.Lookup("json").Value.String() == "true"
	user, channel := fs.Lookup("user").Value.String(), fs.Lookup("channel").Value.String()
	switch {
	case fs.NArg() > 0:
		return usagef("list export takes no arguments, only flags")
	case asBib == asJSON:
		return usagef("give one of --bibtex or --json")
	case (user == "") == (channel == ""):
		return usagef("give one of --user U… or --channel C…")
	}
	owner := memory.User(user)
	if channel != "" {
		owner = memory.Channel(channel)
	}
	if err := owner.Validate(); err != nil {
		return usagef("%v", err)
	}
	if e.cfg.DataDir == "" {
		return fmt.Errorf("PAPERBOT_DATA_DIR is not set, so there are no reading lists")
	}
	list, err := readList(e, filepath.Join(e.cfg.DataDir, boltstore.FileName), owner)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stderr, "the reading list of %s is empty\n", owner.ID)
	}
	if asBib {
		_, err := e.stdout.Write(bot.ListBibTeX(list))
		return err
	}
	out := make([]savedJSON, len(list))
	for i, s := range list {
		p := s.Paper
		out[i] = savedJSON{ID: p.ID, Title: p.Title, Authors: p.Authors, Venue: p.Venue, Year: p.Year, URL: p.URL,
			SavedAt: s.SavedAt, Read: s.Read}
		if owner.Channel {
			out[i].SavedBy = s.SavedBy
		}
		if out[i].Title == "" {
			out[i].Title = p.Headline
		}
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func listFlags() *flag.FlagSet {
	fs := newFlags("list export")
	fs.Bool("bibtex", false, "write a BibTeX .bib file")
	fs.Bool("json", false, "write JSON")
	fs.String("user", "", "the user ID whose personal list to export")
	fs.String("channel", "", "the channel ID whose list to export")
	return fs
}

// readList reads owner's list from the store at path, or from a copy the
// running bot hands out when it holds the file.
func readList(e *env, path string, owner memory.Owner) ([]memory.Saved, error) {
	s, err := boltstore.OpenReadOnly(path, boltstore.Options{Timeout: storeLockWait})
	if errors.Is(err, boltstore.ErrLocked) {
		tmp := filepath.Join(os.TempDir(), fmt.Sprintf("paperbot-list-%d.db", os.Getpid()))
		defer os.Remove(tmp)
		if err := boltstore.SaveCopy(tmp, func(w io.Writer) error { return fetchStoreCopy(e, w) }); err != nil {
			return nil, fmt.Errorf("%s is in use by paperbot serve; reading a copy from it: %w", path, err)
		}
		s, err = boltstore.OpenReadOnly(tmp, boltstore.Options{Timeout: storeLockWait})
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // no store yet: no lists
	}
	if err != nil {
		return nil, err
	}
	defer s.Close()
	list, err := s.List(e.ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("%w (run `paperbot store check`)", err)
	}
	return list, nil
}
