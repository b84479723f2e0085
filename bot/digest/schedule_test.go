package digest_test

import (
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func date(y int, m time.Month, d int) digest.Date { return digest.Date{Year: y, Month: m, Day: d} }

func TestScheduleAtDST(t *testing.T) {
	for _, c := range []struct {
		name      string
		tz        string
		day       digest.Date
		hour, min int
		want      string // RFC 3339 in the zone
	}{
		{"New York ordinary day", "America/New_York", date(2025, 3, 7), 9, 0, "2025-03-07T09:00:00-05:00"},
		{"New York spring forward, 09:00 in new offset", "America/New_York", date(2025, 3, 9), 9, 0, "2025-03-09T09:00:00-04:00"},
		{"New York spring forward, 02:30 does not exist: shifted to 03:30", "America/New_York", date(2025, 3, 9), 2, 30, "2025-03-09T03:30:00-04:00"},
		{"New York fall back, 01:30 happens twice: the first", "America/New_York", date(2025, 11, 2), 1, 30, "2025-11-02T01:30:00-04:00"},
		{"New York fall back, 09:00 in new offset", "America/New_York", date(2025, 11, 2), 9, 0, "2025-11-02T09:00:00-05:00"},
		{"Berlin spring forward, 02:30 shifted to 03:30", "Europe/Berlin", date(2025, 3, 30), 2, 30, "2025-03-30T03:30:00+02:00"},
		{"Berlin fall back, 02:30 happens twice: the first", "Europe/Berlin", date(2025, 10, 26), 2, 30, "2025-10-26T02:30:00+02:00"},
		{"Berlin after fall back", "Europe/Berlin", date(2025, 10, 27), 2, 30, "2025-10-27T02:30:00+01:00"},
		{"midnight", "Asia/Tokyo", date(2025, 1, 1), 0, 0, "2025-01-01T00:00:00+09:00"},
		{"Kathmandu quarter-hour offset", "Asia/Kathmandu", date(2025, 6, 2), 7, 45, "2025-06-02T07:45:00+05:45"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := digest.Schedule{Hour: c.hour, Minute: c.min, TZ: c.tz, Every: digest.Daily}
			if got := s.At(c.day).Format(time.RFC3339); got != c.want {
				t.Fatalf("At(%s) = %s, want %s", c.day, got, c.want)
			}
		})
	}
}

func TestScheduleNext(t *testing.T) {
	ny := "America/New_York"
	for _, c := range []struct {
		name  string
		s     digest.Schedule
		after string // RFC 3339
		want  string
	}{
		{"weekdays: Friday evening goes to Monday", digest.Schedule{Hour: 9, TZ: ny}, "2025-03-07T18:00:00-05:00", "2025-03-10T09:00:00-04:00"},
		{"weekdays: before today's time", digest.Schedule{Hour: 9, TZ: ny}, "2025-03-11T08:59:00-04:00", "2025-03-11T09:00:00-04:00"},
		{"strictly after: at the time gives the next day", digest.Schedule{Hour: 9, TZ: ny}, "2025-03-11T09:00:00-04:00", "2025-03-12T09:00:00-04:00"},
		{"daily includes weekends", digest.Schedule{Hour: 9, TZ: ny, Every: digest.Daily}, "2025-03-07T18:00:00-05:00", "2025-03-08T09:00:00-05:00"},
		{"weekly Wednesday", digest.Schedule{Hour: 7, Minute: 15, TZ: "Europe/Berlin", Every: digest.Weekly, Weekday: time.Wednesday}, "2025-03-12T07:15:00+01:00", "2025-03-19T07:15:00+01:00"},
		{"zone far from UTC: the local date counts", digest.Schedule{Hour: 8, TZ: "Pacific/Auckland"}, "2025-03-07T20:00:00Z", "2025-03-10T08:00:00+13:00"},
		{"spring-forward gap time", digest.Schedule{Hour: 2, Minute: 30, TZ: ny, Every: digest.Daily}, "2025-03-08T03:00:00-05:00", "2025-03-09T03:30:00-04:00"},
		{"fall-back repeated time runs once", digest.Schedule{Hour: 1, Minute: 30, TZ: ny, Every: digest.Daily}, "2025-11-02T01:30:00-04:00", "2025-11-03T01:30:00-05:00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			after, _ := time.Parse(time.RFC3339, c.after)
			want, _ := time.Parse(time.RFC3339, c.want)
			if got := c.s.Next(after); !got.Equal(want) {
				t.Fatalf("Next(%s) = %s, want %s", c.after, got.Format(time.RFC3339), c.want)
			}
		})
	}
}

func TestScheduleBetweenCoversEachDayOnce(t *testing.T) {
	// A year of a 01:30 New York daily schedule (a time repeated every
	// November) and a 02:30 one (skipped every March): one run per day.
	for _, hm := range [][2]int{{1, 30}, {2, 30}} {
		s := digest.Schedule{Hour: hm[0], Minute: hm[1], TZ: "America/New_York", Every: digest.Daily}
		from := time.Date(2025, 1, 1, 0, 0, 0, 0, zone(t, s.TZ))
		var n int
		seen := map[digest.Date]bool{}
		for at := from; at.Before(from.AddDate(1, 0, 0)); at = at.Add(7 * 24 * time.Hour) {
			for _, o := range s.Between(at, at.Add(7*24*time.Hour)) {
				if seen[o.Day] {
					t.Fatalf("%02d:%02d: day %s twice", hm[0], hm[1], o.Day)
				}
				seen[o.Day] = true
				n++
			}
		}
		if n < 365 {
			t.Fatalf("%02d:%02d: %d runs in a year, want 365+", hm[0], hm[1], n)
		}
	}
}

func TestScheduleDue(t *testing.T) {
	mon, sat := date(2025, 3, 10), date(2025, 3, 15)
	for _, c := range []struct {
		name     string
		s        digest.Schedule
		mon, sat bool
	}{
		{"weekdays", digest.Schedule{Every: digest.Weekdays}, true, false},
		{"daily", digest.Schedule{Every: digest.Daily}, true, true},
		{"weekly saturday", digest.Schedule{Every: digest.Weekly, Weekday: time.Saturday}, false, true},
	} {
		if c.s.Due(mon) != c.mon || c.s.Due(sat) != c.sat {
			t.Errorf("%s: Due(Mon)=%v Due(Sat)=%v", c.name, c.s.Due(mon), c.s.Due(sat))
		}
	}
}

func TestScheduleStringAndOptionsRoundTrip(t *testing.T) {
	s := digest.Schedule{Hour: 7, Minute: 5, TZ: "Europe/Berlin", Every: digest.Weekly, Weekday: time.Monday}
	if got, want := s.String(), "07:05 every Monday, Europe/Berlin"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	topic, back, err := digest.ParseSubscribe("robots " + s.Options())
	if err != nil || topic != "robots" || back != s {
		t.Fatalf("ParseSubscribe(Options()) = %q %+v %v, want %+v", topic, back, err, s)
	}
}

func TestDate(t *testing.T) {
	d, err := digest.ParseDate("2024-02-28")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.AddDays(1).String(); got != "2024-02-29" {
		t.Errorf("leap day: %s", got)
	}
	if got := d.AddDays(2).Pretty(); got != "Fri 1 Mar 2024" {
		t.Errorf("Pretty = %q", got)
	}
	if _, err := digest.ParseDate("2024-13-01"); err == nil {
		t.Error("month 13 accepted")
	}
	k := digest.RunKey{SubscriptionID: "sabcde", Day: d}
	back, err := digest.ParseRunKey(k.String())
	if err != nil || back != k {
		t.Errorf("ParseRunKey(%q) = %v, %v", k, back, err)
	}
	for _, bad := range []string{"", "sabcde", "x/2024-01-01", "sabcde/yesterday"} {
		if _, err := digest.ParseRunKey(bad); err == nil {
			t.Errorf("ParseRunKey(%q) accepted", bad)
		}
	}
}
