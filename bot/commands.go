package bot

import (
	"fmt"
	"strings"
	"unicode"
)

// Command is one row of the command table. The router dispatches on Name
// (the first word of the text); help is rendered from the same rows.
type Command struct {
	// Name is the first word that selects the command: lower-case letters,
	// digits and '-' only, unique in the table.
	Name string
	// Usage shows the arguments after the invocation, e.g. "show ID".
	Usage string
	// Example is a complete example after the invocation, e.g. "show 3f9a2c1b".
	Example string
	// Help is one sentence saying what the command does.
	Help    string
	Handler Handler
}

// Action routes button clicks whose action_id is Prefix or starts with
// Prefix+":" to Handler.
type Action struct {
	Prefix  string
	Handler ActionHandler
}

// commandTable is the validated, ordered command table.
type commandTable struct {
	commands []Command
	byName   map[string]*Command
	actions  map[string]ActionHandler
}

// newCommandTable validates commands and actions and indexes them. It fails
// fast on duplicate or malformed names, empty usage, example or help, and
// nil handlers, so a bad table never reaches Slack.
func newCommandTable(commands []Command, actions []Action) (*commandTable, error) {
	t := &commandTable{byName: map[string]*Command{}, actions: map[string]ActionHandler{}}
	for i := range commands {
		c := commands[i]
		if err := validName(c.Name); err != nil {
			return nil, fmt.Errorf("command %d: %w", i, err)
		}
		if _, dup := t.byName[c.Name]; dup {
			return nil, fmt.Errorf("command %q is declared twice", c.Name)
		}
		switch {
		case strings.TrimSpace(c.Usage) == "":
			return nil, fmt.Errorf("command %q has no usage", c.Name)
		case strings.TrimSpace(c.Example) == "":
			return nil, fmt.Errorf("command %q has no example", c.Name)
		case strings.TrimSpace(c.Help) == "":
			return nil, fmt.Errorf("command %q has no help text", c.Name)
		case c.Handler == nil:
			return nil, fmt.Errorf("command %q has no handler", c.Name)
		}
		t.commands = append(t.commands, c)
		t.byName[c.Name] = &t.commands[len(t.commands)-1]
	}
	for _, a := range actions {
		if err := validName(a.Prefix); err != nil {
			return nil, fmt.Errorf("action: %w", err)
		}
		if _, dup := t.actions[a.Prefix]; dup {
			return nil, fmt.Errorf("action prefix %q is declared twice", a.Prefix)
		}
		if a.Handler == nil {
			return nil, fmt.Errorf("action %q has no handler", a.Prefix)
		}
		t.actions[a.Prefix] = a.Handler
	}
	if _, ok := t.byName[cmdSearch]; !ok {
		return nil, fmt.Errorf("command table has no %q command to fall back on", cmdSearch)
	}
	if _, ok := t.byName[cmdHelp]; !ok {
		return nil, fmt.Errorf("command table has no %q command", cmdHelp)
	}
	// Rebuild pointers: appending may have moved the slice.
	for i := range t.commands {
		t.byName[t.commands[i].Name] = &t.commands[i]
	}
	return t, nil
}

func validName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name")
	}
	for _, r := range name {
		if !(unicode.IsLower(r) || unicode.IsDigit(r) || r == '-' || r == '_') || r > unicode.MaxASCII {
			return fmt.Errorf("name %q must be lower-case ASCII letters, digits, '-' or '_'", name)
		}
	}
	return nil
}

// action finds the handler for an action_id ("prefix" or "prefix:anything").
func (t *commandTable) action(actionID string) (ActionHandler, bool) {
	prefix, _, _ := strings.Cut(actionID, ":")
	h, ok := t.actions[prefix]
	return h, ok
}
