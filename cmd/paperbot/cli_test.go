package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestSubcommandHelp: every command prints its own usage for -h and --help
// and exits 0, wherever the flag stands before "--".
func TestSubcommandHelp(t *testing.T) {
	clearEnv(t)
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, out, errOut := runCmd(t, t.Context(), args...)
				if code != exitOK || !strings.HasPrefix(out, "usage: paperbot "+c.name) || !strings.Contains(out, "-h, --help") {
					t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
				}
			})
		}
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"help after the query", []string{"search", "kv", "cache", "--help"}, "usage: paperbot search"},
		{"flags listed with defaults", []string{"search", "-h"}, "-n N"},
		{"exclusions explained", []string{"ask", "--help"}, "diffusion -image"},
		{"digest flags", []string{"digest", "--help"}, "--channel ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, _ := runCmd(t, t.Context(), tt.args...)
			if code != exitOK || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, want %q in:\n%s", code, tt.want, out)
			}
		})
	}
	if code, out, _ := runCmd(t, t.Context(), "search", "--", "--help"); code == exitUsage || strings.HasPrefix(out, "usage:") {
		t.Errorf("after --, --help is query text: exit %d %q", code, out)
	}
}

// TestTyposAreUsageErrors: unknown flags and commands are usage errors that
// suggest the nearest; single-dash words stay query exclusions.
func TestTyposAreUsageErrors(t *testing.T) {
	clearEnv(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string // in stderr
	}{
		{"--jsn", []string{"search", "--jsn", "kv cache"}, exitUsage, "unknown flag --jsn (did you mean --json?)"},
		{"flag typo after the query", []string{"ask", "kv cache", "--jason"}, exitUsage, "did you mean --json?"},
		{"--txt", []string{"similar", "--txt", "abc"}, exitUsage, "did you mean --text?"},
		{"--alow-shrink", []string{"index", "--alow-shrink"}, exitUsage, "did you mean --allow-shrink?"},
		{"--chanel", []string{"digest", "--dry-run", "--chanel", "C1"}, exitUsage, "did you mean --channel?"},
		{"config --jsn", []string{"config", "--jsn"}, exitUsage, "did you mean --json?"},
		{"unknown flag far from any", []string{"search", "--frobnicate", "x"}, exitUsage, "unknown flag --frobnicate\n"},
		{"serch", []string{"serch", "kv"}, exitUsage, `unknown command "serch" (did you mean "search"?)`},
		{"simlar", []string{"simlar", "x"}, exitUsage, `did you mean "similar"?`},
		{"nothing near", []string{"frobnicate"}, exitUsage, `unknown command "frobnicate"` + "\n"},
		{"exclusion is not a flag", []string{"search", "diffusion", "-image", "-n", "1"}, exitOK, ""},
		{"single-dash typo is an exclusion", []string{"search", "kv cache", "-jsn"}, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, t.Context(), tt.args...)
			if code != tt.wantCode || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q (stdout %q)", code, errOut, tt.wantCode, tt.want, out)
			}
		})
	}
}

// TestExitCodes: 0 relevant results, 1 no relevant match (as ripgrep), 2
// usage; check without tokens and healthcheck with nothing listening are 1.
func TestExitCodes(t *testing.T) {
	clearEnv(t)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"results", []string{"search", "kv cache compression"}, exitOK},
		{"no relevant match", []string{"search", "zymurgy flibbertigibbet"}, exitNo},
		{"no relevant match, JSON", []string{"ask", "--json", "zymurgy flibbertigibbet"}, exitNo},
		{"similar text", []string{"similar", "--text", "kv cache compression for long context LLM inference"}, exitOK},
		{"usage", []string{"search"}, exitUsage},
		{"check without tokens", []string{"check"}, exitNo},
		{"healthcheck with the endpoint off", []string{"healthcheck"}, exitNo},
		{"--version", []string{"--version"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, t.Context(), tt.args...)
			if code != tt.want {
				t.Fatalf("exit %d, want %d: %q %q", code, tt.want, out, errOut)
			}
		})
	}
	t.Setenv("PAPERBOT_HTTP_ADDR", refusingAddr(t))
	if code, _, errOut := runCmd(t, t.Context(), "healthcheck"); code != exitNo {
		t.Errorf("healthcheck with no healthy bot listening: exit %d, want 1 (Docker's unhealthy): %s", code, errOut)
	}
	if code, out, _ := runCmd(t, t.Context(), "check"); code != exitNo || !strings.Contains(out, "SLACK_BOT_TOKEN is not set") {
		t.Errorf("check without tokens: exit %d, %q", code, out)
	}
}

// TestPipedOutputIsPlain: text for a pipe has no Markdown ** and no escape
// codes; color needs a terminal and no NO_COLOR; the progress bar needs a
// terminal.
func TestPipedOutputIsPlain(t *testing.T) {
	clearEnv(t)
	code, out, _ := runCmd(t, t.Context(), "search", "kv cache compression")
	if code != exitOK || strings.Contains(out, "**") || strings.Contains(out, "\x1b") {
		t.Fatalf("piped search output has markup (exit %d):\n%s", code, out)
	}
	for _, tt := range []struct {
		terminal bool
		noColor  string
		want     bool
	}{{true, "", true}, {true, "1", false}, {false, "", false}, {false, "1", false}} {
		t.Setenv("NO_COLOR", tt.noColor)
		if got := wantColor(tt.terminal); got != tt.want {
			t.Errorf("wantColor(terminal=%v) with NO_COLOR=%q = %v", tt.terminal, tt.noColor, got)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if progressOut(w) != nil || progressOut(&bytes.Buffer{}) != nil {
		t.Error("a progress bar would be drawn into a pipe or a buffer")
	}
}

// TestJSONOutputs: version, config, check and digest --dry-run print JSON
// with --json; config masks tokens and reports a malformed value as an
// error after showing it.
func TestJSONOutputs(t *testing.T) {
	clearEnv(t)
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-123-secretvalue")
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
	tests := []struct {
		args     []string
		wantCode int
		check    func(t *testing.T, v any)
	}{
		{[]string{"version", "--json"}, exitOK, func(t *testing.T, v any) {
			if v.(map[string]any)["corpus_papers"] != 57.0 {
				t.Errorf("version: %v", v)
			}
		}},
		{[]string{"config", "--json"}, exitOK, func(t *testing.T, v any) {
			for _, c := range v.([]any) {
				c := c.(map[string]any)
				if c["name"] == "SLACK_BOT_TOKEN" && (c["value"] != "xoxb-****" || c["set"] != true) {
					t.Errorf("token shown as %v", c)
				}
			}
		}},
		{[]string{"check", "--json"}, exitNo, func(t *testing.T, v any) {
			if v.(map[string]any)["ready"] != false {
				t.Errorf("check: %v", v)
			}
		}},
		{[]string{"digest", "--dry-run", "--channel", "C1", "--json"}, exitOK, func(t *testing.T, v any) {
			if m := v.(map[string]any); m["channel"] != "C1" || len(m["digests"].([]any)) != 0 {
				t.Errorf("digest: %v", v)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := runCmd(t, t.Context(), tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d: %s", code, tt.wantCode, errOut)
			}
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if strings.Contains(out, "secretvalue") {
				t.Fatal("a token reached the output")
			}
			tt.check(t, v)
		})
	}
	t.Setenv("PAPERBOT_WORKERS", "many")
	code, out, errOut := runCmd(t, t.Context(), "config")
	if code != exitError || !strings.Contains(out, "PAPERBOT_WORKERS=many") || !strings.Contains(errOut, `PAPERBOT_WORKERS="many" is not a valid whole number`) {
		t.Errorf("config with a malformed value: exit %d, %q %q", code, out, errOut)
	}
}

// TestDigestChannelNameNeedsToken: without a bot token a channel name
// cannot be looked up, and the message says to give the ID.
func TestDigestChannelNameNeedsToken(t *testing.T) {
	clearEnv(t)
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
	code, _, errOut := runCmd(t, t.Context(), "digest", "--dry-run", "--channel", "#papers")
	if code != exitUsage || !strings.Contains(errOut, "#papers is not a channel ID") || !strings.Contains(errOut, "SLACK_BOT_TOKEN") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

// TestCommandReferenceMatchesCode: docs/commands.md lists every command
// with its usage as the command table has it.
func TestCommandReferenceMatchesCode(t *testing.T) {
	page, err := os.ReadFile("../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands {
		if !bytes.Contains(page, []byte("\npaperbot "+c.usage+" ")) {
			t.Errorf("docs/commands.md's command reference lacks the line %q", "paperbot "+c.usage)
		}
	}
}

// TestCorpusUnderHomeExplainsSandbox: under systemd, a corpus in a home
// directory is hidden by ProtectHome; the error says so.
func TestCorpusUnderHomeExplainsSandbox(t *testing.T) {
	clearEnv(t)
	t.Setenv("PAPERBOT_CORPUS", "/home/paperbot-test-nobody/papers.jsonl")
	t.Setenv("INVOCATION_ID", "0123456789abcdef")
	code, _, errOut := runCmd(t, t.Context(), "search", "x")
	if code != exitError || !strings.Contains(errOut, "ProtectHome=yes hides /home") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

// TestAskForPapersLikeOne: "papers similar to <title>" answers as similar
// does, as the bot does.
func TestAskForPapersLikeOne(t *testing.T) {
	clearEnv(t)
	var res struct {
		Results []struct{ ID, Title string }
	}
	if runJSON(t, &res, "search", "--json", "-n", "1", "kv cache compression"); len(res.Results) == 0 {
		t.Fatal("search found nothing")
	}
	p := res.Results[0]
	_, want, simErr := runCmd(t, t.Context(), "similar", p.ID)
	if !strings.Contains(simErr, "papers like "+p.ID+": "+p.Title) {
		// A name may be another paper's than the one meant: similar says
		// which paper it took.
		t.Errorf("similar %s does not say which paper the results are like: stderr %q", p.ID, simErr)
	}
	code, got, errOut := runCmd(t, t.Context(), "ask", `papers similar to "`+p.Title+`"?`)
	if code != exitOK || got != want || !strings.Contains(errOut, "papers like "+p.ID) {
		t.Errorf("ask papers similar to %q: exit %d, stderr %q\n%s\nwant as similar %s:\n%s", p.Title, code, errOut, got, p.ID, want)
	}
}

// TestAskWithAPastedAbstract: text longer than any query (an abstract
// pasted into ask) gets the papers like it, as similar --text gives them,
// not an error telling the user to shorten it.
func TestAskWithAPastedAbstract(t *testing.T) {
	clearEnv(t)
	abstract := "We present a method that discovers the effective degrees of freedom of molecular dynamics " +
		"simulations from approximate symmetries of the energy landscape, without trajectory data. " +
		"A symmetry loss compatible with existing force fields and a Hessian-based variant for small systems " +
		"let us explore conformational space; on alanine dipeptide and chignolin the method recovers the known " +
		"important conformations, which may help protein folding and drug discovery studies that need cheap sampling."
	_, want, simErr := runCmd(t, t.Context(), "similar", "--text", abstract)
	if !strings.Contains(simErr, "papers like the text") {
		t.Errorf("similar --text does not say what the results are like: stderr %q", simErr)
	}
	code, got, errOut := runCmd(t, t.Context(), "ask", abstract)
	if code != exitOK || got != want || !strings.Contains(errOut, "papers like the text") {
		t.Errorf("ask with an abstract: exit %d, stderr %q\n%s\nwant as similar --text:\n%s", code, errOut, got, want)
	}
	if !strings.Contains(got, "Symmetry-Driven Discovery") {
		t.Errorf("the paper the abstract retells is not among the results:\n%s", got)
	}
}

// TestMissingWordsNamed: as in Slack, the CLI names the query's words none
// of the papers listed has, before them.
func TestMissingWordsNamed(t *testing.T) {
	clearEnv(t)
	code, out, errOut := runCmd(t, t.Context(), "search", "-n", "3", "legal kv cache compression")
	if code != exitOK || !strings.HasPrefix(out, "None of these papers has “legal”.\n\n1. ") {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	if _, out, _ := runCmd(t, t.Context(), "search", "-n", "3", "kv cache compression"); strings.Contains(out, "None of these papers") {
		t.Errorf("names missing words when none is missing:\n%s", out)
	}
}

// "give me 2 papers on …" lists two, as the bot pages it; -n still rules.
func TestAskedCountSetsTheLimit(t *testing.T) {
	clearEnv(t)
	count := func(args ...string) int {
		t.Helper()
		code, out, errOut := runCmd(t, t.Context(), append([]string{"search", "--json"}, args...)...)
		var res struct {
			Results []json.RawMessage `json:"results"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
		}
		return len(res.Results)
	}
	if n := count("give me 2 papers on language models"); n != 2 {
		t.Errorf("asked for 2 papers, got %d", n)
	}
	if n := count("-n", "4", "give me 2 papers on language models"); n != 4 {
		t.Errorf("-n 4 with 2 asked: got %d, want 4", n)
	}
}

// A question copied from Slack, with a mention and emoji, gets the answer
// the bot gives it: the same as its words alone.
func TestSlackMarkupSearchedAsTheBotDoes(t *testing.T) {
	clearEnv(t)
	_, plain, _ := runCmd(t, t.Context(), "ask", "--json", "kv cache compression")
	code, marked, errOut := runCmd(t, t.Context(), "ask", "--json", "<@U0123ABC> kv cache compression :pray:")
	var a, b struct {
		NoMatch    bool    `json:"no_match"`
		Confidence float64 `json:"confidence"`
		Results    []struct {
			ID string `json:"id"`
		} `json:"results"`
	}
	if code != exitOK || json.Unmarshal([]byte(plain), &a) != nil || json.Unmarshal([]byte(marked), &b) != nil {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if a.NoMatch || b.NoMatch || b.Confidence != a.Confidence || len(a.Results) == 0 || len(b.Results) != len(a.Results) || a.Results[0].ID != b.Results[0].ID {
		t.Errorf("with Slack markup: %+v; want as without: %+v", b, a)
	}
}
