package search

import "strings"

// Phrase lists for the cue features, matched on lower-cased text.
var (
	findingCuePhrases = []string{"we show", "we find", "we found", "we demonstrate", "we observe", "we prove",
		"we identif", "we reveal", "significantly", "outperform", "achiev", "leads to", "lead to", "resulted in",
		"conclude", "demonstrat", "reveal"}
	statPhrases = []string{" p <", " p<", " p =", " p=", "(p <", "(p<", "(p =", "(p=", "p value", "95%", " ci ",
		"ci,", "odds ratio", "hazard ratio", "relative risk", "risk ratio"}
	changePhrases = []string{"associated with", "correlat", "increase", "decrease", "reduc", "improv", "higher",
		"lower", "inhibit", "induce", "enhanc", "impair", "prevent", "promot", "elevat", "suppress", "attenuat",
		"activat", "requir", "depend"}
	hedgePhrases    = []string{"suggest", "indicat", " may ", " might ", "likely", " could ", "support"}
	negationPhrases = []string{" not ", " no ", "neither", " nor ", "n't"}
	unknownPhrases  = []string{"unclear", "unknown", "not known", "poorly understood", "not well understood",
		"little is known", "remains to be", "remain to be", "remains elusive", "remain elusive", "controversial", "has not been", "have not been",
		"remains limited", "remain limited", "currently lack"}
	procedurePhrases = []string{"we generated", "we used", "we performed", "we examined", "we analyzed", "we analysed",
		"we measured", "we conducted", "we compared", "we recruited", "we studied", "we tested", "we assessed",
		"we investigated", "we addressed", "we evaluated", "we screened", "we sequenced", "we constructed",
		"we created", "we engineered", "we obtained", "we collected", "we designed", "we applied", "we carried out",
		"we enrolled", "we surveyed", "we treated", "we exposed", "we followed", "we then", "to test this",
		"to address this", "to investigate this", "to examine this", "to explore this", "were recruited",
		"were randomly", "were randomised", "were randomized", "were enrolled", "were collected", "were obtained",
		"were measured", "was measured", "was assessed", "were assessed", "was performed", "were performed",
		"were analysed", "were analyzed", "were followed", "were interviewed", "were included", "were treated"}
	pointerPhrases = []string{"http://", "https://", "www.", "github.com", "gitlab.com", "huggingface.co",
		"code is available", "code are available", "code is publicly available", "code and data are",
		"code and models are", "code will be", "code is released", "our code", "source code", "project page",
		"project website", "available at", "available online at", "can be downloaded", "is freely available"}
	settingPhrases = []string{"widely adopted", "widely used", "has become", "have become", "has attracted",
		"have attracted", "has received", "have received", "has gained", "have gained", "in recent years",
		"recent years have", "recent advances", "recent progress", "recent work", "recent studies", "is a popular",
		"are a popular", "has emerged", "have emerged", "is a fundamental", "is a central", "remains a challenge",
		"remains challenging", "is a challenging", "is a promising", "are a promising", "has been widely",
		"have been widely", "a common approach", "a popular approach", "a standard approach", "the standard approach",
		"common practice", "standard practice", "prior work has", "previous work has", "prior works have",
		"previous works have", "previous studies have", "prior studies have", "existing approaches, however",
		"existing methods, however", "existing works, however", "has shown promise", "have shown promise",
		"has shown remarkable", "have shown remarkable", "have demonstrated remarkable", "has demonstrated remarkable",
		"have achieved remarkable", "has achieved remarkable", "remarkable success", "impressive success",
		"is a critical challenge", "a key challenge", "a major challenge", "a significant challenge",
		"a fundamental challenge", "a long-standing", "longstanding challenge", "emerges as a", "typically rely",
		"typically relies", "typically require", "typically requires", "typically involve", "typically involves",
		"often rely", "usually rely", "has made remarkable", "have made remarkable", "has made significant",
		"have made significant", "has made great", "have made great", "has made tremendous", "have made tremendous",
		"has made substantial", "have made substantial", "has made impressive", "have made impressive",
		"longstanding goal", "long-standing goal", "longstanding problem", "long-standing problem",
		"previous works tackle", "prior works tackle", "existing works focus", "existing methods focus",
		"existing approaches focus", "previous works focus", "prior works focus", "most existing methods",
		"most existing approaches", "most existing works", "most prior work", "most previous work",
		"poses challenges", "pose challenges", "poses a challenge", "pose a challenge", "poses significant challenges",
		"are prevalent in", "is prevalent in", "previous methods are", "prior methods are", "have been extensively",
		"has been extensively", "have obtained promising", "has obtained promising", "has long been", "have long been",
		"commonly rely", "commonly relies", "commonly used", "typically encounter", "typically suffer", "often suffer",
		"usually suffer", "most literature", "is a relatively new", "are a relatively new"}
	contribPhrases = []string{"we propose", "we present", "we introduce", "we develop", "here we", "in this paper",
		"in this work", "in this study", "this study", "we describe", "we report"}
)

// phraseKind names one list of cue phrases; a sentence's phrase mask has
// bit k set when it contains a phrase of kind k.
type phraseKind uint

const (
	phFinding    phraseKind = iota // findingCuePhrases
	phStat                         // statPhrases
	phChange                       // changePhrases
	phHedge                        // hedgePhrases
	phNegation                     // negationPhrases
	phFraming                      // framingPhrases
	phContrib                      // contribPhrases
	phUnknown                      // unknownPhrases
	phPurpose                      // "to assess whether" and the like
	phCueFinding                   // findingPhrases and findingClaims (the earlier cue)
	phProcedure                    // procedurePhrases
	phPointer                      // pointerPhrases
	phSetting                      // settingPhrases
)

// phraseTable finds every cue phrase in a sentence with one pass over its
// bytes: phrases are bucketed by their first two bytes, so each position
// costs an array index and rarely a comparison. The answer path runs it on
// every competing sentence of every result; one strings.Contains per
// phrase took a third of the query time.
type phraseTable struct {
	buckets [phraseBuckets][]phraseEntry
}

const phraseBuckets = 4096

type phraseEntry struct {
	text string
	kind phraseKind
}

func phraseBucket(a, b byte) int { return (int(a)*131 + int(b)) % phraseBuckets }

func newPhraseTable(lists map[phraseKind][]string) *phraseTable {
	t := &phraseTable{}
	for kind, list := range lists {
		for _, p := range list {
			if len(p) < 2 {
				panic("cue phrase " + p + " is shorter than two bytes")
			}
			b := phraseBucket(p[0], p[1])
			t.buckets[b] = append(t.buckets[b], phraseEntry{p, kind})
		}
	}
	return t
}

// mask returns the kinds of phrase s contains.
func (t *phraseTable) mask(s string) uint64 {
	var m uint64
	for i := 0; i+1 < len(s); i++ {
		for _, e := range t.buckets[phraseBucket(s[i], s[i+1])] {
			if strings.HasPrefix(s[i:], e.text) {
				m |= 1 << e.kind
			}
		}
	}
	return m
}

func (k phraseKind) in(mask uint64) bool { return mask&(1<<k) != 0 }

// purposePhrases spell out "to assess whether", "to test if", ...
func purposePhrases() []string {
	var out []string
	for _, v := range framingVerbs {
		for _, obj := range []string{" whether", " if", " the"} {
			out = append(out, "to "+v+obj)
		}
	}
	return out
}

var cuePhrases = newPhraseTable(map[phraseKind][]string{
	phFinding:    findingCuePhrases,
	phStat:       statPhrases,
	phChange:     changePhrases,
	phHedge:      hedgePhrases,
	phNegation:   negationPhrases,
	phFraming:    framingPhrases,
	phContrib:    contribPhrases,
	phUnknown:    unknownPhrases,
	phPurpose:    purposePhrases(),
	phProcedure:  procedurePhrases,
	phPointer:    pointerPhrases,
	phSetting:    settingPhrases,
	phCueFinding: append(append([]string(nil), findingPhrases...), findingClaims...),
})
