package bot

import (
	"context"
	"strings"
	"testing"
)

func nopHandler(context.Context, *Request) (*Reply, error) { return nil, nil }

func baseCommands() []Command {
	return []Command{
		{Name: "search", Usage: "QUERY", Example: "q", Help: "h", Handler: nopHandler},
		{Name: "help", Usage: "help", Example: "help", Help: "h", Handler: nopHandler},
	}
}

func TestCommandTableValidation(t *testing.T) {
	tests := []struct {
		name    string
		extra   []Command
		actions []Action
		wantErr string
	}{
		{"valid", []Command{{Name: "show", Usage: "show ID", Example: "show x", Help: "h", Handler: nopHandler}}, nil, ""},
		{"duplicate name", []Command{{Name: "help", Usage: "u", Example: "e", Help: "h", Handler: nopHandler}}, nil, "declared twice"},
		{"empty usage", []Command{{Name: "x", Example: "e", Help: "h", Handler: nopHandler}}, nil, "no usage"},
		{"empty example", []Command{{Name: "x", Usage: "u", Help: "h", Handler: nopHandler}}, nil, "no example"},
		{"empty help", []Command{{Name: "x", Usage: "u", Example: "e", Handler: nopHandler}}, nil, "no help"},
		{"nil handler", []Command{{Name: "x", Usage: "u", Example: "e", Help: "h"}}, nil, "no handler"},
		{"upper-case name", []Command{{Name: "Show", Usage: "u", Example: "e", Help: "h", Handler: nopHandler}}, nil, "lower-case"},
		{"name with space", []Command{{Name: "a b", Usage: "u", Example: "e", Help: "h", Handler: nopHandler}}, nil, "lower-case"},
		{"empty name", []Command{{Usage: "u", Example: "e", Help: "h", Handler: nopHandler}}, nil, "empty name"},
		{"duplicate action", nil, []Action{{Prefix: "a", Handler: nopHandler}, {Prefix: "a", Handler: nopHandler}}, "declared twice"},
		{"nil action handler", nil, []Action{{Prefix: "a"}}, "no handler"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newCommandTable(append(baseCommands(), tt.extra...), tt.actions)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestCommandTableNeedsSearchAndHelp(t *testing.T) {
	if _, err := newCommandTable(baseCommands()[:1], nil); err == nil {
		t.Fatal("table without help accepted")
	}
	if _, err := newCommandTable(baseCommands()[1:], nil); err == nil {
		t.Fatal("table without search accepted")
	}
}

func TestRoute(t *testing.T) {
	table, err := newCommandTable((&Bot{}).builtinCommands(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text, cmd, args string
	}{
		{"", "help", ""},
		{"   ", "help", ""},
		{"help", "help", ""},
		{"HELP", "help", ""},
		{"?", "help", ""},
		{"--help", "help", ""},
		{"!!! ???", "help", ""},
		{"show aay87f2q", "show", "aay87f2q"},
		{"Show  aay87f2q ", "show", "aay87f2q"},
		{"show", "show", ""},
		{"similar aay87f2q", "similar", "aay87f2q"},
		{"search protein folding", "search", "protein folding"},
		{"protein folding", "search", "protein folding"},
		{"any papers on protein conformations?", "search", "any papers on protein conformations?"},
		{"help me find diffusion papers", "search", "help me find diffusion papers"},
		{"help show", "help", "show"},
		{"showcase of transformers", "search", "showcase of transformers"},
		{"hi", "help", ""},
		{"Hey there!", "help", ""},
		{"hi! any papers on kv cache?", "search", "hi! any papers on kv cache?"},
		{"what can you do?", "help", ""},
		{"hey paperbot, how does this work?", "help", ""},
		{"how do I use you", "help", ""},
		{"what can transformers do?", "search", "what can transformers do?"},
		{"how does this work for graphs?", "search", "how does this work for graphs?"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c, args := table.route(tt.text)
			if c.Name != tt.cmd || args != tt.args {
				t.Errorf("route(%q) = %s %q, want %s %q", tt.text, c.Name, args, tt.cmd, tt.args)
			}
		})
	}
}

func TestActionLookupByPrefix(t *testing.T) {
	table, err := newCommandTable(baseCommands(), []Action{{Prefix: "page", Handler: nopHandler}})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"page": true, "page:next": true, "pages:x": false, "share:0": false} {
		if _, ok := table.action(id); ok != want {
			t.Errorf("action(%q) found = %v, want %v", id, ok, want)
		}
	}
}

func TestNearCommand(t *testing.T) {
	table, err := newCommandTable((&Bot{}).builtinCommands(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for word, want := range map[string]string{
		"shw": "show", "sho": "show", "SHOW": "", "simlar": "similar", "similra": "similar",
		"hlep": "help", "protein": "", "sh": "", "search": "", "serach": "",
	} {
		if got := nearCommand(table, word); got != want {
			t.Errorf("nearCommand(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestOnlyThanks(t *testing.T) {
	for text, want := range map[string]bool{
		"thanks":                          true,
		"Thank you so much!":              true,
		"ok cool, thx":                    true,
		"hi, thanks paperbot":             true,
		"ok":                              false, // acknowledges, but thanks no one: help is for greetings, this searches
		"thanks to attention sinks":       false,
		"thanks! any papers on kv cache?": false,
	} {
		if got := onlyThanks(text); got != want {
			t.Errorf("onlyThanks(%q) = %v, want %v", text, got, want)
		}
	}
}
