// Package seeds embeds the ICML 2025 seed abstracts and their metadata sidecar,
// so the bot answers questions with no file beside the binary.
package seeds

import "embed"

// FS holds the seed text files (header line, then one abstract per paragraph)
// and metadata.tsv (file, paragraph, title, authors, url).
//
//go:embed *.txt metadata.tsv
var FS embed.FS
