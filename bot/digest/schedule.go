package digest

import (
	"fmt"
	"sync"
	"time"
	_ "time/tzdata" // schedules name IANA zones; embed them so a bare container resolves them too
)

// Frequency says on which days a Schedule fires. The zero value is Weekdays,
// the default for new subscriptions.
type Frequency int

const (
	Weekdays Frequency = iota // Monday to Friday
	Daily                     // every day
	Weekly                    // once a week, on Schedule.Weekday
)

func (f Frequency) String() string {
	switch f {
	case Daily:
		return "daily"
	case Weekly:
		return "weekly"
	default:
		return "weekdays"
	}
}

// Schedule is when a subscription's digest is posted: at Hour:Minute local
// time in the IANA zone TZ, on the days Every names.
type Schedule struct {
	Hour, Minute int
	TZ           string // IANA name, e.g. "Europe/Berlin"; never "Local"
	Every        Frequency
	Weekday      time.Weekday // used when Every is Weekly
}

// DefaultHour and DefaultMinute are the time of day of a schedule that names none.
const (
	DefaultHour   = 9
	DefaultMinute = 0
)

// Validate reports a friendly error when s cannot be scheduled.
func (s Schedule) Validate() error {
	if s.Hour < 0 || s.Hour > 23 || s.Minute < 0 || s.Minute > 59 {
		return invalidf("%02d:%02d is not a time of day: use HH:MM from 00:00 to 23:59", s.Hour, s.Minute)
	}
	if s.Every < Weekdays || s.Every > Weekly {
		return invalidf("unknown frequency %d", int(s.Every))
	}
	if s.Every == Weekly && (s.Weekday < time.Sunday || s.Weekday > time.Saturday) {
		return invalidf("weekly needs a day, e.g. weekly monday")
	}
	_, err := loadZone(s.TZ)
	return err
}

// zones caches loaded locations: time.LoadLocation parses the zone data on
// every call, and the scheduler asks for the same few zones every tick.
var zones sync.Map // name → *time.Location

// loadZone resolves an IANA zone name with a message users can act on.
func loadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, invalidf("a time zone is needed, e.g. tz Europe/Berlin")
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, invalidf("%q is not a time zone I know: use an IANA name like Europe/Berlin, America/New_York or UTC", name)
	}
	zones.Store(name, loc)
	return loc, nil
}

// Location returns the schedule's zone, UTC when TZ is invalid (Validate
// rejects such schedules before they are stored).
func (s Schedule) Location() *time.Location {
	loc, err := loadZone(s.TZ)
	if err != nil {
		return time.UTC
	}
	return loc
}

// Due reports whether the schedule fires on local date d.
func (s Schedule) Due(d Date) bool {
	switch wd := d.Weekday(); s.Every {
	case Daily:
		return true
	case Weekly:
		return wd == s.Weekday
	default:
		return wd != time.Saturday && wd != time.Sunday
	}
}

// At returns the instant of the run on local date d, whether or not the
// schedule is due that day. Daylight-saving changes resolve to exactly one
// instant per date: a time skipped by a spring-forward change runs at the
// shifted wall time (02:30 becomes 03:30), and a time repeated by a fall-back
// change runs at its first occurrence.
func (s Schedule) At(d Date) time.Time {
	return wallTime(d, s.Hour, s.Minute, s.Location())
}

func wallTime(d Date, hour, minute int, loc *time.Location) time.Time {
	wall := time.Date(d.Year, d.Month, d.Day, hour, minute, 0, 0, time.UTC).Unix()
	// Offsets in force a day either side bracket any transition near wall.
	_, before := time.Unix(wall-86400, 0).In(loc).Zone()
	_, after := time.Unix(wall+86400, 0).In(loc).Zone()
	matches := func(u int64) bool {
		t := time.Unix(u, 0).In(loc)
		return DateOf(t) == d && t.Hour() == hour && t.Minute() == minute
	}
	if u := wall - int64(before); matches(u) { // the earlier instant when the wall time repeats
		return time.Unix(u, 0).In(loc)
	}
	if u := wall - int64(after); matches(u) {
		return time.Unix(u, 0).In(loc)
	}
	// The wall time does not exist (clocks jumped forward over it): reading
	// it with the old offset lands the same distance past the jump.
	return time.Unix(wall-int64(before), 0).In(loc)
}

// Next returns the first scheduled instant strictly after t.
func (s Schedule) Next(t time.Time) time.Time {
	d := DateOf(t.In(s.Location()))
	for i := 0; i < 9; i++ { // a week and a bit covers every frequency
		day := d.AddDays(i)
		if at := s.At(day); s.Due(day) && at.After(t) {
			return at
		}
	}
	return time.Time{} // unreachable for a valid schedule
}

// MaxLookback bounds how far back Between looks for scheduled runs.
const MaxLookback = 31 * 24 * time.Hour

// Occurrence is one scheduled run: the local date it covers and its instant.
type Occurrence struct {
	Day Date
	At  time.Time
}

// Between lists the scheduled runs with from < At <= to, oldest first. It
// looks back at most MaxLookback before to.
func (s Schedule) Between(from, to time.Time) []Occurrence {
	if min := to.Add(-MaxLookback); from.Before(min) {
		from = min
	}
	var out []Occurrence
	loc := s.Location()
	first, last := DateOf(from.In(loc)), DateOf(to.In(loc))
	for d := first; !last.Before(d); d = d.AddDays(1) {
		if !s.Due(d) {
			continue
		}
		if at := s.At(d); at.After(from) && !at.After(to) {
			out = append(out, Occurrence{Day: d, At: at})
		}
	}
	return out
}

// String describes the schedule for people, e.g. "09:00 weekdays, Europe/Berlin".
func (s Schedule) String() string {
	when := s.Every.String()
	if s.Every == Weekly {
		when = "every " + s.Weekday.String()
	}
	return fmt.Sprintf("%02d:%02d %s, %s", s.Hour, s.Minute, when, s.TZ)
}

// Options renders the schedule in the subscribe command's syntax, e.g.
// "at 09:00 tz Europe/Berlin weekly monday"; ParseSubscribe reads it back.
func (s Schedule) Options() string {
	when := s.Every.String()
	if s.Every == Weekly {
		when += " " + lowerWeekday(s.Weekday)
	}
	return fmt.Sprintf("at %02d:%02d tz %s %s", s.Hour, s.Minute, s.TZ, when)
}
