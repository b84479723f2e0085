package main

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/lease"
	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
)

// lookupFunc reads one variable: os.LookupEnv in main, a map in tests.
type lookupFunc func(key string) (value string, ok bool)

// loadConfig reads every variable of Config through lookup and validates
// the result. A variable set to the empty string counts as unset, so a .env
// file copied from .env.example with blanks left in takes the defaults. It
// never reads or changes the process environment itself, so tests can run
// it in parallel with their own lookups.
func loadConfig(lookup lookupFunc) (Config, error) {
	var c Config
	v := reflect.ValueOf(&c).Elem()
	for _, f := range reflect.VisibleFields(v.Type()) {
		key := f.Tag.Get("env")
		raw, ok := lookup(key)
		if !ok || strings.TrimSpace(raw) == "" {
			raw = defaultOf(f)
		}
		if f.Tag.Get("unquote") == "true" {
			raw = unquote(raw)
		}
		if err := setField(v.FieldByIndex(f.Index), raw); err != nil {
			// Only numbers, durations and booleans can fail to parse, never a token.
			return c, fmt.Errorf("%s=%q is not a valid %s (see paperbot config --markdown)", key, raw, typeWord(f.Type))
		}
	}
	return c, c.Validate()
}

// unquote strips one pair of double or single quotes around raw: docker
// run --env-file passes KEY="query: " on with its quotes, where a shell,
// compose and systemd take them away. Whatever is inside, trailing spaces
// included, is kept.
func unquote(raw string) string {
	if len(raw) >= 2 && (raw[0] == '"' || raw[0] == '\'') && raw[len(raw)-1] == raw[0] {
		return raw[1 : len(raw)-1]
	}
	return raw
}

// setField parses raw into a string, bool, int or time.Duration field; ""
// leaves the zero value.
func setField(v reflect.Value, raw string) error {
	if raw == "" {
		return nil
	}
	if v.Type() == reflect.TypeFor[time.Duration]() {
		d, err := time.ParseDuration(raw)
		v.SetInt(int64(d))
		return err
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(raw)
	case reflect.Bool:
		b, err := strconv.ParseBool(raw)
		v.SetBool(b)
		return err
	case reflect.Int:
		n, err := strconv.ParseInt(raw, 0, 0)
		v.SetInt(n)
		return err
	default:
		return fmt.Errorf("unsupported field type %s", v.Type())
	}
	return nil
}

func typeWord(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[time.Duration]():
		return "duration such as 10s or 6h"
	case t.Kind() == reflect.Int:
		return "whole number"
	case t.Kind() == reflect.Bool:
		return "boolean (true or false)"
	}
	return t.String()
}

// defaultOf is a variable's default as written in the environment: the
// default of the package that owns the setting, else the field's default tag.
func defaultOf(f reflect.StructField) string {
	switch f.Tag.Get("env") {
	case "SLACK_API_URL":
		return bot.DefaultAPIURL
	case "PAPERBOT_WORKERS":
		return strconv.Itoa(bot.DefaultWorkers)
	case "PAPERBOT_SHUTDOWN_GRACE":
		return shortDuration(bot.DefaultShutdownGrace)
	case "PAPERBOT_MAX_ABSTRACT":
		return strconv.Itoa(search.DefaultMaxAbstract)
	case "PAPERBOT_DIGEST_SIZE":
		return strconv.Itoa(digest.DefaultPapers)
	case "PAPERBOT_DIGEST_GRACE":
		return shortDuration(digest.DefaultGrace)
	case "PAPERBOT_DIGEST_TICK":
		return shortDuration(digest.DefaultInterval)
	case "PAPERBOT_LEASE_TTL":
		return shortDuration(lease.TTL)
	case "PAPERBOT_DIGEST_NEW_DAYS":
		return strconv.Itoa(digest.DefaultNewDays)
	case "PAPERBOT_ARXIV_URL":
		return sources.DefaultRSSURL
	case "PAPERBOT_ARXIV_OAI_URL":
		return sources.DefaultOAIURL
	case "PAPERBOT_ARXIV_API_URL":
		return sources.DefaultAPIURL
	case "PAPERBOT_OPENREVIEW_URL":
		return sources.DefaultOpenReviewURL
	}
	return f.Tag.Get("default")
}

// shortDuration writes d as people do: 6h, not 6h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// botConfig is the bot's part of the configuration.
func (c Config) botConfig() bot.Config {
	return bot.Config{BotToken: c.BotToken, AppToken: c.AppToken, APIURL: c.APIURL,
		Workers: c.Workers, ShutdownGrace: c.ShutdownGrace, Assistant: c.Assistant}
}

// digestConfig is the digest scheduler's part of the configuration.
func (c Config) digestConfig() digest.Config {
	return digest.Config{Papers: c.DigestSize, Grace: c.DigestGrace, PostNothingNew: c.DigestPostEmpty, Interval: c.DigestTick,
		Fresh: digest.Fresh{NewDays: c.DigestNewDays}}
}
