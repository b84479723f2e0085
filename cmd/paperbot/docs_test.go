package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository, seen from this package's directory.
const repoRoot = "../.."

// readmeMaxBytes keeps the README to what fits on a screen or two; the
// reference lives in docs/.
const readmeMaxBytes = 12 * 1024

// markdownPages returns README.md and every docs/*.md, relative to repoRoot.
func markdownPages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	pages := []string{"README.md"}
	for _, d := range docs {
		rel, _ := filepath.Rel(repoRoot, d)
		pages = append(pages, filepath.ToSlash(rel))
	}
	return pages
}

var (
	fenceLine = regexp.MustCompile("^\\s*(```|~~~)")
	codeSpan  = regexp.MustCompile("(?s)(`+).+?`+")
	mdLink    = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading   = regexp.MustCompile(`^(#{1,6})\s+(.+?)\s*#*\s*$`)
)

// mdPage is what the link check needs of a Markdown page: its prose (code
// blocks and code spans blanked, so a path in backticks is no link) and the
// anchors of its headings.
type mdPage struct {
	prose   string
	anchors map[string]bool
}

func parseMarkdown(text string) mdPage {
	p := mdPage{anchors: map[string]bool{}}
	var prose []string
	inFence := false
	seen := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		if fenceLine.MatchString(line) {
			inFence = !inFence
			prose = append(prose, "")
			continue
		}
		if inFence {
			prose = append(prose, "")
			continue
		}
		prose = append(prose, line)
		if m := heading.FindStringSubmatch(line); m != nil {
			a := anchorOf(m[2])
			if n := seen[a]; n > 0 {
				p.anchors[a+"-"+strconv.Itoa(n)] = true
			} else {
				p.anchors[a] = true
			}
			seen[a]++
		}
	}
	p.prose = codeSpan.ReplaceAllString(strings.Join(prose, "\n"), "")
	return p
}

// anchorOf is the anchor GitHub gives a heading: lower case, letters,
// digits, '-' and '_' kept, spaces turned into '-', the rest dropped.
func anchorOf(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// relativeLinks returns the targets of page's Markdown links that point
// inside the repository (not http:, https: or mailto:).
func relativeLinks(p mdPage) []string {
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(strings.ReplaceAll(p.prose, "\n", " "), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		out = append(out, target)
	}
	return out
}

// brokenLinks lists the relative links of the page at name (relative to
// root) whose file, or whose heading anchor in a Markdown file, is missing.
func brokenLinks(root, name string) ([]string, error) {
	text, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		return nil, err
	}
	page := parseMarkdown(string(text))
	var broken []string
	for _, target := range relativeLinks(page) {
		file, anchor, _ := strings.Cut(target, "#")
		path := filepath.Join(root, filepath.Dir(name), filepath.FromSlash(file))
		if file == "" {
			path = filepath.Join(root, name)
		}
		if _, err := os.Stat(path); err != nil {
			broken = append(broken, target+" (no such file)")
			continue
		}
		if anchor == "" || !strings.HasSuffix(path, ".md") {
			continue
		}
		linked, err := os.ReadFile(path)
		if err != nil {
			broken = append(broken, target+" ("+err.Error()+")")
			continue
		}
		if !parseMarkdown(string(linked)).anchors[anchor] {
			broken = append(broken, target+" (no such heading)")
		}
	}
	return broken, nil
}

// TestDocsLinksResolve: every relative link of the README and of docs/
// names a file of the repository, and a heading of it when it has an anchor.
func TestDocsLinksResolve(t *testing.T) {
	for _, name := range markdownPages(t) {
		broken, err := brokenLinks(repoRoot, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range broken {
			t.Errorf("%s links to %s", name, b)
		}
	}
}

// TestDocsLinkCheckerFindsBrokenLinks holds the checker itself to account: a
// missing file, a missing heading, a link in code (no link) and a heading
// inside a code block (no heading).
func TestDocsLinkCheckerFindsBrokenLinks(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/b.md", "# B page\n\n## State in PostgreSQL (several replicas)\n\n```sh\n# not a heading\n```\n")
	write("README.md", "See [b](docs/b.md), [pg](docs/b.md#state-in-postgresql-several-replicas),\n"+
		"[gone](docs/gone.md), [nope](docs/b.md#not-a-heading), [top](#top), ![pic](docs/pic.png),\n"+
		"`[in code](docs/missing.md)` and [web](https://example.org/x.md).\n\n"+
		"```\n[fenced](docs/fenced.md)\n```\n\n# Top\n")
	broken, err := brokenLinks(root, "README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/gone.md (no such file)", "docs/b.md#not-a-heading (no such heading)", "docs/pic.png (no such file)"}
	if !slices.Equal(broken, want) {
		t.Errorf("broken links %q, want %q", broken, want)
	}
}

// TestREADMEFitsOnAScreen: the README stays short, and every page of docs/
// can be reached from it.
func TestREADMEFitsOnAScreen(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(readme) >= readmeMaxBytes {
		t.Errorf("README.md is %d bytes, over %d: move reference into docs/", len(readme), readmeMaxBytes)
	}
	linked := map[string]bool{}
	for _, target := range relativeLinks(parseMarkdown(string(readme))) {
		file, _, _ := strings.Cut(target, "#")
		linked[filepath.ToSlash(filepath.Clean(file))] = true
	}
	for _, page := range markdownPages(t)[1:] {
		if !linked[page] {
			t.Errorf("README.md does not link to %s", page)
		}
	}
}
