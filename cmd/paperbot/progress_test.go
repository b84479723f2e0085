package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressBarShowsRateAndTimeLeft(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var out bytes.Buffer
	bar := newProgressBar(&out, clock)
	bar.update(0, 10000)
	if out.Len() != 0 {
		t.Fatalf("drawn before the delay: %q", out.String())
	}
	now = now.Add(2 * time.Second)
	bar.update(4000, 10000) // 2,000 papers/s: 6,000 left take 3 s
	bar.finish()
	got := out.String()
	for _, want := range []string{"40% 4000/10000 papers", "2000 papers/s", "3s left"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress line %q lacks %q", got, want)
		}
	}
}

func TestReadingBarCountsMegabytes(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var out bytes.Buffer
	bar := newReadingBar(&out, clock)
	now = now.Add(4 * time.Second)
	bar.updateBytes(400<<20, 1000<<20) // 100 MB/s: 600 MB left take 6 s
	bar.finish()
	got := out.String()
	for _, want := range []string{"reading corpus", "40% 400/1000 MB", "100 MB/s", "6s left"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress line %q lacks %q", got, want)
		}
	}
}
