package main

import (
	"reflect"
	"strings"
)

// configEntry is one variable as `paperbot config` shows it.
type configEntry struct {
	Name        string `json:"name"`
	Value       string `json:"value"` // masked for secrets
	Set         bool   `json:"set"`   // from the environment, not the default
	Default     string `json:"default"`
	Secret      bool   `json:"secret,omitempty"`
	Description string `json:"description"`
}

// configInEffect lists every variable of Config with the value lookup gives
// it (an empty value counts as unset, as in loadConfig), as written: a
// malformed value is shown as it is, for the error that follows.
func configInEffect(lookup lookupFunc) []configEntry {
	var out []configEntry
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Config]()) {
		tag := f.Tag
		c := configEntry{Name: tag.Get("env"), Default: defaultOf(f), Secret: tag.Get("secret") == "true",
			Description: tag.Get("desc")}
		if v, ok := lookup(c.Name); ok && strings.TrimSpace(v) != "" {
			c.Value, c.Set = v, true
			if tag.Get("unquote") == "true" {
				c.Value = unquote(v)
			}
		} else {
			c.Value = c.Default
		}
		if c.Secret && c.Value != "" {
			c.Value = maskSecret(c.Value)
		}
		out = append(out, c)
	}
	return out
}

// maskSecret keeps a token's kind (xoxb-, xapp-), which is what people need
// to tell them apart, and hides the rest.
func maskSecret(v string) string {
	if i := strings.IndexByte(v, '-'); i > 0 && i <= 4 {
		return v[:i+1] + "****"
	}
	return "****"
}
