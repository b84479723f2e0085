package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paperbot/paperbot/search"
)

type synthPapers struct {
	p *pools
	n int
}

func (s synthPapers) Len() int { return s.n }
func (s synthPapers) Report() search.LoadReport {
	return search.LoadReport{Papers: s.n}
}
func (s synthPapers) Each(fn func(p *search.Paper) error) error {
	for k := range s.n {
		sp := s.p.paper(k)
		abs, links := search.CleanText(sp.Abstract)
		p := search.Paper{ID: fmt.Sprintf("%08s", strconv.FormatInt(int64(k), 36)), Title: sp.Title, Headline: sp.Title,
			Authors: strings.Split(sp.Authors, "; "), Venue: sp.Venue, Year: sp.Year, URL: sp.URL, Abstract: abs, CodeURLs: append([]string{}, links...)}
		if err := fn(&p); err != nil {
			return err
		}
	}
	return nil
}

func TestExpStream(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("EXP_N"))
	if n == 0 {
		t.Skip()
	}
	p, err := loadPools([]string{"../../../shared/corpora/*/*"})
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("EXP_DIR")
	os.RemoveAll(dir)
	profiled := false
	start := time.Now()
	last := time.Now()
	stop := make(chan bool)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Second):
				fmt.Printf("  t=%.0fs rss %d MB (max %d)\n", time.Since(start).Seconds(), currentRSSKB()/1024, maxrss())
			}
		}
	}()
	defer close(stop)
	ix, err := search.Open(context.Background(), synthPapers{p, n}, search.Options{Dir: dir, Progress: func(done, total int) {
		if done >= total/2 && !profiled && os.Getenv("EXP_HEAP") != "" {
			profiled = true
			f, _ := os.Create(os.Getenv("EXP_HEAP"))
			pprof.WriteHeapProfile(f)
			f.Close()
		}
		if time.Since(last) > 10*time.Second {
			last = time.Now()
			fmt.Printf("%d/%d %.0f/s rss %d MB\n", done, total, float64(done)/time.Since(start).Seconds(), maxrss())
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("built %d in %.1fs (%.0f/s), maxrss %d MB, segments %d\n", n, time.Since(start).Seconds(), float64(n)/time.Since(start).Seconds(), maxrss(), ix.Segments())
	ix.Close()
}

func maxrss() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss / 1024
}

func TestExpLatency(t *testing.T) {
	dir := os.Getenv("EXP_DIR")
	if os.Getenv("EXP_LAT") == "" {
		t.Skip()
	}
	ix, err := search.OpenDir(context.Background(), search.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	p50, p99, err := latency(context.Background(), &paperbotEngine{ix}, 400)
	fmt.Printf("segments %d p50 %.1f p99 %.1f err %v\n", ix.Segments(), p50, p99, err)
}
