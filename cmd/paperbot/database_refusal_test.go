package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// A database URL naming a database, user or rights the server does not
// give stops serve before it connects to Slack, with one line saying what
// to fix (TestServeRefusesUnusableDatabase covers a malformed URL and an
// unreachable server).
func TestServeRefusesDatabaseItMayNotUse(t *testing.T) {
	base := pgtest.ServerURL(t)
	role := pgtest.RandomName("nopriv_")
	pgtest.Admin(t, "CREATE ROLE "+role+" LOGIN")
	t.Cleanup(func() { pgtest.Admin(t, "DROP ROLE "+role) })
	_, schema := pgtest.Fresh(t)
	pgtest.Admin(t, "GRANT USAGE ON SCHEMA "+schema+" TO "+role)

	for _, tc := range []struct{ name, url, want string }{
		{"no such database", strings.Replace(base, "/paperbot?", "/nosuchdb?", 1), "does not exist"},
		{"no such user", pgtest.WithParams(t, base, "nobody_here", nil), "refused the login"},
		{"no right to create the tables", pgtest.WithParams(t, base, role, map[string]string{"search_path": schema}),
			`user "` + role + `" may not create paperbot's tables`},
		{"no right to create the tables, the fix names the schema", pgtest.WithParams(t, base, role, map[string]string{"search_path": schema}),
			"GRANT CREATE ON SCHEMA " + schema + " TO " + role},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := slacktest.NewServer()
			defer srv.Close()
			slackEnv(t, srv)
			t.Setenv("PAPERBOT_DATABASE_URL", tc.url)
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			code, _, errOut := runCmd(t, ctx, "serve")
			if code == exitOK {
				t.Fatalf("serve exited 0 with %s", tc.name)
			}
			line := strings.TrimSpace(errOut)
			if strings.Contains(line, "\n") || !strings.Contains(line, tc.want) {
				t.Fatalf("stderr %q: want one line saying %q", errOut, tc.want)
			}
			t.Log(line)
			if srv.Connections() != 0 {
				t.Error("connected to Slack with a database it may not use")
			}
		})
	}
}
