package corpus

import (
	"crypto/sha256"
	"runtime"
	"sync"
)

// cleanAll turns raw records into display-ready papers, in order, and
// returns the digest of each one's identity key (see idKey): a digest, not
// the key, so a large load does not hold every abstract twice. Each raw
// record is released once cleaned. Cleaning is the bulk of loading, so it
// runs on all CPUs.
func cleanAll(raws []rawPaper) ([]Paper, []idDigest) {
	papers := make([]Paper, len(raws))
	keys := make([]idDigest, len(raws))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(raws)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(raws); i += workers {
				papers[i] = cleanPaper(raws[i])
				keys[i] = sha256.Sum256([]byte(idKey(raws[i])))
				raws[i] = rawPaper{}
			}
		})
	}
	wg.Wait()
	return papers, keys
}

// cleanPaper cleans one record: markup out of title and abstract, links
// collected, names tidied, headline derived.
func cleanPaper(r rawPaper) Paper {
	abstract, links := CleanText(r.abstract)
	title, titleLinks := CleanText(r.title)
	p := Paper{
		Title:    title,
		Authors:  cleanList(r.authors),
		Venue:    r.venue,
		Year:     r.year,
		URL:      absoluteURL(r.url),
		Abstract: abstract,
		Keywords: cleanKeywords(r.keywords),
		Source:   r.src,
	}
	p.CodeURLs = mergeLinks(links, titleLinks, r.links)
	p.Headline = Headline(p.Title, p.Abstract)
	return p
}

func cleanKeywords(kws []string) []string {
	out := make([]string, 0, len(kws))
	for _, k := range kws {
		if t, _ := CleanText(k); t != "" {
			out = append(out, t)
		}
	}
	return cleanList(out)
}

// mergeLinks concatenates link lists, dropping repeats (see urlKey) and
// giving each link a scheme.
func mergeLinks(lists ...[]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, list := range lists {
		for _, u := range list {
			if u = absoluteURL(u); u == "" {
				continue
			}
			if k := urlKey(u); !seen[k] {
				seen[k] = true
				out = append(out, u)
			}
		}
	}
	return out
}
