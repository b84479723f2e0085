package main

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot"
)

// botSources returns the non-test Go sources of package bot.
func botSources(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../bot/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bot sources: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

func stringsOf(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	sort.Strings(out)
	return out
}

// TestManifestMatchesCode keeps deploy/slack/manifest.yaml, bot.APIMethods
// and bot.Events honest against the code that actually calls Slack.
func TestManifestMatchesCode(t *testing.T) {
	m := readYAML(t, filepath.Join(deployDir, "slack/manifest.yaml"))[0].(map[string]any)
	src := botSources(t)

	// Every Web API method the bot can call (SlackAPI's method set: the
	// compiler keeps the code to it) is declared with its scopes, and
	// nothing else is.
	api := reflect.TypeFor[bot.SlackAPI]()
	callable := map[string]bool{}
	for i := range api.NumMethod() {
		callable[api.Method(i).Name] = true
	}
	declared := map[string]bool{}
	for _, am := range append(append([]bot.APIMethod(nil), bot.APIMethods...), bot.AssistantMethods...) {
		if declared[am.Client] {
			t.Errorf("bot.APIMethods declares %s twice", am.Client)
		}
		declared[am.Client] = true
		if !callable[am.Client] {
			t.Errorf("bot.APIMethods declares %s (%s) but bot.SlackAPI has no such method: remove it and its scopes", am.Client, am.Method)
		}
	}
	for name := range callable {
		if !declared[name] {
			t.Errorf("bot.SlackAPI has %s, which bot.APIMethods does not declare (add it with its Web API method and scopes)", name)
		}
	}

	// Events the handler acts on are the manifest's bot events.
	eventOfType := map[string][]string{
		"AppMentionEvent": {"app_mention"}, "MessageEvent": {"message.im", "message.channels", "message.groups"},
		"AppHomeOpenedEvent": {"app_home_opened"}, "LinkSharedEvent": {"link_shared"},
		"AssistantThreadStartedEvent": {"assistant_thread_started"},
		"ReactionAddedEvent":          {"reaction_added"}, "ReactionRemovedEvent": {"reaction_removed"},
	}
	envelopes := map[string]bool{"EventsAPIEvent": true, "CallbackEvent": true, "EventsAPICallbackEvent": true}
	handled := map[string]bool{}
	typeRe := regexp.MustCompile(`slackevents\.([A-Z][A-Za-z]+Event)\b`)
	for file, code := range src {
		for _, c := range typeRe.FindAllStringSubmatch(code, -1) {
			if envelopes[c[1]] {
				continue
			}
			evs, ok := eventOfType[c[1]]
			if !ok {
				t.Errorf("%s handles slackevents.%s: add its event to bot.Events, the manifest and this test", file, c[1])
				continue
			}
			for _, ev := range evs {
				handled[ev] = true
			}
		}
	}
	var declaredEvents []string
	for _, e := range append(append([]bot.EventSubscription(nil), bot.Events...), bot.AssistantEvents...) {
		if !handled[e.Event] {
			t.Errorf("bot.Events declares %s but the handler never looks at it", e.Event)
		}
	}
	for _, e := range bot.Events {
		declaredEvents = append(declaredEvents, e.Event)
	}
	sort.Strings(declaredEvents)
	settings := m["settings"].(map[string]any)
	if got := stringsOf(settings["event_subscriptions"].(map[string]any)["bot_events"]); !slices.Equal(got, declaredEvents) {
		t.Errorf("manifest bot_events = %v, the code handles %v", got, declaredEvents)
	}

	// Scopes: exactly what the calls and events need.
	scopes := stringsOf(m["oauth_config"].(map[string]any)["scopes"].(map[string]any)["bot"])
	if want := bot.RequiredScopes(); !slices.Equal(scopes, want) {
		t.Errorf("manifest scopes = %v\n the code needs  %v", scopes, want)
	}

	// Message shortcuts are the ones the bot routes, by callback ID.
	var declaredShortcuts, codeShortcuts []string
	for _, s := range m["features"].(map[string]any)["shortcuts"].([]any) {
		sc := s.(map[string]any)
		declaredShortcuts = append(declaredShortcuts, sc["callback_id"].(string))
		if sc["type"] != "message" {
			t.Errorf("shortcut %v is %v, want a message shortcut", sc["callback_id"], sc["type"])
		}
	}
	for _, s := range bot.Shortcuts {
		codeShortcuts = append(codeShortcuts, s.CallbackID)
	}
	if !slices.Equal(sortedCopy(declaredShortcuts), sortedCopy(codeShortcuts)) {
		t.Errorf("manifest shortcuts %v, the bot answers %v", declaredShortcuts, codeShortcuts)
	}

	// Unfurl domains are those whose links the bot resolves.
	if got := stringsOf(m["features"].(map[string]any)["unfurl_domains"]); !slices.Equal(got, sortedCopy(bot.UnfurlDomains)) {
		t.Errorf("manifest unfurl_domains = %v, bot.UnfurlDomains = %v", got, bot.UnfurlDomains)
	}

	// The slash command is the one the bot answers and documents.
	cmds := m["features"].(map[string]any)["slash_commands"].([]any)
	if len(cmds) != 1 {
		t.Fatalf("manifest declares %d slash commands, want 1", len(cmds))
	}
	cmd := cmds[0].(map[string]any)
	if cmd["command"] != bot.DefaultSlashCommand {
		t.Errorf("manifest command %v, the bot answers %s", cmd["command"], bot.DefaultSlashCommand)
	}
	if hint, _ := cmd["usage_hint"].(string); hint == "" {
		t.Error("the slash command needs a usage hint")
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// TestAssistantManifest keeps deploy/slack/manifest.assistant.yaml the
// default manifest plus exactly the assistant surface: its view, the
// scopes of bot.AssistantMethods and bot.AssistantEvents, and those events.
func TestAssistantManifest(t *testing.T) {
	def := readYAML(t, filepath.Join(deployDir, "slack/manifest.yaml"))[0].(map[string]any)
	asst := readYAML(t, filepath.Join(deployDir, "slack/manifest.assistant.yaml"))[0].(map[string]any)

	features := asst["features"].(map[string]any)
	view, ok := features["assistant_view"].(map[string]any)
	if !ok || view["assistant_description"] == "" {
		t.Fatal("the assistant manifest has no assistant_view with a description")
	}
	if got := stringsOf(asst["oauth_config"].(map[string]any)["scopes"].(map[string]any)["bot"]); !slices.Equal(got, bot.RequiredScopes(true)) {
		t.Errorf("assistant manifest scopes = %v\n the assistant needs %v", got, bot.RequiredScopes(true))
	}
	var events []string
	for _, e := range append(append([]bot.EventSubscription(nil), bot.Events...), bot.AssistantEvents...) {
		events = append(events, e.Event)
	}
	sort.Strings(events)
	settings := asst["settings"].(map[string]any)
	if got := stringsOf(settings["event_subscriptions"].(map[string]any)["bot_events"]); !slices.Equal(got, events) {
		t.Errorf("assistant manifest bot_events = %v, want %v", got, events)
	}

	// Everything else is the default manifest's.
	delete(features, "assistant_view")
	delete(asst, "oauth_config")
	delete(settings, "event_subscriptions")
	d := maps.Clone(def)
	delete(d, "oauth_config")
	ds := maps.Clone(d["settings"].(map[string]any))
	delete(ds, "event_subscriptions")
	d["settings"] = ds
	if !reflect.DeepEqual(asst, d) {
		t.Errorf("the assistant manifest differs from manifest.yaml beyond the assistant surface:\n%v\n%v", asst, d)
	}
}
