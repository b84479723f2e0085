package main

import (
	"os"
	"strings"
)

// protectedHomes are the directories systemd's ProtectHome=yes hides.
var protectedHomes = []string{"/home/", "/root/", "/run/user/"}

// sandboxHint explains a corpus that cannot be found or read under systemd
// (which sets INVOCATION_ID): the unit's sandbox hides home directories, so
// a path that works in the operator's shell is missing for the service.
func sandboxHint(cfg Config) string {
	if os.Getenv("INVOCATION_ID") == "" {
		return ""
	}
	for _, p := range cfg.CorpusPatterns() {
		for _, home := range protectedHomes {
			if strings.HasPrefix(p, home) {
				return " (under systemd, ProtectHome=yes hides /home, /root and /run/user from paperbot: " +
					"put the corpus elsewhere, for example /etc/paperbot/corpus, readable by everyone)"
			}
		}
	}
	return ""
}
