package search

import (
	"regexp"
	"strings"
)

// Users ask about a paper's finding, so the answer sentence is the one that
// matches the question and states a result, not the one that restates the
// question ("OBJECTIVE To assess whether ...") or gives background. The cue
// lists hold across fields: structured medical abstracts label their parts,
// ML abstracts say "we show", "outperforms", "achieves".
var (
	findingCue = regexp.MustCompile(`(?i)^(results?|conclusions?|findings?|interpretation)\b|` +
		`\b(we (show|find|found|demonstrate|observe[d]?|prove|report)|(results|data|findings|analyses|experiments) (show|showed|suggest|suggested|indicate|indicated|demonstrate|demonstrated|reveal|revealed|confirm)|` +
		`was (significantly )?(associated|correlated|higher|lower|increased|decreased|reduced|improved)|were (significantly )?(associated|correlated|higher|lower|increased|decreased|reduced|improved)|` +
		`significantly|outperform|achiev|leads? to|resulted in|conclude|p\s?[<=]|95%|odds ratio|hazard ratio|relative risk)`)
	framingCue = regexp.MustCompile(`(?i)^(objectives?|background|purpose|aims?|introduction|context|importance|methods?|design|setting|participants|patients and methods|study design)\b|` +
		`\b(we (aimed|sought|asked|hypothesi[sz]ed|investigated whether|examined whether)|the aim of|the purpose of|to (assess|determine|investigate|evaluate|examine|test) (whether|if|the)|remains? (unclear|unknown|elusive))|\?\s*$`)
)

// sentenceCue is +1 for a sentence that states a finding, -1 for one that
// frames the question or the method, 0 otherwise.
func sentenceCue(s string) float64 {
	s = strings.TrimSpace(s)
	switch {
	case framingCue.MatchString(s):
		return -1
	case findingCue.MatchString(s):
		return 1
	}
	return 0
}

// answerSentence picks the answer: the sentence with the best query
// coverage, plus cueWeight for a finding (minus for framing) and lateWeight
// times its position (findings come late in an abstract). Only sentences
// that match part of the query compete; i is -1 when none does.
func answerSentence(text string, sents []span, hits []hit, groups []group, cueWeight, lateWeight float64) int {
	best, bestScore := -1, 0.0
	n := len(sents)
	for si, sp := range sents {
		cov := sentenceCoverage(sp, hits, groups)
		if cov == 0 {
			continue
		}
		score := cov + cueWeight*sentenceCue(text[sp.start:sp.end])
		if n > 1 {
			score += lateWeight * float64(si) / float64(n-1)
		}
		if best < 0 || score > bestScore+1e-9 {
			best, bestScore = si, score
		}
	}
	return best
}

// sentenceCoverage is the idf-weighted share of the query one sentence
// matches.
func sentenceCoverage(sp span, hits []hit, groups []group) float64 {
	credit := make([]float64, len(groups))
	for _, h := range hits {
		if h.start >= sp.start && h.end <= sp.end {
			credit[h.group] = max(credit[h.group], h.credit)
		}
	}
	return coverage(groups, credit)
}
