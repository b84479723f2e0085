package search

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
)

// fillerWords are common English and academic words that say nothing about
// a paper's topic. Beyond bleve's stop words, they keep "more like this" from
// choosing "following" or "carefully" as distinctive, which idf alone does on
// a small corpus.
const fillerWords = `
able about above according achieve achieved achieves achieving across actually additional
additionally address addressed addresses addressing advantage after again against all allow allowed
allowing allows almost along already also alternative although always among amount an another any
approach approaches appropriate approximately are area areas around aspect aspects available based
basic be because become becomes been before begin being believe below benefit benefits best better
between beyond both bring broad but by called can capable case cases certain challenge challenges
challenging chosen clear clearly common commonly compared comparison completely comprehensive
consider considered considering consistent consistently construct contrast contribute contribution
contributions core could critical crucial current currently demonstrate demonstrated demonstrates
demonstrating depend describe described despite detailed different difficult directly does done due
during each easily easy effective effectively either else enable enabled enables enabling enhance
enhanced enhancing enough ensure entire especially essential establish even evaluate evaluated every
evidence example examples exhibit exist existing explore extend extensive extensively fact far few
finally find finding findings focus focused following found from full fully fundamental further
furthermore give given gives go good great greater handle having help however identify impact
important improve improved improvement improvements improves improving include includes including
increase increased increasing increasingly indeed inherent insight insights instead introduce
introduced introduces introducing investigate involves issue issues its itself just key known last
latter lead leading leads least less leverage leverages leveraging like likely limitation
limitations little made main mainly maintain major make makes making manage manages many may means
might moreover most mostly much must namely nature nearly necessary need needed needs new novel now
numerous observe observed obtain obtained offer offers often only original other others otherwise
our out outperform outperforms over overall own paper particular particularly perform performance
performed performs perspective play plays possible potential potentially practical prior propose
proposed proposes provide provided provides providing purpose rather recent recently reduce reduced
reduces regarding related relatively remain remains remarkable require required requires research
respect respectively result resulting results reveal reveals same scenario scenarios see seek seen
selected several shared show showed shown shows significant significantly similar similarly simple
simply since so some specific specifically still strong study studies subject substantial
substantially successful successfully such suggest superior support than that the their them then
there thereby therefore these they thing this those though through thus together toward towards
tradeoff typically under understand understanding unlike up upon use used useful uses using usually
various versus very via way ways well what when where whether which while whole wide widely will
with within without work works would yet yield yields
`

// fillerAcademic are the generic words of abstracts.
const fillerAcademic = `
carefully end free higher modern part real analysis empirical empirically evaluation experiment experimental experiments method methods problem
problems solution solutions strategy strategies task tasks technique techniques framework frameworks
`

// fillerStems returns the stems of fillerWords under analyzer a.
func fillerStems(a analysis.Analyzer) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(fillerWords + fillerAcademic) {
		for _, t := range a.Analyze([]byte(w)) {
			out[string(t.Term)] = true
		}
	}
	return out
}
