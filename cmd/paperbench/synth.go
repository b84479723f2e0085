package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/seeds"
)

// pools are the real material synthetic papers are drawn from: abstract
// sentences, titles, author names and venues of the real corpora and the
// embedded seeds, in load order (which is deterministic).
type pools struct {
	sentences, titles, authors, venues []string
}

// loadPools reads the embedded seeds and, when they exist, the real corpora
// matching patterns; missing corpora leave the seeds alone, so the
// generator still works in CI.
func loadPools(patterns []string) (*pools, error) {
	var corpora []*search.Corpus
	c, err := search.LoadFS(seeds.FS, "*.txt")
	if err != nil {
		return nil, err
	}
	corpora = append(corpora, c)
	var found []string
	for _, p := range patterns {
		if m, _ := filepath.Glob(p); len(m) > 0 {
			found = append(found, p)
		}
	}
	if len(found) > 0 {
		c, err := search.LoadFiles(found)
		if err != nil {
			return nil, err
		}
		corpora = append(corpora, c)
	}
	p := &pools{}
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		if s = strings.TrimSpace(s); s != "" && !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	for _, c := range corpora {
		for _, pp := range c.Papers {
			for _, s := range splitSentences(pp.Abstract) {
				if len(strings.Fields(s)) >= 5 {
					add(&p.sentences, s)
				}
			}
			add(&p.titles, pp.Title)
			add(&p.venues, pp.Venue)
			for _, a := range pp.Authors {
				add(&p.authors, a)
			}
		}
	}
	if len(p.titles) == 0 || len(p.authors) == 0 || len(p.venues) == 0 || len(p.sentences) < 100 {
		return nil, fmt.Errorf("too little real text to draw synthetic papers from")
	}
	return p, nil
}

// splitSentences splits at ". ", "? " and "! " followed by a capital or
// digit: rough, but the pieces are real sentences.
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(text); i++ {
		c := text[i]
		if (c == '.' || c == '?' || c == '!') && text[i+1] == ' ' {
			n := text[i+2]
			if n >= 'A' && n <= 'Z' || n >= '0' && n <= '9' {
				out = append(out, text[start:i+1])
				start = i + 2
			}
		}
	}
	return append(out, text[start:])
}

// synthPaper is one JSON Lines record, in field names paperbot's loader reads.
type synthPaper struct {
	Title    string `json:"title"`
	Abstract string `json:"abstract"`
	Authors  string `json:"author"`
	Venue    string `json:"venue"`
	Year     int    `json:"year"`
	URL      string `json:"url"`
}

// paper returns synthetic paper k: it depends only on k and the pools.
// Its title is a real title plus a word spelled from k, so titles are unique;
// its abstract is 4 to 9 real sentences drawn at random.
func (p *pools) paper(k int) synthPaper {
	r := rand.New(rand.NewPCG(uint64(k), 0x9e3779b97f4a7c15))
	var abs strings.Builder
	for i := range 4 + r.IntN(6) {
		if i > 0 {
			abs.WriteByte(' ')
		}
		abs.WriteString(p.sentences[r.IntN(len(p.sentences))])
	}
	authors := make([]string, 1+r.IntN(6))
	for i := range authors {
		authors[i] = p.authors[r.IntN(len(p.authors))]
	}
	return synthPaper{
		Title:    p.titles[r.IntN(len(p.titles))] + ": " + codeWord(k),
		Abstract: abs.String(),
		Authors:  strings.Join(authors, "; "),
		Venue:    p.venues[r.IntN(len(p.venues))],
		Year:     2015 + r.IntN(11),
		URL:      fmt.Sprintf("https://example.org/synthetic/%d", k),
	}
}

// codeWord spells k as pronounceable syllables ("bamo", "kezi"), one-to-one.
func codeWord(k int) string {
	const cons, vows = "bdfgklmnprstvz", "aeiou"
	var b []byte
	for {
		b = append(b, cons[k%len(cons)], vows[(k/len(cons))%len(vows)])
		k /= len(cons) * len(vows)
		if k == 0 {
			break
		}
		k--
	}
	return string(b)
}

// writeCorpus writes papers [0, n) to path as JSON Lines, through a temp
// file so an interrupted run leaves no half corpus behind.
func writeCorpus(path string, n int, p *pools) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	for k := range n {
		if err = enc.Encode(p.paper(k)); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
