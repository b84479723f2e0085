package corpus

import (
	"bytes"
	"path"
	"strings"
)

type fileFormat int

const (
	formatUnknown fileFormat = iota
	formatJSONArray
	formatJSONObject
	formatJSONLines
	formatTSV
	formatCSV
	formatText
)

// detectFormat recognises a corpus file by its first non-blank character and
// first line, using the extension only to tell text apart from other prose
// (a README.md is not a corpus).
func detectFormat(name string, data []byte) fileFormat {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(name, `\`, "/")))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	firstLine, _, _ := strings.Cut(string(data[:min(len(data), 1<<16)]), "\n")
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		return formatJSONArray
	case len(trimmed) > 0 && trimmed[0] == '{':
		if looksLikeJSONLines(trimmed) {
			return formatJSONLines
		}
		return formatJSONObject
	case ext == ".json" || ext == ".jsonl" || ext == ".ndjson":
		return formatUnknown
	case strings.Contains(firstLine, "\t"):
		return formatTSV
	case ext == ".csv" && strings.Contains(firstLine, ","):
		return formatCSV
	case ext == ".txt" || ext == ".text" || ext == "":
		return formatText
	}
	return formatUnknown
}

// looksLikeJSONLines reports whether data holds one JSON object per line:
// at least two of its first ten non-blank lines start with '{' in the first
// column. One object, even on one line, or pretty-printed, is not JSON
// Lines (its nested objects are indented).
func looksLikeJSONLines(data []byte) bool {
	objects, lines := 0, 0
	for line := range bytes.Lines(data) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if line[0] == '{' {
			objects++
		}
		if lines++; lines == 10 {
			break
		}
	}
	return objects >= 2
}
