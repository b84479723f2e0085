package bot

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/blockkit"
	"github.com/paperbot/paperbot/bot/bottest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// message is a rendered message as it goes on the wire.
type message struct {
	Text   string        `json:"text"`
	Blocks []slack.Block `json:"blocks"`
}

// checkGolden compares a reply's wire JSON with testdata/name.golden.
func checkGolden(t *testing.T, name string, rep *Reply) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep &amp; and &lt; readable in the golden file
	enc.SetIndent("", "  ")
	if err := enc.Encode(message{Text: rep.Text, Blocks: rep.Blocks}); err != nil {
		t.Fatalf("marshal %s: %v", name, err)
	}
	got := buf.Bytes()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bot -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (rerun with -update if the change is intended)\n--- got\n%s", name, path, got)
	}
}

// checkSafe asserts a message is within Slack's limits and carries no
// markup that could ping or forge a link. allowed lists user IDs that may be
// mentioned (the sharer).
func checkSafe(t *testing.T, rep *Reply, allowed ...string) {
	t.Helper()
	if err := blockkit.ValidateMessage(rep.Text, rep.Blocks); err != nil {
		t.Errorf("message outside Slack's limits: %v", err)
	}
	raw, err := json.Marshal(message{Text: rep.Text, Blocks: rep.Blocks})
	if err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Text   string           `json:"text"`
		Blocks []map[string]any `json:"blocks"`
	}
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatal(err)
	}
	texts := []string{decoded.Text}
	texts = append(texts, bottest.Texts(decoded.Blocks)...)
	for _, s := range texts {
		for _, bad := range []string{"<!channel>", "<!here>", "<!everyone>", "<http://evil", "<javascript:", "<@U123>", "<@UEVIL"} {
			if strings.Contains(s, bad) {
				t.Errorf("text %q contains %q", s, bad)
			}
		}
		checkLinks(t, s, allowed)
	}
	if len(rep.Blocks) > 50 {
		t.Errorf("%d blocks, max 50", len(rep.Blocks))
	}
}

// checkLinks asserts that every <…> token in mrkdwn is an http(s) link
// or a mention of an allowed user.
func checkLinks(t *testing.T, s string, allowed []string) {
	t.Helper()
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			return
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			t.Errorf("unbalanced < in %q", s)
			return
		}
		tok := s[i+1 : i+j]
		s = s[i+j+1:]
		if strings.HasPrefix(tok, "@") {
			ok := false
			for _, a := range allowed {
				ok = ok || tok == "@"+a
			}
			if !ok {
				t.Errorf("unexpected mention <%s>", tok)
			}
			continue
		}
		target, _, _ := strings.Cut(tok, "|")
		if strings.HasPrefix(target, "!date^") {
			continue // a date Slack shows in the reader's time zone (slackDate)
		}
		if !strings.HasPrefix(target, "https://") && !strings.HasPrefix(target, "http://") {
			t.Errorf("link <%s> is not http(s)", tok)
		}
	}
}
