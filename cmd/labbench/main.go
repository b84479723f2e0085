// Command labbench writes the lab-queries benchmark in BEIR's layout, for
// paperbot eval: questions as a lab types them in Slack, judged over the
// corpora's papers by people who had not read the ranking code
// (search/testdata/labqueries), or, with -queries, the seed queries judged
// over the 57 seed abstracts (search/testdata/seedqueries).
//
//	go run ./cmd/labbench -out DIR ../shared/corpora/*/*
//	go run ./cmd/labbench -queries search/testdata/seedqueries -out DIR seeds/*.txt
//	go run ./cmd/paperbot eval DIR --split test --off-domain-queries DIR/absent/test.txt
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/paperbot/paperbot/search/eval"
)

func main() {
	out := flag.String("out", "", "directory to write the benchmark into")
	queries := flag.String("queries", "search/testdata/labqueries", "directory of the judged query files train.json and test.json")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: labbench -out DIR [-queries DIR] CORPUS_FILE...")
		os.Exit(2)
	}
	if err := eval.WriteLabQueriesBEIR(flag.Args(), *queries, *out); err != nil {
		fmt.Fprintln(os.Stderr, "labbench:", err)
		os.Exit(1)
	}
}
