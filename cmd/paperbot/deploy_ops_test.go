package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dockerignored reports whether the build context leaves out name (a
// slash-separated path from the repository root): the last matching line
// of .dockerignore decides, a pattern matches a path or any directory above
// it, and "!" re-includes, as Docker does.
func dockerignored(patterns []string, name string) bool {
	ignored := false
	for _, p := range patterns {
		negate := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		for dir := name; dir != "." && dir != "/"; dir = path.Dir(dir) {
			if ok, _ := path.Match(p, dir); ok {
				ignored = !negate
				break
			}
		}
	}
	return ignored
}

func TestDockerignoreKeepsSecretsOut(t *testing.T) {
	b, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(".dockerignore is missing: `COPY . .` would send .env, data/ and .git to the builder:", err)
	}
	var patterns []string
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, line)
		}
	}
	for _, name := range []string{".env", ".env.production", "data/digests.db", "data/index/CURRENT", ".git/config",
		"corpus/papers.jsonl", "digests.db", "paperbot"} {
		if !dockerignored(patterns, name) {
			t.Errorf("%s would be in the build context", name)
		}
	}
	for _, name := range []string{"go.mod", "go.sum", "cmd/paperbot/main.go", "seeds/seeds.go", "search/corpus/testdata/corpora/json/a.json", "search/corpus/load.go",
		"bot/boltstore/boltstore.go"} {
		if dockerignored(patterns, name) {
			t.Errorf("%s is needed by the build but ignored", name)
		}
	}
}

// TestEveryDeploymentLoadsOwnCorpus: Docker, Compose, Kubernetes and systemd
// each show where a team's corpus goes and how PAPERBOT_CORPUS names it.
func TestEveryDeploymentLoadsOwnCorpus(t *testing.T) {
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(deployDir, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for file, wants := range map[string][]string{
		"Dockerfile":                          {"-v \"$PWD/corpus:/corpus:ro\"", "PAPERBOT_CORPUS='/corpus/*.jsonl'"},
		"compose.yaml":                        {"# PAPERBOT_CORPUS: /corpus/*.jsonl", "# - ../corpus:/corpus:ro"},
		"kubernetes/kustomization.yaml":       {"#   - path: corpus-patch.yaml"},
		"systemd/paperbot.service":            {"ProtectHome=yes", "DynamicUser=yes", "/etc/paperbot/corpus/", "PAPERBOT_CORPUS=/etc/paperbot/corpus/*.jsonl"},
		"../docs/operations.md":               {"-v \"$PWD/corpus:/corpus:ro\"", "kubectl create configmap paperbot-corpus", "/etc/paperbot/corpus/", "`../corpus:/corpus:ro`"},
		"kubernetes/corpus-patch.yaml":        {"kubectl create configmap paperbot-corpus"},
		"kubernetes/deployment.yaml":          {"name: paperbot\n"},
		"systemd/../systemd/paperbot.service": {"ReadWritePaths=/var/lib/paperbot"},
	} {
		text := read(file)
		for _, w := range wants {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q", file, w)
			}
		}
	}
	// The systemd corpus directory must be visible in the sandbox.
	for _, hidden := range []string{"/home", "/root", "/run/user"} {
		if strings.Contains(read("systemd/paperbot.service"), "PAPERBOT_CORPUS="+hidden) {
			t.Errorf("the unit's corpus example is under %s, which ProtectHome hides", hidden)
		}
	}

	// The Kubernetes patch mounts the ConfigMap where PAPERBOT_CORPUS looks,
	// in the Deployment's own container.
	patch := readYAML(t, filepath.Join(deployDir, "kubernetes/corpus-patch.yaml"))[0]
	deploy := readYAML(t, filepath.Join(deployDir, "kubernetes/deployment.yaml"))[0]
	pc := dig(t, patch, "spec", "template", "spec", "containers").([]any)[0]
	dc := dig(t, deploy, "spec", "template", "spec", "containers").([]any)[0]
	if dig(t, pc, "name") != dig(t, dc, "name") || dig(t, patch, "metadata", "name") != dig(t, deploy, "metadata", "name") {
		t.Error("corpus-patch.yaml does not name the Deployment's container")
	}
	env := dig(t, pc, "env").([]any)[0].(map[string]any)
	mount := dig(t, pc, "volumeMounts").([]any)[0].(map[string]any)
	vol := dig(t, patch, "spec", "template", "spec", "volumes").([]any)[0].(map[string]any)
	if env["name"] != "PAPERBOT_CORPUS" || path.Dir(env["value"].(string)) != mount["mountPath"] ||
		mount["name"] != vol["name"] || dig(t, vol, "configMap", "name") != "paperbot-corpus" {
		t.Errorf("the patch's PAPERBOT_CORPUS %v, mount %v and volume %v do not line up", env, mount, vol)
	}
}

// TestPrometheusAnnotationsOnOneObject: annotation-driven scraping would
// scrape the pod once per annotated object.
func TestPrometheusAnnotationsOnOneObject(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(deployDir, "kubernetes/*.yaml"))
	var annotated []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "prometheus.io/scrape"); n > 0 {
			annotated = append(annotated, filepath.Base(f)+"×"+strconv.Itoa(n))
		}
	}
	if len(annotated) != 1 || annotated[0] != "deployment.yaml×1" {
		t.Errorf("prometheus.io/scrape appears in %v, want once, on the pod template in deployment.yaml", annotated)
	}
}

// measuredMemory is the sizing docs/operations.md and the Kubernetes manifest
// state, measured on this project's 2-core machine ("Sizing"): VmHWM
// of `paperbot serve` against the Slack emulator after 120 queries, with the
// index already built, and while the serving process builds it.
var measuredMemory = []struct {
	papers            string
	serving, building int // MiB
}{
	{"5,900", 110, 225},
	{"30,000", 350, 560},
}

func TestMemoryGuidanceAgrees(t *testing.T) {
	ops, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(deployDir, "kubernetes/deployment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range measuredMemory {
		want := m.papers + " papers: ~" + strconv.Itoa(m.serving) + " MiB serving, ~" + strconv.Itoa(m.building) + " MiB while building"
		for name, text := range map[string]string{"docs/operations.md": string(ops), "deployment.yaml": string(manifest)} {
			if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(text, "#", "")), " "), want) {
				t.Errorf("%s does not state the measured %q", name, want)
			}
		}
	}
	deploy := readYAML(t, filepath.Join(deployDir, "kubernetes/deployment.yaml"))[0]
	c := dig(t, deploy, "spec", "template", "spec", "containers").([]any)[0]
	mi := func(v any) int {
		n, err := strconv.Atoi(strings.TrimSuffix(v.(string), "Mi"))
		if err != nil {
			t.Fatalf("memory %v is not in Mi", v)
		}
		return n
	}
	limit, request := mi(dig(t, c, "resources", "limits", "memory")), mi(dig(t, c, "resources", "requests", "memory"))
	// The serving process builds the index at first start and on reload:
	// the limit must hold the build of the largest corpus the guidance
	// covers, the request what the measured 5,900-paper corpus serves with.
	if limit < measuredMemory[len(measuredMemory)-1].building {
		t.Errorf("memory limit %d MiB is below the measured build peak of %s papers", limit, measuredMemory[len(measuredMemory)-1].papers)
	}
	if request < measuredMemory[0].serving {
		t.Errorf("memory request %d MiB is below the measured serving size of %s papers", request, measuredMemory[0].papers)
	}
	past := regexp.MustCompile(`(?i)past ~([0-9,]+) papers`)
	r, m := past.FindSubmatch(ops), past.FindSubmatch(manifest)
	if r == nil || m == nil || string(r[1]) != string(m[1]) {
		t.Errorf("docs/operations.md and deployment.yaml disagree on when to raise memory: %q vs %q", r, m)
	}
}

// TestREADMEFirstRun: the Go version matches go.mod and the Dockerfile's
// builder, and the README states measured first-run costs.
func TestREADMEFirstRun(t *testing.T) {
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go ((\d+\.\d+)(\.\d+)?)`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	full, minor := string(m[1]), string(m[2])
	readme, _ := os.ReadFile("../../README.md")
	dockerfile, _ := os.ReadFile(filepath.Join(deployDir, "Dockerfile"))
	if !strings.Contains(string(readme), "Go "+full+" or newer") {
		t.Errorf("README does not say Go %s or newer, as go.mod requires", full)
	}
	if !strings.Contains(string(dockerfile), "FROM golang:"+minor+"-") {
		t.Errorf("the Dockerfile does not build with Go %s", minor)
	}
	for _, want := range []string{"First run, measured on a 2-core machine", "go mod download", "go test -race ./..."} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README lacks %q", want)
		}
	}
}

// TestREADMEQuickStart: the quick start's two commands are the bot's answer
// over the embedded seeds and the test command CI runs (.ci/run's, without
// its -count=1).
func TestREADMEQuickStart(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go test -race .*\./\.\.\.$`).Find(ci)
	if m == nil {
		t.Fatal(".ci/run runs no `go test -race ... ./...`")
	}
	test := strings.Replace(string(m), " -count=1", "", 1)
	quick, _, _ := strings.Cut(string(readme), "\n## Set up Slack")
	for _, want := range []string{"```sh\ngo run ./cmd/paperbot ask \"", "```sh\n" + test + "\n```"} {
		if !strings.Contains(quick, want) {
			t.Errorf("the README's quick start lacks %q", want)
		}
	}
}
