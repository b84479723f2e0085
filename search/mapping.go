package search

import (
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/paperbot/paperbot/search/corpus"
	"github.com/paperbot/paperbot/search/query"
)

// Field names in the index.
const (
	fieldID    = "id"
	fieldTitle = query.FieldTitle
	// fieldBody is the title twice and the abstract, the one field free text
	// is scored on (a title word counts twice, as in BM25 runs that
	// repeat the title; one field keeps document lengths comparable).
	fieldBody = "body"
	// fieldGrams is the body's words as character 3-grams, hyphens dropped
	// ("IL-6" and "IL6" share "il6"; "interleukin" shares grams with
	// "interleukins"): a second BM25 run that finds word forms, chemical
	// names and compounds the word run misses.
	fieldGrams   = "grams"
	fieldAuthors = query.FieldAuthors
	fieldVenue   = query.FieldVenue
	fieldYear    = query.FieldYear
	fieldHasCode = query.FieldHasCode
	// fieldCategories holds arXiv categories as keywords ("cs.CL").
	fieldCategories = query.FieldCategories
	// fieldLink is the paper's own link as a keyword (corpus.PaperLinkKey),
	// so that a pasted link finds the paper it points to.
	fieldLink = "link"
	// fieldAnnounced and fieldFirstSeen are dates (Paper.Announced,
	// Paper.FirstSeen), left out when unknown.
	fieldAnnounced = "announced"
	fieldFirstSeen = "first_seen"
	// fieldRecord is the paper itself, stored and not indexed (see
	// index_record.go): the index directory holds everything needed to
	// answer, and no process keeps the corpus in memory.
	fieldRecord = "record"
)

// Analyzer names, defined inside the mapping (not in bleve's global registry).
const (
	// analyzerText is English: possessives, lower case, stop words, Porter
	// stemming. No character filters: token offsets must point into the
	// original text, for snippets and answers.
	analyzerText = "paper_text"
	// analyzerName is for names and venues: ASCII-folded (Šípka finds Sipka),
	// lower-cased words, no stemming.
	analyzerName = "paper_name"
	// analyzerGrams is lower-cased character 3-grams of words joined across
	// hyphens.
	analyzerGrams   = "paper_grams"
	charJoinHyphens = "join_hyphens"
	filterTrigrams  = "trigrams"
)

// mappingVersion is part of the on-disk index name: change it whenever the
// mapping or the document layout changes, so old indexes are rebuilt.
const mappingVersion = "m24"

// newMapping returns the one index mapping of paperbot: BM25 scoring; title and
// abstract analysed as English with stemming (title is weighted above abstract
// at query time, see query_bleve.go); authors and venue as plain words; year
// numeric; has_code boolean; id, categories and link as keywords; announced and
// first_seen as dates. Only the paper record is stored (fieldRecord);
// snippets and answers are computed from it.
// Term vectors are kept on text fields for phrase queries.
func newMapping() (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.DefaultAnalyzer = analyzerText
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false

	err := im.AddCustomAnalyzer(analyzerText, map[string]any{
		"type":          custom.Name,
		"tokenizer":     tokenizerText,
		"token_filters": []any{en.PossessiveName, lowercase.Name, en.StopName, filterFold, filterNorms, filterStems, porter.Name},
	})
	if err != nil {
		return nil, fmt.Errorf("text analyzer: %w", err)
	}
	err = im.AddCustomAnalyzer(analyzerName, map[string]any{
		"type":          custom.Name,
		"char_filters":  []any{asciifolding.Name},
		"tokenizer":     unicode.Name,
		"token_filters": []any{lowercase.Name},
	})
	if err != nil {
		return nil, fmt.Errorf("name analyzer: %w", err)
	}

	text := func(analyzer string) *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = false
		f.DocValues = false
		f.IncludeInAll = false
		f.IncludeTermVectors = true
		return f
	}
	id := mapping.NewKeywordFieldMapping()
	id.Analyzer = keyword.Name
	id.Store, id.DocValues, id.IncludeInAll, id.IncludeTermVectors = false, false, false, false
	year := mapping.NewNumericFieldMapping()
	year.Store, year.DocValues, year.IncludeInAll = false, false, false
	hasCode := mapping.NewBooleanFieldMapping()
	hasCode.Store, hasCode.DocValues, hasCode.IncludeInAll = false, false, false
	cats := mapping.NewKeywordFieldMapping()
	cats.Store, cats.DocValues, cats.IncludeInAll, cats.IncludeTermVectors = false, false, false, false
	date := func() *mapping.FieldMapping {
		f := mapping.NewDateTimeFieldMapping()
		f.Store, f.DocValues, f.IncludeInAll = false, false, false
		return f
	}
	rec := mapping.NewKeywordFieldMapping()
	rec.Index, rec.Store, rec.DocValues, rec.IncludeInAll, rec.IncludeTermVectors = false, true, false, false, false

	doc := mapping.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldID, id)
	doc.AddFieldMappingsAt(fieldTitle, text(analyzerText))
	doc.AddFieldMappingsAt(fieldBody, text(analyzerText))
	doc.AddFieldMappingsAt(fieldAuthors, text(analyzerName))
	doc.AddFieldMappingsAt(fieldVenue, text(analyzerName))
	doc.AddFieldMappingsAt(fieldYear, year)
	doc.AddFieldMappingsAt(fieldHasCode, hasCode)
	doc.AddFieldMappingsAt(fieldCategories, cats)
	doc.AddFieldMappingsAt(fieldLink, id)
	doc.AddFieldMappingsAt(fieldAnnounced, date())
	doc.AddFieldMappingsAt(fieldFirstSeen, date())
	doc.AddFieldMappingsAt(fieldRecord, rec)
	im.DefaultMapping = doc
	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("index mapping: %w", err)
	}
	return im, nil
}

// paperDoc is what the index holds for p, rec its encoded record (see
// encodeRecord). Unknown values (year 0, zero dates) are left out so
// filters never match them.
func paperDoc(p *Paper, rec []byte) map[string]any {
	d := map[string]any{
		fieldID:      p.ID,
		fieldTitle:   p.Title,
		fieldAuthors: p.Authors,
		fieldVenue:   p.Venue,
		fieldHasCode: p.HasCode(),
	}
	if p.Title == "" {
		// Untitled papers are found by their headline instead.
		d[fieldTitle] = p.Headline
	}
	d[fieldBody] = bodyText(p)
	if p.Year != 0 {
		d[fieldYear] = float64(p.Year)
	}
	if len(p.Categories) > 0 {
		d[fieldCategories] = p.Categories
	}
	if key, ok := corpus.PaperLinkKey(p.URL); ok {
		d[fieldLink] = key
	}
	if !p.Announced.IsZero() {
		d[fieldAnnounced] = p.Announced
	}
	if !p.FirstSeen.IsZero() {
		d[fieldFirstSeen] = p.FirstSeen
	}
	d[fieldRecord] = string(rec)
	return d
}

// indexedFields lists the fields im indexes, sorted (those bleve may score).
func indexedFields(im mapping.IndexMapping) []string {
	impl, ok := im.(*mapping.IndexMappingImpl)
	if !ok || impl.DefaultMapping == nil {
		return nil
	}
	var out []string
	for name, dm := range impl.DefaultMapping.Properties {
		if slices.ContainsFunc(dm.Fields, func(f *mapping.FieldMapping) bool { return f.Index }) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// analyzers are the mapping's analyzers, resolved once: query and document
// analysis at search time must match what the index did.
type analyzers struct {
	text, name analysis.Analyzer
}

func newAnalyzers(im mapping.IndexMapping) (analyzers, error) {
	a := analyzers{text: im.AnalyzerNamed(analyzerText), name: im.AnalyzerNamed(analyzerName)}
	if a.text == nil || a.name == nil {
		return a, fmt.Errorf("index mapping lacks the %s and %s analyzers", analyzerText, analyzerName)
	}
	return a, nil
}

// bodyText is what fieldBody indexes for p: the title twice, the abstract,
// then the identifiers of both joined (compound.go), each part bodyGap
// apart.
func bodyText(p *Paper) string {
	t := titleText(p)
	ids := joinedIdentifiers(t)
	return t + bodyGap + t + bodyGap + p.Abstract + bodyGap + ids + ids + joinedIdentifiers(p.Abstract)
}

// bodyGap parts the body's parts by stop words, which the analyzer drops
// but counts as positions: the last word of the title and the first of
// its second copy ("... model" "Collapse of ...") are not next to each
// other for a phrase or a pair (vocab.pairDF).
const bodyGap = "\n the the \n"
