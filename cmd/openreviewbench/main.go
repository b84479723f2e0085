// Command openreviewbench writes the two benchmarks of an OpenReview scrape
// with author keywords and TL;DRs in BEIR's layout, for paperbot eval:
//
//	go run ./cmd/openreviewbench -out DIR ../shared/corpora/dotd-NeurIPS2024Scrape/ICLR_cc_2024_Conference.csv
//	go run ./cmd/paperbot eval DIR/keywords --split train
//
// See eval.WriteOpenReviewBEIR for what they hold.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/paperbot/paperbot/search/eval"
)

func main() {
	out := flag.String("out", "", "directory to write the keywords/ and tldr/ benchmarks into")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: openreviewbench -out DIR FILE.csv")
		os.Exit(2)
	}
	if err := eval.WriteOpenReviewBEIR(flag.Arg(0), *out); err != nil {
		fmt.Fprintln(os.Stderr, "openreviewbench:", err)
		os.Exit(1)
	}
}
