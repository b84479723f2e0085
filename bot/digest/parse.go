package digest

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// MaxTopicLen bounds a subscription topic, in bytes.
const MaxTopicLen = 300

// SubscribeUsage is the subscribe command's syntax, for error messages and help.
const SubscribeUsage = "/paper subscribe TOPIC [at HH:MM] [tz Area/City] [daily|weekdays|weekly DAY]"

// ParseSubscribe reads the arguments of the subscribe command:
//
//	TOPIC [at HH:MM] [tz Area/City] [daily|weekdays|weekly DAY]
//
// The options follow the topic in any order. Missing options default to
// 09:00 on weekdays; a missing zone leaves Schedule.TZ empty for the caller to
// fill (from the user's profile) before Validate. Errors are fault.Invalid and
// their text tells the user what to write instead.
func ParseSubscribe(text string) (topic string, s Schedule, err error) {
	s = Schedule{Hour: DefaultHour, Minute: DefaultMinute, Every: Weekdays}
	words := strings.Fields(text)
	var haveAt, haveTZ, haveEvery bool
	seen := func(have *bool, name string) error {
		if *have {
			return invalidf("%s is given twice: %s", name, SubscribeUsage)
		}
		*have = true
		return nil
	}
	for len(words) > 0 {
		n := len(words)
		last := strings.ToLower(words[n-1])
		prev := ""
		if n >= 2 {
			prev = strings.ToLower(words[n-2])
		}
		switch {
		case last == "at" || last == "tz":
			return "", s, invalidf("%q needs a value, e.g. at 09:00 or tz Europe/Berlin", words[n-1])
		case last == "weekly":
			return "", s, invalidf("weekly needs a day, e.g. weekly monday")
		case prev == "at" && hasDigit(last):
			h, m, ok := parseClock(last)
			if !ok {
				return "", s, invalidf("%q is not a time of day: use HH:MM, e.g. at 09:00 or at 17:30", words[n-1])
			}
			if err := seen(&haveAt, "at"); err != nil {
				return "", s, err
			}
			s.Hour, s.Minute = h, m
			words = words[:n-2]
		case prev == "tz":
			loc, err := loadZone(words[n-1])
			if err != nil {
				return "", s, err
			}
			if err := seen(&haveTZ, "tz"); err != nil {
				return "", s, err
			}
			s.TZ = loc.String()
			words = words[:n-2]
		case prev == "weekly":
			wd, ok := parseWeekday(last)
			if !ok {
				return "", s, invalidf("%q is not a day of the week: e.g. weekly monday", words[n-1])
			}
			if err := seen(&haveEvery, "the frequency"); err != nil {
				return "", s, err
			}
			s.Every, s.Weekday = Weekly, wd
			words = words[:n-2]
		case frequencyOf(prev, last) > 0:
			if err := seen(&haveEvery, "the frequency"); err != nil {
				return "", s, err
			}
			took := frequencyOf(prev, last)
			s.Every, s.Weekday = frequencyFrom(last)
			words = words[:n-took]
		default:
			topic = strings.Join(withoutAddressee(words), " ")
			words = nil
		}
	}
	if topic == "" {
		return "", s, invalidf("say which papers to follow, e.g. /paper subscribe graph neural networks at 09:00")
	}
	if len(topic) > MaxTopicLen {
		return "", s, invalidf("the topic is %d characters long; keep it under %d", len(topic), MaxTopicLen)
	}
	return topic, s, nil
}

// withoutAddressee drops who is subscribed from the front of the topic:
// "subscribe this channel to kv cache", "subscribe us to kv cache" and
// "subscribe to kv cache" follow "kv cache" (the digest goes to the
// channel it is asked in).
func withoutAddressee(words []string) []string {
	lower := func(i int) string { return strings.ToLower(words[i]) }
	for _, n := range []int{3, 2, 1} {
		if len(words) <= n || lower(n-1) != "to" {
			continue
		}
		switch n {
		case 3:
			if (lower(0) == "this" || lower(0) == "the" || lower(0) == "our") && lower(1) == "channel" {
				return words[n:]
			}
		case 2:
			if lower(0) == "us" || lower(0) == "me" || lower(0) == "here" || strings.HasPrefix(words[0], "#") || strings.HasPrefix(words[0], "<#") {
				return words[n:]
			}
		case 1:
			return words[n:]
		}
	}
	return words
}

// frequencyOf returns how many of the words prev, last name a frequency:
// 1 for "daily" and "weekdays", 2 for "every day", "every weekday", "every
// morning" and "every monday"; 0 for none.
func frequencyOf(prev, last string) int {
	_, day := parseWeekday(last)
	switch {
	case prev == "every" && (day || last == "day" || last == "morning" || last == "weekday" || last == "weekdays"):
		return 2
	case last == "daily" || last == "weekdays":
		return 1
	}
	return 0
}

// frequencyFrom is the frequency a word of frequencyOf names, and the day
// of a weekly one.
func frequencyFrom(last string) (Frequency, time.Weekday) {
	switch last {
	case "daily", "day", "morning":
		return Daily, 0
	case "weekdays", "weekday":
		return Weekdays, 0
	}
	wd, _ := parseWeekday(last)
	return Weekly, wd
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// parseClock reads "9", "09:00", "9:30", "9am", "9:30pm".
func parseClock(s string) (hour, minute int, ok bool) {
	suffix := ""
	if strings.HasSuffix(s, "am") || strings.HasSuffix(s, "pm") {
		s, suffix = s[:len(s)-2], s[len(s)-2:]
	}
	hs, ms, hasMin := strings.Cut(s, ":")
	h, err := strconv.Atoi(hs)
	if err != nil || len(hs) > 2 {
		return 0, 0, false
	}
	m := 0
	if hasMin {
		if m, err = strconv.Atoi(ms); err != nil || len(ms) != 2 {
			return 0, 0, false
		}
	}
	if suffix != "" {
		if h < 1 || h > 12 {
			return 0, 0, false
		}
		h %= 12
		if suffix == "pm" {
			h += 12
		}
	}
	if h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, 0, false
	}
	return h, m, true
}

func parseWeekday(s string) (time.Weekday, bool) {
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := lowerWeekday(d)
		if s == name || s == name[:3] || s == name+"s" {
			return d, true
		}
	}
	return 0, false
}

func lowerWeekday(d time.Weekday) string { return strings.ToLower(d.String()) }
