package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/search/semantic"
)

// envExampleLines are .env.example's lines for keys, uncommented, as an
// operator copies them into .env.
func envExampleLines(t *testing.T, keys ...string) map[string]string {
	t.Helper()
	f, err := os.Open("../../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "# ")
		if k, _, ok := strings.Cut(line, "="); ok && slices.Contains(keys, k) {
			out[k] = line
		}
	}
	if len(out) != len(keys) {
		t.Fatalf(".env.example has %d of the lines of %q", len(out), keys)
	}
	return out
}

// TestEmbeddingsPrefixesFromDotEnv: the prefixes as .env.example writes
// them (quoted, ending in a space) reach the embeddings server whole,
// whether .env is read by a shell (set -a; . ./.env, as the README says)
// or by docker run --env-file, which keeps the quotes.
func TestEmbeddingsPrefixesFromDotEnv(t *testing.T) {
	const qKey, dKey = "PAPERBOT_EMBEDDINGS_QUERY_PREFIX", "PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX"
	lines := envExampleLines(t, qKey, dKey)
	dotEnv := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(dotEnv, []byte(lines[qKey]+"\n"+lines[dKey]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to read .env with")
	}
	out, err := exec.Command(sh, "-c", `set -a; . "$1"; printf '%s\n%s\n' "$`+qKey+`" "$`+dKey+`"`, "sh", dotEnv).Output()
	if err != nil {
		t.Fatalf("sh cannot read .env.example's lines %q: %v", lines, err)
	}
	fromShell := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	_, q, _ := strings.Cut(lines[qKey], "=")
	_, d, _ := strings.Cut(lines[dKey], "=")
	for _, way := range []struct {
		name         string
		query, pages string
	}{
		{"shell", fromShell[0], fromShell[1]},
		{"docker --env-file", q, d}, // the quotes as written
	} {
		t.Run(way.name, func(t *testing.T) {
			var sent sentTexts
			srv := recordingEmbeddings(t, new(atomic.Bool), new(atomic.Int64), &sent)
			cfg, err := loadConfig(lookupIn(map[string]string{
				"PAPERBOT_EMBEDDINGS_URL": srv.URL, "PAPERBOT_EMBEDDINGS_MODEL": "nomic-embed-text",
				"PAPERBOT_DATA_DIR": t.TempDir(), qKey: way.query, dKey: way.pages,
			}))
			if err != nil {
				t.Fatal(err)
			}
			var opts search.Options
			if err := cfg.meaningOptions(t.Context(), &opts, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
				t.Fatal(err)
			}
			defer opts.Release()
			emb, ok := opts.Embedder.(semantic.QueryEmbedder)
			if !ok {
				t.Fatalf("the served embedder %T embeds queries as documents", opts.Embedder)
			}
			ctx := context.Background()
			if _, err := emb.Embed(ctx, []string{"a paper"}); err != nil {
				t.Fatal(err)
			}
			if _, err := emb.EmbedQuery(ctx, "kv cache"); err != nil {
				t.Fatal(err)
			}
			got := sent.all()
			if !slices.Contains(got, "search_document: a paper") || !slices.Contains(got, "search_query: kv cache") {
				t.Errorf("server received %q, want \"search_document: a paper\" and \"search_query: kv cache\"", got)
			}
		})
	}
}

// TestEmbeddingsPrefixErrors: a prefix that cannot be right is refused at
// start with one line naming the variable.
func TestEmbeddingsPrefixErrors(t *testing.T) {
	tests := []struct {
		name string
		vars map[string]string
		want string
	}{
		{"newline", map[string]string{"PAPERBOT_EMBEDDINGS_QUERY_PREFIX": "query:\npassage: "},
			`PAPERBOT_EMBEDDINGS_QUERY_PREFIX must be one line of at most 200 characters, such as "query: "`},
		{"too long", map[string]string{"PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX": strings.Repeat("passage ", 26)},
			`PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX must be one line of at most 200 characters, such as "query: "`},
		{"without a server", map[string]string{"PAPERBOT_EMBEDDINGS_URL": "", "PAPERBOT_EMBEDDINGS_QUERY_PREFIX": "query: "},
			"PAPERBOT_EMBEDDINGS_QUERY_PREFIX is set but PAPERBOT_EMBEDDINGS_URL is not: the built-in model takes no prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{"PAPERBOT_EMBEDDINGS_URL": "http://127.0.0.1:11434", "PAPERBOT_EMBEDDINGS_MODEL": "e5"}
			for k, v := range tt.vars {
				vars[k] = v
			}
			_, err := loadConfig(lookupIn(vars))
			if err == nil || err.Error() != tt.want {
				t.Errorf("loadConfig = %v, want the one line %q", err, tt.want)
			}
		})
	}
	// The longest prefix in use is well within the bound.
	_, err := loadConfig(lookupIn(map[string]string{"PAPERBOT_EMBEDDINGS_URL": "http://127.0.0.1:11434", "PAPERBOT_EMBEDDINGS_MODEL": "bge-base-en-v1.5",
		"PAPERBOT_EMBEDDINGS_QUERY_PREFIX": `"Represent this sentence for searching relevant passages: "`}))
	if err != nil {
		t.Errorf("bge's query prefix refused: %v", err)
	}
}

// TestEvalSendsThePrefixes: paperbot eval's prefix flags reach the server
// as PAPERBOT_EMBEDDINGS_*_PREFIX do: each paper after the document
// prefix, each query after the query prefix.
func TestEvalSendsThePrefixes(t *testing.T) {
	clearEnv(t)
	dir := writeBEIR(t)
	var sent sentTexts
	srv := recordingEmbeddings(t, new(atomic.Bool), new(atomic.Int64), &sent)
	code, _, errOut := runCmd(t, t.Context(), "eval", dir, "--split", "test", "--embeddings-url", srv.URL, "--embeddings-model", "e5",
		"--embeddings-query-prefix", "query: ", "--embeddings-document-prefix", "passage: ")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got := sent.all()
	papers, queries := 0, 0
	for _, s := range got {
		if strings.HasPrefix(s, "query: aspirin reduces stroke risk") { // the query's topic words
			queries++
		}
		if strings.HasPrefix(s, "passage: aspirin and stroke. ") {
			papers++
		}
		if !strings.HasPrefix(s, "passage: ") && !strings.HasPrefix(s, "query: ") {
			t.Errorf("sent without a prefix: %q", s)
		}
	}
	if papers == 0 || queries == 0 {
		t.Errorf("the aspirin paper (%d) or query (%d) not sent after its prefix: %q", papers, queries, got)
	}
	code, _, errOut = runCmd(t, t.Context(), "eval", dir, "--embeddings-query-prefix", "query: ")
	if code != exitUsage || !strings.Contains(errOut, "go with --embeddings-url") {
		t.Errorf("a prefix without a server: exit %d, %q; want a usage error", code, errOut)
	}
}

// TestConfigShowsThePrefixesTrailingSpace: paperbot config quotes a value
// that ends in a space, which would be invisible otherwise.
func TestConfigShowsThePrefixesTrailingSpace(t *testing.T) {
	clearEnv(t)
	t.Setenv("PAPERBOT_EMBEDDINGS_URL", "http://127.0.0.1:11434")
	t.Setenv("PAPERBOT_EMBEDDINGS_MODEL", "e5")
	t.Setenv("PAPERBOT_EMBEDDINGS_QUERY_PREFIX", "query: ")
	t.Setenv("PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX", `"passage: "`) // as docker --env-file passes it
	code, out, errOut := runCmd(t, t.Context(), "config")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`PAPERBOT_EMBEDDINGS_QUERY_PREFIX="query: "`, `PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX="passage: "`, "PAPERBOT_EMBEDDINGS_MODEL=e5 "} {
		if !strings.Contains(out, want) {
			t.Errorf("config output lacks %s:\n%s", want, grepLines(out, "EMBEDDINGS"))
		}
	}
}
