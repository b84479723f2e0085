package fault

import (
	"errors"
	"fmt"
	"testing"
)

func TestKindOf(t *testing.T) {
	cause := errors.New("disk on fire")
	for _, tt := range []struct {
		name string
		err  error
		want Kind
	}{
		{"nil", nil, Internal},
		{"plain error", cause, Internal},
		{"*Error", E("parse query", Invalid, "the query is empty"), Invalid},
		{"wrapped *Error", fmt.Errorf("search: %w", E("get", NotFound, "no paper x")), NotFound},
		{"wrapped kind", fmt.Errorf("subscription s1: %w", NotFound), NotFound},
		{"outermost *Error wins", &Error{Op: "share", Kind: Forbidden, Msg: "invite me", Err: fmt.Errorf("x: %w", Invalid)}, Forbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := KindOf(tt.err); got != tt.want {
				t.Errorf("KindOf(%v) = %v, want %v", tt.err, got, tt.want)
			}
			if tt.want != Internal && !errors.Is(tt.err, tt.want) {
				t.Errorf("errors.Is(%v, %v) = false", tt.err, tt.want)
			}
		})
	}
}

func TestErrorText(t *testing.T) {
	for _, tt := range []struct {
		err  *Error
		want string
	}{
		{&Error{Op: "parse query", Kind: Invalid, Msg: "too long"}, "parse query: too long"},
		{&Error{Kind: Invalid, Msg: "Papers must be between 1 and 30"}, "Papers must be between 1 and 30"},
		{&Error{Op: "open", Err: errors.New("EOF")}, "open: EOF"},
		{&Error{Op: "share", Msg: "invite me", Err: errors.New("not_in_channel")}, "share: invite me: not_in_channel"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestUserMessage(t *testing.T) {
	if m, ok := UserMessage(fmt.Errorf("x: %w", E("subscribe", Invalid, "pick a time"))); !ok || m != "pick a time" {
		t.Errorf("UserMessage(invalid) = %q, %v", m, ok)
	}
	if _, ok := UserMessage(&Error{Kind: Internal, Msg: "secret detail"}); ok {
		t.Error("an internal error's message reached the user")
	}
	if _, ok := UserMessage(fmt.Errorf("subscription s1: %w", NotFound)); ok {
		t.Error("a bare kind has no message for the user")
	}
}

func TestKindLabel(t *testing.T) {
	for k, want := range map[Kind]string{Internal: "internal", Invalid: "invalid", NotFound: "not_found", Forbidden: "forbidden"} {
		if got := k.Label(); got != want {
			t.Errorf("%v.Label() = %q, want %q", k, got, want)
		}
	}
}
