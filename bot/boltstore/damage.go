package boltstore

import (
	"errors"
	"fmt"
)

// ErrDamaged is matched (errors.Is) by every refusal of a store file that is
// damaged, empty or not a paperbot store; errors.As finds the *DamageError.
var ErrDamaged = errors.New("the subscription store cannot be used as it is")

// Damage is what is wrong with a refused store file.
type Damage int

const (
	// Damaged: a bbolt file (or a paperbot store) whose pages or records
	// are broken: cut short, overwritten, bits flipped.
	Damaged Damage = iota
	// Empty: a file of 0 bytes. paperbot never leaves one (it creates the
	// store under another name and links it into place), so something
	// truncated it, and whatever it held is gone.
	Empty
	// Foreign: a readable file that is not a paperbot store, such as a text
	// file or a bbolt database of another program.
	Foreign
)

// DamageError is a refused store file: which file, what is wrong, and (in
// Error) what the operator can do. Its message is one line.
type DamageError struct {
	Path    string
	Kind    Damage
	Problem string // what is wrong, for people
	More    int    // further problems found beyond Problem
}

func (e *DamageError) Is(target error) bool { return target == ErrDamaged }

// Error names the file, says what is wrong and what to do, on one line.
func (e *DamageError) Error() string {
	problem := e.Problem
	if e.More > 0 {
		problem += fmt.Sprintf(" (and %d more problems)", e.More)
	}
	const keepsCopy = "both keep the old file beside the new one"
	switch e.Kind {
	case Empty:
		return fmt.Sprintf("subscription store %s is empty (0 bytes): the subscriptions it held are gone, and paperbot will not start afresh silently; "+
			"restore your backup of it, or run `paperbot store reset --keep-copy` to start with no subscriptions", e.Path)
	case Foreign:
		return fmt.Sprintf("%s is not a paperbot subscription store: %s; check PAPERBOT_DATA_DIR and move the file away, "+
			"or run `paperbot store reset --keep-copy` to start an empty store (the file is kept beside it)", e.Path, problem)
	}
	return fmt.Sprintf("subscription store %s is damaged: %s; with paperbot stopped, restore your backup of it, "+
		"or run `paperbot store repair --keep-copy` to keep every record that still reads, or `paperbot store reset --keep-copy` to start empty (%s)",
		e.Path, problem, keepsCopy)
}

func damagedf(format string, args ...any) *DamageError {
	return &DamageError{Kind: Damaged, Problem: fmt.Sprintf(format, args...)}
}

func foreignf(format string, args ...any) *DamageError {
	return &DamageError{Kind: Foreign, Problem: fmt.Sprintf(format, args...)}
}

// problemsError turns a list of problems into one refusal.
func problemsError(kind Damage, problems []string) *DamageError {
	return &DamageError{Kind: kind, Problem: problems[0], More: len(problems) - 1}
}
