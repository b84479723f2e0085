package corpus

import "github.com/paperbot/paperbot/fault"

// kindOf and message are search.KindOf and search.Message, which callers
// use on the errors of this package.
func kindOf(err error) fault.Kind { return fault.KindOf(err) }

func message(err error) string {
	if msg, ok := fault.UserMessage(err); ok {
		return msg
	}
	return "something went wrong on our side"
}
