package digest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
)

func TestParseSubscribe(t *testing.T) {
	def := digest.Schedule{Hour: 9, Every: digest.Weekdays}
	with := func(f func(*digest.Schedule)) digest.Schedule { s := def; f(&s); return s }
	for _, c := range []struct {
		name, in, topic string
		want            digest.Schedule
	}{
		{"topic only gets defaults", "graph neural networks", "graph neural networks", def},
		{"all options", "protein folding at 07:30 tz Europe/Berlin weekly monday", "protein folding",
			digest.Schedule{Hour: 7, Minute: 30, TZ: "Europe/Berlin", Every: digest.Weekly, Weekday: time.Monday}},
		{"options in another order", "diffusion weekly fri tz UTC at 17:05", "diffusion",
			digest.Schedule{Hour: 17, Minute: 5, TZ: "UTC", Every: digest.Weekly, Weekday: time.Friday}},
		{"daily", "llm agents daily", "llm agents", with(func(s *digest.Schedule) { s.Every = digest.Daily })},
		{"weekdays explicit", "llm agents weekdays", "llm agents", def},
		{"single-digit hour", "rl at 8:05", "rl", with(func(s *digest.Schedule) { s.Hour, s.Minute = 8, 5 })},
		{"am/pm", "rl at 5pm", "rl", with(func(s *digest.Schedule) { s.Hour = 17 })},
		{"12am is midnight", "rl at 12am", "rl", with(func(s *digest.Schedule) { s.Hour = 0 })},
		{"keywords inside the topic stay", "looking at daily weather forecasting models", "looking at daily weather forecasting models", def},
		{"at followed by a word is topic", "attention at scale", "attention at scale", def},
		{"query syntax kept", `"graph transformer" -survey year:2025 at 10:00`, `"graph transformer" -survey year:2025`,
			with(func(s *digest.Schedule) { s.Hour = 10 })},
		{"case-insensitive keywords", "robots AT 06:00 DAILY", "robots", digest.Schedule{Hour: 6, Every: digest.Daily}},
		{"plural weekday", "robots weekly mondays", "robots", digest.Schedule{Hour: 9, Every: digest.Weekly, Weekday: time.Monday}},
		// As people say it: who is subscribed is not the topic, and
		// "every ..." is a frequency.
		{"this channel to", "this channel to kv cache every day", "kv cache", with(func(s *digest.Schedule) { s.Every = digest.Daily })},
		{"us to", "us to protein design every monday at 8am", "protein design",
			digest.Schedule{Hour: 8, Every: digest.Weekly, Weekday: time.Monday}},
		{"to", "to graph transformers every weekday", "graph transformers", def},
		{"to inside the topic stays", "attention to detail", "attention to detail", def},
		{"every weekdays", "robots every weekdays", "robots", def},
		{"every morning at", "robots every morning at 7:30", "robots", digest.Schedule{Hour: 7, Minute: 30, Every: digest.Daily}},
		{"every inside the topic stays", "every token matters", "every token matters", def},
	} {
		t.Run(c.name, func(t *testing.T) {
			topic, s, err := digest.ParseSubscribe(c.in)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if topic != c.topic || s != c.want {
				t.Fatalf("got %q %+v, want %q %+v", topic, s, c.topic, c.want)
			}
		})
	}
}

func TestParseSubscribeErrors(t *testing.T) {
	for _, c := range []struct {
		name, in, says string
	}{
		{"empty", "   ", "which papers to follow"},
		{"options only", "at 09:00 daily", "which papers to follow"},
		{"bad time", "robots at 25:00", "not a time of day"},
		{"bad minutes", "robots at 9:7", "not a time of day"},
		{"13pm", "robots at 13pm", "not a time of day"},
		{"unknown zone", "robots tz Mars/Olympus_Mons", "not a time zone I know"},
		{"Local is not a zone", "robots tz Local", "time zone is needed"},
		{"weekly without day", "robots weekly", "weekly needs a day"},
		{"weekly bad day", "robots weekly someday", "not a day of the week"},
		{"dangling at", "robots at", "needs a value"},
		{"dangling tz", "robots tz", "needs a value"},
		{"twice", "robots at 09:00 at 10:00", "given twice"},
		{"two frequencies", "robots daily weekdays", "given twice"},
		{"too long", strings.Repeat("word ", 80), "keep it under"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := digest.ParseSubscribe(c.in)
			if !errors.Is(err, fault.Invalid) {
				t.Fatalf("error = %v, want ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Fatalf("error %q does not say %q", err, c.says)
			}
		})
	}
}

func TestNewIDIsValidAndVaried(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := digest.NewID()
		if !digest.ValidID(id) {
			t.Fatalf("NewID() = %q is not valid", id)
		}
		seen[id] = true
	}
	if len(seen) < 990 {
		t.Fatalf("only %d distinct IDs in 1000", len(seen))
	}
	if digest.NormalizeID("  SABCDE ") != "sabcde" {
		t.Fatal("NormalizeID does not trim and lower")
	}
}
