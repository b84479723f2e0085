package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/slacktest"
)

const deployDir = "../../deploy"

// readYAML parses every document of a YAML file into JSON-compatible values.
func readYAML(t *testing.T, path string) []any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var docs []any
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc any
		if err := dec.Decode(&doc); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("%s: %v", path, err)
		}
		// Round-trip through JSON so maps have string keys, as a schema expects.
		j, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("%s: not JSON-compatible: %v", path, err)
		}
		var v any
		if err := json.Unmarshal(j, &v); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, v)
	}
	if len(docs) == 0 {
		t.Fatalf("%s: no YAML documents", path)
	}
	return docs
}

// ecmaRegexp runs schema patterns as JSON Schema means them (ECMAScript):
// Slack's schema uses lookaheads, which Go's regexp lacks.
type ecmaRegexp regexp2.Regexp

func (re *ecmaRegexp) MatchString(s string) bool {
	ok, err := (*regexp2.Regexp)(re).MatchString(s)
	return err == nil && ok
}

func (re *ecmaRegexp) String() string { return (*regexp2.Regexp)(re).String() }

func compileECMA(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return (*ecmaRegexp)(re), nil
}

func TestManifestMatchesSlackSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.UseRegexpEngine(compileECMA)
	schema, err := c.Compile(filepath.Join(deployDir, "slack/schema/manifest.schema.1.0.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := readYAML(t, filepath.Join(deployDir, "slack/manifest.yaml"))[0]
	if err := schema.Validate(manifest); err != nil {
		t.Fatalf("deploy/slack/manifest.yaml does not match Slack's schema: %v", err)
	}
	if err := schema.Validate(readYAML(t, filepath.Join(deployDir, "slack/manifest.assistant.yaml"))[0]); err != nil {
		t.Fatalf("deploy/slack/manifest.assistant.yaml does not match Slack's schema: %v", err)
	}
	// The schema accepts a manifest that can't serve us; check what we rely on.
	m := manifest.(map[string]any)
	settings := m["settings"].(map[string]any)
	if settings["socket_mode_enabled"] != true {
		t.Error("socket_mode_enabled must be true: paperbot has no public HTTP endpoint")
	}
	if settings["interactivity"].(map[string]any)["is_enabled"] != true {
		t.Error("interactivity must be enabled for the card buttons")
	}
	home := m["features"].(map[string]any)["app_home"].(map[string]any)
	if home["home_tab_enabled"] != true || home["messages_tab_enabled"] != true {
		t.Error("the Home tab and the Messages tab must be enabled")
	}
}

func TestDeployYAMLParses(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(deployDir, "kubernetes/*.yaml"))
	more, _ := filepath.Glob(filepath.Join(deployDir, "kubernetes/replicas/*.yaml"))
	files = append(append(files, more...), filepath.Join(deployDir, "compose.yaml"), filepath.Join(deployDir, "compose.replicas.yaml"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			for _, doc := range readYAML(t, f) {
				if _, ok := doc.(map[string]any); !ok {
					t.Fatalf("%s: top level is not a mapping", f)
				}
			}
		})
	}
}

// buildCommand returns the `go build` line of a page of the documentation
// (relative to the repository).
func buildCommand(t *testing.T, page string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("../..", page))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^CGO_ENABLED=0 go build .*$`).Find(text)
	if m == nil {
		t.Fatalf("%s has no `CGO_ENABLED=0 go build ...` line", page)
	}
	return string(m)
}

// TestDockerfileBuildsLikeTheREADME: the README and docs/operations.md show
// the build the image runs.
func TestDockerfileBuildsLikeTheREADME(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(deployDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	for _, page := range []string{"README.md", "docs/operations.md"} {
		want := strings.ReplaceAll(buildCommand(t, page), "$VERSION", "${VERSION}")
		if !strings.Contains(df, "RUN "+want+"\n") {
			t.Errorf("the Dockerfile's build stage does not run %s's build command %q", page, want)
		}
	}
	for _, must := range []string{"USER 65532", "VOLUME", "HEALTHCHECK", "PAPERBOT_DATA_DIR=/data", "CGO_ENABLED=0"} {
		if !strings.Contains(df, must) {
			t.Errorf("Dockerfile lacks %q", must)
		}
	}
	if regexp.MustCompile(`(?m)^(ENV|ARG)\b.*SLACK_(BOT|APP)_TOKEN`).MatchString(df) {
		t.Error("tokens must come from the environment at run time, never be baked into the image")
	}
}

func TestSystemdUnitIsSandboxed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(deployDir, "systemd/paperbot.service"))
	if err != nil {
		t.Fatal(err)
	}
	unit := string(b)
	for _, must := range []string{
		"ExecStart=/usr/local/bin/paperbot serve", "DynamicUser=yes", "ProtectSystem=strict",
		"StateDirectory=paperbot", "Environment=PAPERBOT_DATA_DIR=/var/lib/paperbot",
		"Restart=on-failure", "EnvironmentFile=", "NoNewPrivileges=yes",
	} {
		if !strings.Contains(unit, must+"\n") && !strings.Contains(unit, must) {
			t.Errorf("paperbot.service lacks %q", must)
		}
	}
}

// TestProbesPointAtRealEndpoints checks that every HTTP probe and health
// check in deploy/ names an endpoint or command the code really serves.
func TestProbesPointAtRealEndpoints(t *testing.T) {
	clearEnv(t)
	ix, _, err := openIndex(t.Context(), Config{}, quietLogger(&env{stderr: io.Discard}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	b, err := bot.New(bot.Config{BotToken: slacktest.DefaultBotToken, AppToken: slacktest.DefaultAppToken}, ix, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := b.Handler()
	served := func(path string) bool {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code != http.StatusNotFound && rec.Code != http.StatusMethodNotAllowed
	}

	docs := readYAML(t, filepath.Join(deployDir, "kubernetes/deployment.yaml"))
	container := dig(t, docs[0], "spec", "template", "spec", "containers").([]any)[0]
	for _, probe := range []string{"readinessProbe", "livenessProbe"} {
		path := dig(t, container, probe, "httpGet", "path").(string)
		if !served(path) {
			t.Errorf("%s points at %s, which the bot does not serve", probe, path)
		}
	}
	if got := dig(t, container, "readinessProbe", "httpGet", "path"); got != "/readyz" {
		t.Errorf("readiness must use /readyz (connected and index loaded), not %v", got)
	}
	annotations := dig(t, docs[0], "spec", "template", "metadata", "annotations").(map[string]any)
	if p := annotations["prometheus.io/path"].(string); !served(p) {
		t.Errorf("prometheus.io/path %s is not served", p)
	}
	if port := annotations["prometheus.io/port"]; port != "8080" {
		t.Errorf("prometheus.io/port = %v, the container listens on 8080", port)
	}

	// The image and compose health checks run `paperbot healthcheck`.
	compose := readYAML(t, filepath.Join(deployDir, "compose.yaml"))[0]
	test := dig(t, compose, "services", "paperbot", "healthcheck", "test").([]any)
	if test[len(test)-1] != "healthcheck" || !hasCommand("healthcheck") {
		t.Errorf("compose health check %v does not run the healthcheck command", test)
	}
}

func hasCommand(name string) bool {
	for _, c := range commands {
		if c.name == name {
			return true
		}
	}
	return false
}

// dig walks nested YAML mappings.
func dig(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("no mapping at %q", k)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("missing key %q", k)
		}
	}
	return v
}

func TestHealthcheckCommand(t *testing.T) {
	clearEnv(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	t.Setenv("PAPERBOT_HTTP_ADDR", strings.TrimPrefix(srv.URL, "http://"))
	if code, out, errOut := runCmd(t, t.Context(), "healthcheck"); code != exitOK || !strings.Contains(out, "healthy") {
		t.Fatalf("healthcheck against a healthy server: exit %d %q %q", code, out, errOut)
	}
	srv.Close()
	if code, _, _ := runCmd(t, t.Context(), "healthcheck"); code == exitOK {
		t.Fatal("healthcheck passed with nothing listening")
	}
}

// The two-replica compose file gives both replicas one data volume at the
// same path (each takes a replica directory of its own in it, see
// claimReplicaDir) and the same database, which they wait for.
func TestComposeReplicasShareTheDataVolumeAndDatabase(t *testing.T) {
	compose := readYAML(t, filepath.Join(deployDir, "compose.replicas.yaml"))[0]
	services := dig(t, compose, "services").(map[string]any)
	mounts, urls := map[any]bool{}, map[any]bool{}
	n := 0
	for name := range services {
		if !strings.HasPrefix(name, "paperbot") {
			continue
		}
		n++
		// Merge keys (<<) are resolved by the decoder.
		dataDir := dig(t, services, name, "environment", "PAPERBOT_DATA_DIR")
		for _, v := range dig(t, services, name, "volumes").([]any) {
			vol, path, _ := strings.Cut(v.(string), ":")
			if path == dataDir {
				mounts[vol+":"+path] = true
			}
		}
		urls[dig(t, services, name, "environment", "PAPERBOT_DATABASE_URL")] = true
		if dig(t, services, name, "depends_on", "db", "condition") != "service_healthy" {
			t.Errorf("%s does not wait for the database", name)
		}
	}
	if n != 2 || len(urls) != 1 {
		t.Errorf("%d replicas with %d database URLs, want 2 sharing one", n, len(urls))
	}
	if len(mounts) != 1 {
		t.Errorf("the replicas mount %v on PAPERBOT_DATA_DIR, want one volume shared", mounts)
	}
}

// TestKubernetesReplicas: the two-replica variant runs two pods on the
// database from a Secret, keeps one up through voluntary disruptions, and
// gates traffic on readiness (which checks the database).
func TestKubernetesReplicas(t *testing.T) {
	dir := filepath.Join(deployDir, "kubernetes/replicas")
	dep := readYAML(t, filepath.Join(dir, "deployment.yaml"))[0]
	if n := fmt.Sprint(dig(t, dep, "spec", "replicas")); n != "2" {
		t.Errorf("replicas %v, want 2", n)
	}
	labels := dig(t, dep, "spec", "selector", "matchLabels").(map[string]any)
	container := dig(t, dep, "spec", "template", "spec", "containers").([]any)[0]
	var secrets []string
	for _, e := range dig(t, container, "envFrom").([]any) {
		secrets = append(secrets, dig(t, e, "secretRef", "name").(string))
	}
	if !slices.Contains(secrets, "paperbot-database") || !slices.Contains(secrets, "paperbot-slack") {
		t.Errorf("envFrom secrets %v, want paperbot-slack and paperbot-database", secrets)
	}
	secret := readYAML(t, filepath.Join(dir, "database-secret.example.yaml"))[0]
	if _, ok := dig(t, secret, "stringData").(map[string]any)["PAPERBOT_DATABASE_URL"]; !ok {
		t.Error("the database Secret has no PAPERBOT_DATABASE_URL")
	}
	if dig(t, container, "readinessProbe", "httpGet", "path") != "/readyz" {
		t.Error("readiness must use /readyz, which answers 503 while the database is down")
	}
	for _, v := range dig(t, dep, "spec", "template", "spec", "volumes").([]any) {
		if _, ok := v.(map[string]any)["persistentVolumeClaim"]; ok {
			t.Error("a volume claim: two pods cannot share one ReadWriteOnce volume, and the state is in PostgreSQL")
		}
	}
	pdb := readYAML(t, filepath.Join(dir, "pdb.yaml"))[0]
	if dig(t, pdb, "kind") != "PodDisruptionBudget" || fmt.Sprint(dig(t, pdb, "spec", "minAvailable")) != "1" {
		t.Errorf("pdb.yaml: %v", pdb)
	}
	for k, v := range dig(t, pdb, "spec", "selector", "matchLabels").(map[string]any) {
		if labels[k] != v {
			t.Errorf("the budget selects %s=%v, the pods are labelled %v", k, v, labels)
		}
	}
	kust := readYAML(t, filepath.Join(dir, "kustomization.yaml"))[0]
	for _, r := range dig(t, kust, "resources").([]any) {
		if _, err := os.Stat(filepath.Join(dir, r.(string))); err != nil {
			t.Errorf("kustomization names %v: %v", r, err)
		}
	}
}
