package digest

import (
	"fmt"
	"runtime/debug"
)

// guard runs fn and turns a panic in it into a logged, counted error (Counts
// Panics): a bug, or a damaged record the store did not catch, in one run
// must not take down the process the scheduler shares with the bot.
func (s *Scheduler) guard(what string, fn func() error, attrs ...any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.counts.panics.Add(1)
			err = fmt.Errorf("digest: %s panicked: %v", what, p)
			s.cfg.Log.Error("digest: recovered from a panic; the bot carries on",
				append(attrs, "in", what, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))...)
		}
	}()
	return fn()
}
