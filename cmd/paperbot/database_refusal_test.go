package main

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
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
		t.Run(tc.name, func(t *testing.T) { serveRefusesDatabase(t, tc.url, tc.want) })
	}
}
