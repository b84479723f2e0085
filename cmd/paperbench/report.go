package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// row is one engine's measurements.
type row struct {
	engine string
	build  childResult
	first  []childResult
	query  childResult
}

// writeTable prints the measurements as a Markdown table, one column per
// engine; ranges are over the fresh-process runs.
func writeTable(w io.Writer, n int, rows []row) {
	head := []string{fmt.Sprintf("%d synthetic papers", n)}
	for _, r := range rows {
		head = append(head, r.engine)
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	line := func(name string, cell func(r row) string) {
		cells := []string{name}
		for _, r := range rows {
			cells = append(cells, cell(r))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	line("papers indexed", func(r row) string { return fmt.Sprint(r.build.Papers) })
	line("build (load + index), papers/s", func(r row) string {
		return fmt.Sprintf("%.0f (%.1f s)", float64(r.build.Papers)/r.build.Seconds, r.build.Seconds)
	})
	line("peak build RSS", func(r row) string { return mb(r.build.PeakKB) })
	line("segments after build", func(r row) string { return fmt.Sprint(r.query.Segments) })
	line("fresh process, open to first answer", func(r row) string {
		return spread(r.first, func(c childResult) float64 { return c.Seconds }, "%.2f s")
	})
	line("RSS at first answer", func(r row) string {
		return spread(r.first, func(c childResult) float64 { return float64(c.RSSKB) / 1024 }, "%.0f MB")
	})
	line("query p50 / p99 (10 results, snippets)", func(r row) string {
		return fmt.Sprintf("%.1f / %.1f ms", r.query.P50ms, r.query.P99ms)
	})
	line("serving RSS after queries", func(r row) string { return mb(r.query.RSSKB) })
	line("serving RSS per paper", func(r row) string {
		return fmt.Sprintf("%.2f KB", float64(r.query.RSSKB)/float64(max(r.query.Papers, 1)))
	})
}

func mb(kb int) string { return fmt.Sprintf("%.0f MB", float64(kb)/1024) }

// spread formats the range of f over rs.
func spread(rs []childResult, f func(childResult) float64, format string) string {
	vs := make([]float64, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	lo, hi := slices.Min(vs), slices.Max(vs)
	if fmt.Sprintf(format, lo) == fmt.Sprintf(format, hi) {
		return fmt.Sprintf(format, lo)
	}
	return fmt.Sprintf(format+"–"+format, lo, hi)
}
