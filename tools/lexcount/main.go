// Command lexcount counts the words and phrases listed by hand in Go source:
// string literals that are keys, values or elements of composite literals
// (map and slice literals), cases of switch statements, operands of == and
// !=, and arguments of wordsAt and strings.EqualFold. It is how issue 46
// measures how much of the query language is still code rather than data
// (search/lexicon/lexicon.tsv).
//
//	go run ./tools/lexcount search/query/*.go search/query_*.go bot/router.go
//
// (Before the parser had its own package: search/query*.go bot/router.go.)
// Test files are skipped. Each kind is printed with its count, then the
// total.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: lexcount FILE.go...")
		os.Exit(2)
	}
	counts := map[string]int{}
	files := 0
	for _, path := range os.Args[1:] {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		if err := count(path, counts); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		files++
	}
	kinds := make([]string, 0, len(counts))
	total := 0
	for k, n := range counts {
		kinds = append(kinds, k)
		if k != mapLiterals {
			total += n
		}
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Printf("%-22s %5d\n", k, counts[k])
	}
	fmt.Printf("%-22s %5d  (%d files; map literals not in the total)\n", "words and phrases", total, files)
}

// mapLiterals counts map literals, not words: shown beside the words.
const mapLiterals = "(map literals)"

// count adds to counts the hand-listed string literals of one file, each
// literal once, under the first kind that claims it.
func count(path string, counts map[string]int) error {
	maps := 0
	defer func() { counts[mapLiterals] += maps }()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	seen := map[*ast.BasicLit]bool{}
	add := func(kind string, e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !seen[lit] && wordy(lit.Value) {
				seen[lit] = true
				counts[kind]++
			}
			// A function literal inside is code, counted on its own.
			_, isFunc := n.(*ast.FuncLit)
			return !isFunc
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if _, isMap := n.Type.(*ast.MapType); isMap {
				maps++
			}
			for _, e := range n.Elts {
				add("composite elements", e)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				add("switch cases", e)
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				add("comparisons", n.X)
				add("comparisons", n.Y)
			}
		case *ast.CallExpr:
			if name := callName(n.Fun); name == "wordsAt" || name == "strings.EqualFold" {
				for _, a := range n.Args {
					add("pattern arguments", a)
				}
			}
		}
		return true
	})
	return nil
}

// wordy reports whether a Go string literal holds a word or phrase: at
// least one letter. Punctuation and format strings are not language data.
func wordy(lit string) bool {
	s := strings.Trim(lit, "\"`")
	if strings.Contains(s, "%") {
		return false
	}
	for _, r := range s {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return true
		}
	}
	return false
}

func callName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}
