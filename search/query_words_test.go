package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/paperbot/paperbot/search/query"
)

// topResults searches ix for q and returns its first n results, failing
// the test when the search fails or refuses.
func topResults(t *testing.T, ix *Index, q string, n int) []Result {
	t.Helper()
	res, err := ix.Search(t.Context(), Request{Text: q, Limit: n})
	if err != nil {
		t.Fatal(err)
	}
	if res.NoMatch || len(res.Results) < n {
		t.Errorf("%q: refused (confidence %.2f) or fewer than %d results (%d)", q, res.Confidence, n, len(res.Results))
		return nil
	}
	return res.Results
}

// says reports whether r's title or abstract has any of words.
func says(r Result, words ...string) bool {
	text := strings.ToLower(r.Title + " " + r.Abstract)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(text, w) })
}

// topSay checks that each query's first n results say its word, with or
// without its hyphen.
func topSay(t *testing.T, ix *Index, n int, cases map[string]string) {
	t.Helper()
	for q, want := range cases {
		for i, r := range topResults(t, ix, q, n) {
			if !says(r, want, strings.ReplaceAll(want, "-", " ")) {
				t.Errorf("%q: result %d %q never says %q (authors %v)", q, i+1, r.Title, want, r.Authors)
			}
		}
	}
}

// A word many papers use that is also some authors' surname is searched
// as the word: "long" in "long tail distribution" is not Mingsheng Long.
func TestSurnamesThatAreWords(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"long tail distribution":     "long-tail",
		"long-tailed classification": "long-tail",
		"black box attacks":          "black-box",
	})
}

// A first name alone is searched as the word it also is: many authors are
// called Adam or Bo, but "Adam" here is the optimizer and "BO" Bayesian
// optimisation.
func TestFirstNamesAreWords(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"Adam optimizer convergence": "adam",
		"BO acquisition function":    "bayesian optimi",
	})
}

// A full name puts that author's papers first, above papers by others who
// share one of the names ("Di He" above papers by Qiwei Di and Jiafan He),
// and a surname next to a first name is read as a name even when it is
// also a common word.
func TestFullNameRanksTheAuthorFirst(t *testing.T) {
	ix := bigIndex(t)
	for _, name := range []string{"Yoshua Bengio", "Mingsheng Long", "Chelsea Finn", "Adam White", "Di He"} {
		for i, r := range topResults(t, ix, name, 3) {
			if !slices.ContainsFunc(r.Authors, func(a string) bool { return strings.EqualFold(a, name) }) {
				t.Errorf("%q: result %d %q is by %v", name, i+1, r.Title, r.Authors)
			}
		}
	}
}

// A surname typed one letter off after the author's first name finds the
// author: "Yoshua Bengo" was refused, "Sergey Levin" matched a Levin.
func TestSurnameTypo(t *testing.T) {
	ix := bigIndex(t)
	for typed, name := range map[string]string{"Yoshua Bengo": "Yoshua Bengio", "Sergey Levin": "Sergey Levine", "Chelsea Fin robotics": "Chelsea Finn", "Jure Leskovek": "Jure Leskovec"} {
		for i, r := range topResults(t, ix, typed, 3) {
			if !slices.ContainsFunc(r.Authors, func(a string) bool { return strings.EqualFold(a, name) }) {
				t.Errorf("%q: result %d %q is by %v, not %s", typed, i+1, r.Title, r.Authors, name)
			}
		}
	}
}

// Asking what someone published finds their papers: "publish" and "wrote"
// frame the question, they are not what the papers are about.
func TestWhatSomeonePublished(t *testing.T) {
	topAreBy(t, bigIndex(t), 1, map[string]string{
		"what did Hinton publish?":             "Hinton",
		"which papers did Chelsea Finn write?": "Chelsea Finn",
		"recommend a paper by Chelsea Finn":    "Chelsea Finn",
	})
}

// A surname the text analyzer drops as a stop word ("He") is still a name
// after a first name: "what did Kaiming He publish" found papers by any
// Kaiming and was refused. A lower-case "he" is no name.
func TestStopWordSurname(t *testing.T) {
	topAreBy(t, bigIndex(t), 1, map[string]string{
		"what did Kaiming He publish": "Kaiming He",
		"papers by Kaiming He":        "Kaiming He",
	})
	for _, r := range topResults(t, bigIndex(t), "papers by Kaiming He", 1) {
		if !slices.Contains(r.Matched, "He") {
			t.Errorf("papers by Kaiming He: %q matched %q, want He among them", r.Title, r.Matched)
		}
	}
	res, err := bigIndex(t).Search(t.Context(), Request{Text: "he said attention", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if slices.Contains(r.Matched, "he") {
			t.Errorf("he said attention: %q matched the pronoun as a name", r.Title)
		}
	}
}

// topAreBy checks that each query's first n results have an author whose
// name contains the query's name.
func topAreBy(t *testing.T, ix *Index, n int, cases map[string]string) {
	t.Helper()
	for q, name := range cases {
		for i, r := range topResults(t, ix, q, n) {
			if !slices.ContainsFunc(r.Authors, func(a string) bool { return strings.Contains(a, name) }) {
				t.Errorf("%q: result %d %q is by %v", q, i+1, r.Title, r.Authors)
			}
		}
	}
}

// Authors' own misspelt keywords (from the ICLR 2024 scrape) find the
// papers on what they meant: a typo is corrected against English spellings,
// not only against the corpus's stems, and a misspelling some abstracts
// share ("uncertainity") also finds the usual spelling.
func TestMisspeltKeywordsFindTheirTopic(t *testing.T) {
	topSay(t, bigIndex(t), 1, map[string]string{
		"temproal modeling":           "temporal",
		"Imitiation Learning":         "imitation",
		"Distribution shfts":          "shift",
		"Uncertainity Quantification": "uncertainty",
		"Model Editingi":              "editing",
	})
}

// A short word the papers lack is no typo of a word two letters away: over
// the ML papers "purine" is not "pure" nor "pursue", "simian" not
// "similarity", "thymus" not "thus". No card says it matched so. A longer
// word still is: "Lanauge" is two slips from "language".
func TestShortWordsTwoEditsAwayAreNoTypos(t *testing.T) {
	ix := bigIndex(t)
	for q, word := range map[string]string{
		"purine metabolism":             "purine",
		"simian immunodeficiency virus": "simian",
		"thymus involution":             "thymus",
	} {
		res, err := ix.Search(t.Context(), Request{Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Results {
			for _, m := range r.Matched {
				if strings.HasPrefix(m, word+" (") {
					t.Errorf("%q: %q matched as %q", q, r.Title, m)
				}
			}
		}
	}
	top := topResults(t, ix, "Large Lanauge Models", 1)
	if len(top) == 1 && !slices.Contains(top[0].Matched, "Lanauge (Language)") {
		t.Errorf(`"Large Lanauge Models": first paper matched %q, want "Lanauge (Language)"`, top[0].Matched)
	}
}

// A lone letter is never read as an author's initial: "vitamin D" is not
// a search for authors with a D in their names.
func TestInitialsAreNoNames(t *testing.T) {
	ix := bigIndex(t)
	st, release, err := ix.live()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if n := st.nameTokens("D"); n != nil {
		t.Errorf("nameTokens(D) = %v, want none", n)
	}
	if n := st.nameTokens("Bengio"); len(n) != 1 {
		t.Errorf("nameTokens(Bengio) = %v, want one name", n)
	}
}

func TestEditDistance(t *testing.T) {
	long := strings.Repeat("a", 40)
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
		ok    bool
	}{
		{"grpah", "graph", 1, 1, true},       // a swap is one edit
		{"temproal", "temporal", 2, 1, true}, // so is this one
		{"shfts", "shifts", 1, 1, true},      // an insertion
		{"transfomer", "transformer", 2, 1, true},
		{"bread", "break", 0, 0, false},            // over the limit
		{"schrödinger", "schrodinger", 1, 1, true}, // runes, not bytes
		{long, long + "b", 1, 1, true},             // past the stack buffers
		{long, long + "bcd", 2, 0, false},
	} {
		got, ok := editDistance(tt.a, tt.b, tt.limit)
		if got != tt.want || ok != tt.ok {
			t.Errorf("editDistance(%q, %q, %d) = %d, %v; want %d, %v", tt.a, tt.b, tt.limit, got, ok, tt.want, tt.ok)
		}
	}
}

// A pasted link finds the papers that give it, not every paper whose text
// has "https" or "github.com".
func TestLinkIsSearchedWhole(t *testing.T) {
	ix, _ := seedIndex(t)
	for _, q := range []string{"https://github.com/GATECH-EIC/LaCache", "code at <https://github.com/GATECH-EIC/LaCache>.", "github.com/GATECH-EIC/LaCache"} {
		res, err := ix.Search(t.Context(), Request{Text: q})
		if err != nil || len(res.Results) == 0 {
			t.Fatalf("%q: %v %+v", q, err, res)
		}
		if got := res.Results[0].Title; !strings.HasPrefix(got, "LaCache") {
			t.Errorf("%q: first result %q, want LaCache", q, got)
		}
		for _, r := range res.Results {
			if slices.Contains(r.Matched, "https") || slices.Contains(r.Matched, "github.com") {
				t.Errorf("%q: %q matched %q", q, r.Title, r.Matched)
			}
		}
	}
}

// When no paper has a phrase or long form whole, the papers closest to its
// words are still shown, under "nothing relevant": "nothing" alone is for
// queries no paper shares a word with.
func TestClosestPapersWhenNoPaperHasThePhrase(t *testing.T) {
	ix, _ := seedIndex(t)
	// "zzqx models": no paper has zzqx, and "models" is in too many papers
	// to be looked up beside a word; alone, it found none.
	for _, q := range []string{"bayesian optimization", "reinforcement learning from human feedback", `"quantum chromodynamics lattice"`, "zzqx models"} {
		res, err := ix.Search(t.Context(), Request{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if !res.NoMatch || len(res.Results) == 0 {
			t.Errorf("%q: no_match %v with %d results, want the closest papers under no_match", q, res.NoMatch, len(res.Results))
		}
		for _, r := range res.Results {
			if len(r.Matched) == 0 {
				t.Errorf("%q: %q shares no word with it", q, r.Title)
			}
		}
	}
	res, err := ix.Search(t.Context(), Request{Text: "zyxwvut qqqq"})
	if err != nil || len(res.Results) != 0 || !res.NoMatch {
		t.Errorf("a query no paper shares a word with: %v, %d results, no_match %v", err, len(res.Results), res.NoMatch)
	}
}

// Every card says which of the user's words the paper has, even when it
// has a long form's words apart ("process", "reward" and "models"; the
// words of a typed acronym's long form, "SNN (spike … neural …
// networks)", cut after a whole word: "GPT (generation … pre … training
// …)", not "… training … …"), and never a word that only frames the
// question ("can").
func TestEveryCardSaysWhatMatched(t *testing.T) {
	ix, _ := seedIndex(t)
	for _, q := range []string{"process reward models", "How can I speed up attention for long sequences?", "can LLMs do planning?",
		"recommend a paper about watermarks", "is anyone working on recent protein design?", "SNN with temporal shift", "GPT-4o"} {
		res, err := ix.Search(t.Context(), Request{Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Results {
			if len(r.Matched) == 0 || slices.ContainsFunc(r.Matched, func(m string) bool {
				return slices.Contains([]string{"can", "recommend", "working", "recent"}, m) || strings.Contains(m, "… …") || strings.Contains(m, "……")
			}) {
				t.Errorf("%q: %q matched %q", q, r.Title, r.Matched)
			}
		}
	}
}

// A long form only a few papers have whole still fills the page: the
// papers that have its words apart follow them, and say which they have.
func TestFewWholeMatchesFillThePage(t *testing.T) {
	rs := topResults(t, bigIndex(t), "zero-shot anomaly detection", 5)
	if len(rs) == 0 {
		return
	}
	if !says(rs[0], "zero-shot anomaly detection") {
		t.Errorf("first %q does not say the phrase", rs[0].Title)
	}
	for _, r := range rs {
		if len(r.Matched) == 0 {
			t.Errorf("%q says nothing matched", r.Title)
		}
	}
}

// A hyphenated word whose stop word tells it apart is searched whole:
// "on-policy" is not "off-policy", "in-distribution" not
// "out-of-distribution", though the analyzer drops "on", "in" and "out".
func TestStopWordInHyphenatedWord(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"on-policy RL":                   "on-policy",
		"in-distribution generalization": "in-distribution",
	})
}

// An acronym typed in capitals is that acronym, not every word with its
// stem: "CLIP" is the model, not gradient clipping.
func TestAcronymInCapitals(t *testing.T) {
	for i, r := range topResults(t, bigIndex(t), "CLIP", 5) {
		if text := r.Title + " " + r.Abstract; !strings.Contains(text, "CLIP") && !strings.Contains(text, "Clip") {
			t.Errorf("result %d %q never writes CLIP", i+1, r.Title)
		}
	}
}

// A year or a conference named in free text matches the papers' year or
// venue: "mamba 2024" is not refused because no abstract says "2024".
func TestYearAndVenueWords(t *testing.T) {
	ix := bigIndex(t)
	for q, want := range map[string]func(Result) bool{
		"any papers on mamba from 2024?":         func(r Result) bool { return r.Year == 2024 && says(r, "mamba") },
		"graph transformers ICLR":                func(r Result) bool { return strings.HasPrefix(r.Venue, "ICLR") && says(r, "graph transformer") },
		"NeurIPS 2018 meta-learning":             func(r Result) bool { return r.Year == 2018 && says(r, "meta") },
		"papers from ICLR on graph transformers": func(r Result) bool { return strings.HasPrefix(r.Venue, "ICLR") },
		// A span: "since 2023" is 2023 on, "before 2020" earlier.
		"meta-learning before 2020":     func(r Result) bool { return r.Year > 0 && r.Year < 2020 && says(r, "meta") },
		"since 2023 graph transformers": func(r Result) bool { return r.Year >= 2023 && says(r, "graph transformer") },
		// "between 2017 and 2019": the years and those between.
		"adversarial examples between 2017 and 2019": func(r Result) bool { return r.Year >= 2017 && r.Year <= 2019 && says(r, "adversarial example") },
		"graph transformers published in 2024":       func(r Result) bool { return r.Year == 2024 && says(r, "graph transformer") },
		// The year and venue are the paper's, not its text's: an abstract
		// linking to "…github.io/ICLR-2024-MMGN" is not about the topic.
		"ICLR 2024 papers on state space models": func(r Result) bool {
			return r.Venue == "ICLR 2024" && r.Year == 2024 && (says(r, "state space") || says(r, "state-space") || says(r, "SSM"))
		},
	} {
		for i, r := range topResults(t, ix, q, 3) {
			if !want(r) {
				t.Errorf("%q: result %d %q (%s, %d)", q, i+1, r.Title, r.Venue, r.Year)
			}
		}
	}
}

// Telling colleagues what went wrong frames the question too: in "is this a
// known problem and how do people fix it?" neither "known", "people" nor
// "fix" is the topic, and no card says it matched them.
func TestChatFramesTheQuestion(t *testing.T) {
	ix := bigIndex(t)
	chat := []string{"known", "fix", "people", "usually", "looked", "seeing", "happens", "tricks", "keeps", "keep"}
	for q, topic := range map[string]string{
		"my LoRA fine-tune keeps forgetting the base tasks, is this a known problem and how do people fix it?": "forget",
		"has anyone looked at whether LLM benchmarks are contaminated by training data?":                       "contaminat",
		"our RL agent exploits the reward function, what do people usually do about that?":                     "reward",
		"we keep running out of GPU memory when training long context transformers, any tricks people use?":    "memory",
	} {
		for i, r := range topResults(t, ix, q, 3) {
			if m := slices.IndexFunc(r.Matched, func(m string) bool { return slices.Contains(chat, m) }); m >= 0 {
				t.Errorf("%q: result %d %q matched %q", q, i+1, r.Title, r.Matched[m])
			}
			if i == 0 && !says(r, topic) {
				t.Errorf("%q: result 1 %q never says %q", q, r.Title, topic)
			}
		}
	}
}

// A word typed without its accents finds the papers that write them:
// "Schrodinger" is Schrödinger.
func TestAccentsFolded(t *testing.T) {
	for i, r := range topResults(t, bigIndex(t), "Schrodinger bridge", 3) {
		if !slices.ContainsFunc(r.Matched, func(m string) bool { return strings.Contains(m, "Schrodinger") }) {
			t.Errorf("result %d %q matched %q, not Schrodinger", i+1, r.Title, r.Matched)
		}
	}
}

// "i.e.", "e.g." and "incl." introduce an example: abstracts use them
// everywhere, so as topics they would reward any paper that gives examples,
// and cards would say they matched. In capitals such a word may be a topic.
func TestAsideAbbreviationsAreNoTopic(t *testing.T) {
	st := seedState(t)
	for text, want := range map[string][]string{
		"optical music recognition, i.e. sheet music to MIDI": {"optical", "music", "recognition", "sheet", "MIDI"},
		"sparse attention (e.g., sliding windows) etc.":       {"sparse", "attention", "sliding", "windows"},
		"cf. the kv cache paper":                              {"kv", "cache"},
		"describing clusters with tags, incl. hardness":       {"describing", "clusters", "tags", "hardness"},
		"ETC in mitochondria":                                 {"ETC", "mitochondria"},
	} {
		if got := surfacesOf(t, st, text); !slices.Equal(got, want) {
			t.Errorf("%q groups = %q, want %q", text, got, want)
		}
	}
	ix := bigIndex(t)
	q := "which papers speed up long-context attention, e.g. with sliding windows?"
	for i, r := range topResults(t, ix, q, 5) {
		if m := slices.IndexFunc(r.Matched, func(m string) bool { return strings.Contains(m, "e.g") }); m >= 0 {
			t.Errorf("%q: result %d %q matched %q", q, i+1, r.Title, r.Matched[m])
		}
	}
}

// "GPT-style" asks about GPT, in its manner: papers on style transfer are
// no answer to it. "style" typed alone stays a word.
func TestStyleSuffixMeansInTheMannerOf(t *testing.T) {
	st := seedState(t)
	for text, want := range map[string][]string{
		"GPT-style next-patch prediction":   {"GPT", "next", "patch", "prediction"},
		"SMC-styled particle reweighting":   {"SMC", "particle", "reweighting"},
		"neural style transfer for artwork": {"neural", "style", "transfer", "artwork"},
	} {
		if got := surfacesOf(t, st, text); !slices.Equal(got, want) {
			t.Errorf("%q groups = %q, want %q", text, got, want)
		}
	}
}

// A comparison or judgement frames a question and is not its topic: "is
// scaling data better than scaling parameters?" is about scaling data and
// parameters, not about abstracts that say "better" or "to the best of our
// knowledge".
func TestComparisonWordsFrameTheQuestion(t *testing.T) {
	ix := bigIndex(t)
	topSay(t, ix, 1, map[string]string{"what's hot in RL right now": "reinforcement"})
	// The card's "matched" line never names a word that only framed the
	// question.
	framing := []string{"better", "best", "improve", "vs", "good", "intro", "new", "top", "hot", "right", "now"}
	for _, q := range []string{"what's hot in RL right now", "any new work on mamba?", "top papers on LLM reasoning"} {
		for i, r := range topResults(t, ix, q, 3) {
			if m := slices.IndexFunc(r.Matched, func(m string) bool { return slices.Contains(framing, m) }); m >= 0 {
				t.Errorf("%q: result %d %q matched %q", q, i+1, r.Title, r.Matched[m])
			}
		}
	}
	for q, topic := range map[string][]string{
		"is scaling data better than scaling parameters?": {"scal", "data", "parameter"},
		"what is the best way to detect hallucinations":   {"detect", "hallucinat"},
		"does data augmentation improve robustness?":      {"augmentation", "robust"},
		"state space models vs transformers":              {"state", "space", "transformer"},
		"good intro to normalizing flows":                 {"normalizing flow"},
		"any new work on mamba?":                          {"mamba"},
		"top papers on LLM reasoning":                     {"reason", "language model"},
	} {
		for i, r := range topResults(t, ix, q, 3) {
			for _, w := range topic {
				if !says(r, w) {
					t.Errorf("%q: result %d %q never says %q", q, i+1, r.Title, w)
				}
			}
		}
	}
}

// Slack messages are written to people: greetings, thanks and "I'm looking
// for" are not searched, so a polite request is answered as its topic is.
func TestPoliteRequestsAnsweredAsTheirTopic(t *testing.T) {
	ix, _ := seedIndex(t)
	for polite, topic := range map[string]string{
		"hi! looking for work on protein design pls":          "protein design",
		"hey, any papers on kv cache compression? thanks!":    "kv cache compression",
		"I'm looking for papers about weather forecasting":    "weather forecasting",
		"hello folks, we need papers on polymer conformation": "polymer conformation",
		// Asking around, as people do in a channel.
		"I was wondering if there is work on kv cache compression":        "kv cache compression",
		"curious whether anyone has seen papers on protein design":        "protein design",
		"would love pointers to weather forecasting work":                 "weather forecasting",
		"hey folks, trying to find a paper on kv cache compression":       "kv cache compression",
		"suggestions for polymer conformation papers":                     "polymer conformation",
		"do you guys remember the paper about protein design":             "protein design",
		"interested in weather forecasting, any recommendations?":         "weather forecasting",
		"what's the go-to reference for kv cache compression these days?": "kv cache compression",
	} {
		answeredAs(t, ix, polite, topic)
	}
}

// answeredAs checks that the request q is answered as its topic alone is
// (refused or not, the same first three papers) and returns its results.
func answeredAs(t *testing.T, ix *Index, q, topic string) []Result {
	t.Helper()
	got, err := ix.Search(t.Context(), Request{Text: q, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ix.Search(t.Context(), Request{Text: topic, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got.NoMatch != want.NoMatch || !slices.Equal(ids(got.Results), ids(want.Results)) {
		t.Errorf("%q: no_match %v %v, want as %q: %v %v", q, got.NoMatch, ids(got.Results), topic, want.NoMatch, ids(want.Results))
	}
	return got.Results
}

func ids(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// "survey" and "review" say what kind of paper is wanted, not its topic: a
// survey of something else ("survey methodology") never outranks the
// papers on the topic, and without a survey those papers are the answer.
func TestKindOfPaperIsNotTheTopic(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"survey of graph transformers":  "graph transformer",
		"a survey on LLM agents":        "agent",
		"tutorial on optimal transport": "optimal transport",
	})
}

// The ways people cite an author find the author's papers: an initial
// ("Y. Bengio"), "et al." and a possessive ("Bengio's") mark the name, they
// are not words to find in abstracts.
func TestCitedAuthorForms(t *testing.T) {
	// A surname the analyzer drops as a stop word, possessive: Kaiming He
	// has one paper here.
	topAreBy(t, bigIndex(t), 1, map[string]string{"Kaiming He's papers": "Kaiming He", "Kaiming He’s work on graphs": "Kaiming He"})
	topAreBy(t, bigIndex(t), 3, map[string]string{
		"Y. Bengio":                  "Bengio",
		"Bengio et al.":              "Bengio",
		"Bengio's work on GFlowNets": "Bengio",
	})
}

// What a request says it does not want is left out, not searched for:
// "but not for images" had ranked image papers first.
func TestSpokenExclusion(t *testing.T) {
	for i, r := range topResults(t, bigIndex(t), "diffusion models but not for images", 10) {
		if says(r, "image") {
			t.Errorf("result %d %q is about images", i+1, r.Title)
		}
	}
}

// What an aside rules out, "(not proteins)", is not searched: protein
// papers came first for "papers about molecules (not proteins)". Papers
// that name it are not left out: small molecules bind proteins.
func TestAsideRulesOutIsNotSearched(t *testing.T) {
	ix := bigIndex(t)
	matched := func(r Result, w string) bool {
		return slices.ContainsFunc(r.Matched, func(m string) bool { return m == w || strings.HasPrefix(m, w+" (") })
	}
	for q, out := range map[string]string{"papers about molecules (not proteins)": "proteins", "diffusion models (not for images), 2024": "images",
		"graph neural networks other than GCN": "GCN", "what GNNs other than GCN work for molecules?": "GCN"} {
		for i, r := range topResults(t, ix, q, 5) {
			if matched(r, out) {
				t.Errorf("%q: result %d %q matched %q", q, i+1, r.Title, out)
			}
		}
		pq, err := parseQuery(q)
		if err != nil || len(pq.Exclude) != 0 {
			t.Errorf("%q: excludes %v (%v), want none", q, pq.Exclude, err)
		}
	}
	// An aside that rules nothing out is searched, and so is what follows
	// the words set aside.
	for q, w := range map[string]string{"GNNs (graph neural networks) for molecules": "molecules", "what GNNs other than GCN work for molecules?": "molecules"} {
		if r := topResults(t, ix, q, 1); len(r) == 0 || !matched(r[0], w) {
			t.Errorf("%q: the first result did not match %q: %v", q, w, r)
		}
	}
}

// A capital NOT leaves out the next word or phrase, as in Scholar or
// PubMed: "transformers NOT vision" listed vision transformers, the very
// word ruled out. A lower-case "not" is text.
func TestCapitalNotExcludes(t *testing.T) {
	for q, out := range map[string][]string{"transformers NOT vision": {"vision"}, `diffusion NOT "image generation" NOT video`: {"image generation", "video"}} {
		for i, r := range topResults(t, bigIndex(t), q, 10) {
			if says(r, out...) {
				t.Errorf("%q: result %d %q says what was left out", q, i+1, r.Title)
			}
		}
	}
	for q, want := range map[string]int{"transformers NOT vision": 1, "methods that do not need labels": 0, "graph AND NOT vision": 1, "graph NOT": 0} {
		pq, err := parseQuery(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(pq.Exclude) != want {
			t.Errorf("%q: excludes %v, want %d", q, pq.Exclude, want)
		}
	}
}

// Leaving out a hyphenated word with a stop word in it leaves out that
// word, not its other part everywhere: "long context -in-context" was
// refused, every paper that says "context" left out.
func TestExcludedStopWordCompound(t *testing.T) {
	ix := bigIndex(t)
	for i, r := range topResults(t, ix, "long context -in-context", 5) {
		if says(r, "in-context", "in context") || !says(r, "long-context", "long context") {
			t.Errorf("result %d %q: not a long-context paper without in-context learning", i+1, r.Title)
		}
	}
	for i, r := range topResults(t, ix, `title:"in-context"`, 5) {
		if !says(r, "in-context", "in context") {
			t.Errorf(`title:"in-context": result %d %q never says it`, i+1, r.Title)
		}
	}
}

// An acronym whose long form is too common to look for in abstracts alone
// still finds it there beside the query's other words: "GNN combinatorial
// optimization" was refused, its candidates all GNN titles.
func TestLongFormInAbstractBesideOtherWords(t *testing.T) {
	topSay(t, bigIndex(t), 1, map[string]string{
		"GNN combinatorial optimization":  "combinatorial optimization",
		"GNNs combinatorial optimization": "combinatorial optimization",
	})
}

// Words the Porter stemmer merges though papers mean different things by
// them have stems of their own: "generalization" is not "generation",
// "transformers" not "transform", "tokenizers" not "tokens",
// "multiplication" not "multiple", "conformal" not "conformation".
func TestOwnStems(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"tokenizers for LLMs":                          "tokeniz",
		"code generation evaluation datasets":          "generat",
		"why do transformers generalize?":              "transformer",
		"can transformers learn to do multiplication?": "multiplication",
		"conformal prediction for molecules":           "conformal",
		"region proposals":                             "proposal",
		"context length extension":                     "extension",
		"reading comprehension":                        "comprehension",
		"adapters for parameter-efficient fine-tuning": "adapter",
	})
}

// A span of years every paper is in says nothing: over the seeds (all of
// 2025), "protein design since 2020" is "protein design", not a match of
// every paper on "2020".
func TestYearSpanOfEveryPaperSaysNothing(t *testing.T) {
	ix, _ := seedIndex(t)
	got, err := ix.Search(t.Context(), Request{Text: "protein design since 2020", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got.Results {
		if slices.Contains(r.Matched, "2020") {
			t.Errorf("result %d %q matched 2020: %v", i+1, r.Title, r.Matched)
		}
	}
}

// How researchers ask in Slack: what to cite or read, hedges ("just",
// "ideally"), who asks and what they are doing ("how are people ...",
// "I'm writing a related work section on ...") and "these days" are no
// topic. Each request is answered as its topic alone is, and no card says
// it matched one of those words.
func TestAskingWordsAnsweredAsTheirTopic(t *testing.T) {
	ix := bigIndex(t)
	asking := []string{"refs", "cite", "tl;dr", "just", "ideally", "showing", "people", "days", "work", "related", "section", "writing", "building", "read", "used", "choose", "pros", "cons", "difference", "much", "worked", "reference", "100x", "2.5", "authors", "introduced", "reading", "list", "showed", "claim", "Q", "re", "question", "study", "Update", "new", "learn", "start", "here", "familiar", "foundational", "advances", "current", "according", "towards", "hey", "paperbot", "team", "5", "10", "works", "lab", "space", "original", "pick", "grab", "apply", "comparing", "ways", "got", "recs", "u", "asap", "smth", "morning", "regarding", "fyi", "lmk", "TIL", "ppl", "pull", "up", "idea", "sorry", "bug", "lit", "ok", "gimme", "quick", "share", "citation", "struggling", "chance", "reads", "tried", "dumb", "next", "week", "thinking", "heard", "gonna", "need", "friendly", "reminder", "differ", "student", "wants", "Thoughts", "appreciated", "Working", "thoughts", "main", "result", "key", "findings", "link", "called", "thing", "intuition", "behind", "eli5", "hood", "overview", "primer", "people's", "newcomer", "pointers", "love", "rn", "asking", "friend", "prior", "come", "goes", "wrong", "well", "consensus", "true", "evidence", "story", "hearing", "progress", "necessary", "suffice", "beat", "connection", "summary", "summaries", "gist"}
	for q, topic := range map[string]string{
		"how are people evaluating code generation these days":                                      "evaluating code generation",
		"is in-context learning just gradient descent?":                                             "in-context learning gradient descent",
		"refs on sparse autoencoders for interpretability":                                          "sparse autoencoders for interpretability",
		"tl;dr of the mamba paper":                                                                  "mamba",
		"a summary of the mamba paper":                                                              "mamba",
		"give me the gist of the QLoRA paper":                                                       "QLoRA",
		"summaries of the weather forecasting paper":                                                "weather forecasting",
		"what should I cite for flash attention?":                                                   "flash attention",
		"papers showing transformers fail to length generalize":                                     "transformers fail to length generalize",
		"work on vision-language models hallucinating objects":                                      "vision-language models hallucinating objects",
		"benchmarks of long context LLMs, ideally 2024":                                             "benchmarks of long context LLMs 2024",
		"I'm writing a related work section on in-context learning. Which papers should I look at?": "in-context learning",
		"related work for diffusion models":                                                         "diffusion models",
		"Need refs for a related-work section on GNN expressivity":                                  "GNN expressivity",
		"we're building a RAG system, what should we read?":                                         "RAG system",
		"what datasets are used for evaluating LLM agents?":                                         "datasets for evaluating LLM agents",
		"how to choose the learning rate for large batch training":                                  "learning rate for large batch training",
		"pros and cons of sparse attention":                                                         "sparse attention",
		"what is the difference between GCN and GAT?":                                               "GCN and GAT",
		"difference between LoRA and QLoRA":                                                         "LoRA and QLoRA",
		"reward models are biased towards length":                                                   "reward models are biased length",
		"how much data do I need to fine-tune an LLM?":                                              "data to fine-tune an LLM",
		"how far are LLMs from human translators?":                                                  "LLMs human translators",
		"can someone point me to work on uncertainty quantification for LLMs":                       "uncertainty quantification for LLMs",
		"who has worked on conformal prediction for time series":                                    "conformal prediction for time series",
		"what is the main limitation of RLHF according to recent work?":                             "the main limitation of RLHF",
		"I need a good reference for the lottery ticket hypothesis":                                 "lottery ticket hypothesis",
		"link to the DPO paper":                                                                     "DPO",
		"who are the authors of Vision Transformers Need Registers?":                                "Vision Transformers Need Registers",
		"which paper introduced GFlowNets?":                                                         "GFlowNets",
		"reading list for mechanistic interpretability":                                             "mechanistic interpretability",
		"the paper that showed LLMs can't self-correct":                                             "LLMs can't self-correct",
		"that paper showing transformers are better than SSMs at copying":                           "transformers SSMs at copying",
		"those papers on LLMs that can't self-correct":                                              "LLMs that can't self-correct",
		"what does the mamba paper claim about long sequences?":                                     "mamba long sequences",
		"I want to learn about diffusion models, where do I start?":                                 "diffusion models",
		"is anyone here familiar with work on model collapse?":                                      "model collapse",
		"any foundational papers on normalizing flows":                                              "normalizing flows",
		"recent advances in graph neural networks":                                                  "graph neural networks",
		"the current SOTA for semantic segmentation?":                                               "SOTA for semantic segmentation",
		// Chat labels: "Q:" left the grokking papers refused.
		"Q: what is grokking?":                    "grokking",
		"re: kv cache compression":                "kv cache compression",
		"question: which papers study watermarks": "watermarks",
		"Update: any new work on mamba":           "mamba",
		// Whom a greeting greets, the bot's name, and how many papers are
		// wanted are no topic.
		"hey paperbot, anything new on diffusion LMs?":                             "latest diffusion LMs",
		"our lab works on protein structure prediction, what's new in that space?": "latest protein structure prediction",
		"hi team, any work on grokking?":                                           "grokking",
		"hey, got anything about protein conformations?":                           "protein conformations",
		"anyone got refs for kv cache compression?":                                "kv cache compression",
		"anything re: data assimilation":                                           "data assimilation",
		"papers regarding watermarks for LLMs":                                     "watermarks for LLMs",
		"any recs for graph ODEs":                                                  "graph ODEs",
		"can u find stuff on equivariant VAEs":                                     "equivariant VAEs",
		"good morning! anything on prefill acceleration?":                          "prefill acceleration",
		"need something on interpretable molecular grammars asap":                  "interpretable molecular grammars",
		"smth about quantum systems + deep learning?":                              "quantum systems deep learning",
		"fyi need refs on test-time adaptation":                                    "test-time adaptation",
		"lmk if there's anything on KV cache quantization":                         "KV cache quantization",
		"TIL about grokking - any papers on it?":                                   "grokking",
		"what are ppl using for long-context evals":                                "long-context evals",
		"can you pull up the FlashAttention-2 paper":                               "FlashAttention-2",
		"any idea who worked on token merging for ViTs":                            "token merging for ViTs",
		"sorry to bug you - any lit on polymer conformations?":                     "polymer conformations",
		"ok so what do we have on transition path sampling":                        "transition path sampling",
		"gimme something about subgraph GNNs":                                      "subgraph GNNs",
		"quick q: who's working on weather forecasting ensembles":                  "weather forecasting ensembles",
		"share a few papers on cyclic peptide design":                              "cyclic peptide design",
		"need a citation for physics-informed interatomic potentials":              "physics-informed interatomic potentials",
		"struggling with long context generalization, any pointers?":               "long context generalization",
		"any chance we have something on interpretable hypotheses from text?":      "interpretable hypotheses from text",
		"any good reads on duality in physics":                                     "duality in physics",
		"anyone tried mixture of experts for vision? would love refs":              "mixture of experts for vision",
		"dumb question but how does DPO differ from PPO":                           "DPO and PPO",
		"friendly reminder - need papers on federated learning privacy attacks":    "federated learning privacy attacks",
		"Working on audio tokenizers for speech LMs, pointers appreciated":         "audio tokenizers for speech LMs",
		"My student wants to model fMRI brain networks for diagnosing depression":  "model fMRI brain networks for diagnosing depression",
		"We're choosing process reward models for math reasoning. Thoughts?":       "process reward models for math reasoning",
		"thoughts on the DPO paper?":                                               "DPO",
		"i remember a paper about speculative prefill, link?":                      "speculative prefill",
		"what's the intuition behind flow matching?":                               "flow matching",
		"who are the main people working on diffusion for proteins?":               "diffusion for proteins",
		"what's everyone reading on world models rn":                               "world models",
		"anything on test time compute scaling? asking for a friend":               "test time compute scaling",
		"where do adversarial examples come from?":                                 "adversarial examples",
		"what goes wrong with RLHF reward models":                                  "RLHF reward models",
		"what makes diffusion models work so well?":                                "diffusion models",
		"any consensus on scaling laws for data pruning?":                          "scaling laws for data pruning",
		"is it true that larger models are more sample efficient?":                 "larger models more sample efficient",
		"what are the main approaches to LLM watermarking?":                        "approaches to LLM watermarking",
		"any empirical evidence that weight decay helps generalization?":           "empirical weight decay generalization",
		"what's the story with model collapse?":                                    "model collapse",
		"I keep hearing about test-time compute, what's that about?":               "test-time compute",
		"any progress on neural theorem proving?":                                  "neural theorem proving",
		"how well do LLMs do on math olympiad problems?":                           "LLMs on math olympiad problems",
		"is RLHF necessary or does DPO suffice?":                                   "RLHF DPO",
		"why does Adam beat SGD on transformers?":                                  "Adam SGD transformers",
		"is there a link between sparsity and adversarial robustness?":             "sparsity and adversarial robustness",
		"any connection between diffusion models and score matching?":              "diffusion models and score matching",
		"what's the evidence on scaling laws for RL?":                              "scaling laws for RL",
		"need a quick lit review on diffusion distillation":                        "review on diffusion distillation",
		"hey, is there prior work on tokenizer-free LMs?":                          "tokenizer-free LMs",
		"I'd love to read more about neural ODEs":                                  "neural ODEs",
		"pointers to literature on offline RL please":                              "offline RL",
		"what are people's thoughts on mamba vs transformers?":                     "mamba vs transformers",
		"what should a newcomer read about federated learning?":                    "federated learning",
		"eli5 diffusion models":                                                    "diffusion models",
		"how does speculative decoding work under the hood":                        "speculative decoding",
		"does anyone have a good overview of mixture of experts routing?":          "mixture of experts routing",
		"i need a primer on equivariant networks":                                  "equivariant networks",
		"what was that paper on ladder shaped kv caches called":                    "ladder shaped kv caches",
		"who did the subgraph GNN centrality thing":                                "subgraph GNN centrality",
		"looking for anything related to inverse problems + EBMs":                  "inverse problems + EBMs",
		"what's the main result of the QLoRA paper":                                "QLoRA",
		"key findings of the mamba paper":                                          "mamba",
		"we're reading about state space models next week, suggestions?":           "state space models",
		"which paper introduced the idea of chain of thought prompting":            "chain of thought prompting",
		"pls find stuff on neural radiance fields for dynamic scenes":              "neural radiance fields for dynamic scenes",
		"hi! new here, what should I read on RL from human feedback":               "RL from human feedback",
		"what's the current thinking on LLM planning?":                             "LLM planning",
		"heard there's a paper on grokking in modular arithmetic, anyone?":         "grokking in modular arithmetic",
		"gonna need some refs on vision-language model hallucination":              "vision-language model hallucination",
		"paperbot what is grokking":                                                "grokking",
		"Give me 5 papers on world models":                                         "world models",
		"I don't know much about grokking, any intro?":                             "grokking",
		"does anyone know papers on grokking?":                                     "grokking",
		"how do I pick the LoRA rank?":                                             "LoRA rank",
		"how do I grab embeddings from a transformer?":                             "embeddings from a transformer",
		"Kaiming He's work on graphs":                                              "Kaiming He graphs",
		"the original transformer paper":                                           "transformer",
		"original GAN paper":                                                       "GAN",
		"first paper on diffusion models":                                          "diffusion models",
		"first order methods paper":                                                "first order methods",
		"10 works on kv cache":                                                     "kv cache",
		"which papers apply LLMs to time series?":                                  "LLMs to time series",
		"papers comparing SAM and ViT":                                             "SAM and ViT",
		// A Slack channel named in the text is where to post, not a topic.
		"diffusion models for #ml-reading":   "diffusion models",
		"ways to detect AI-generated images": "detect AI-generated images",
		// A factor says how much, and is no topic.
		"100x faster diffusion sampling": "faster diffusion sampling",
		"2.5× smaller LLMs":              "smaller LLMs",
		// "point" is a topic word when no one is pointed to.
		"which papers do point cloud segmentation?": "point cloud segmentation",
		// "proving" opens "papers proving ..." but is a topic here.
		"are there any papers that use LLMs for theorem proving": "LLMs for theorem proving",
	} {
		for i, r := range answeredAs(t, ix, q, topic) {
			if m := slices.IndexFunc(r.Matched, func(m string) bool { return slices.Contains(asking, m) }); m >= 0 {
				t.Errorf("%q: result %d %q matched %q", q, i+1, r.Title, r.Matched[m])
			}
		}
	}
}

// A long form typed the way some papers write it finds the papers that use
// only its acronym: "RL from human feedback" is RLHF, not something else.
func TestLongFormFindsItsAcronym(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{"RL from human feedback": "rlhf", "RL with human feedback": "rlhf"})
}

// "Neural nets" is how people say neural networks: the spiking-network
// paper answers "which paper studies spiking neural nets?" (it was
// refused), and the long form's acronym counts ("GNN").
func TestNeuralNetsAreNetworks(t *testing.T) {
	seeds, _ := seedIndex(t)
	topSay(t, seeds, 1, map[string]string{"which paper studies spiking neural nets?": "spiking neural network"})
	topSay(t, bigIndex(t), 3, map[string]string{"graph neural nets for molecules": "molecul", "spiking neural nets": "spiking neural network"})
	for i, r := range topResults(t, bigIndex(t), "graph neural nets for molecules", 3) {
		if !says(r, "graph neural network", "gnn") {
			t.Errorf("graph neural nets for molecules: result %d %q says neither graph neural network nor GNN", i+1, r.Title)
		}
	}
}

// "Batch norm" and "layer norm" are normalizations, not a vector's norm.
func TestNormIsNormalizationAfterBatchOrLayer(t *testing.T) {
	for i, r := range topResults(t, bigIndex(t), "is batch norm still needed in transformers", 3) {
		if !says(r, "batch norm", "batchnorm") {
			t.Errorf("result %d %q says no batch normalization", i+1, r.Title)
		}
	}
}

// Researchers type clipped words in chat: "hparam tuning" finds
// hyperparameter tuning (it was refused), "object det" object detection
// rather than the Det-CGD optimizer, and the card says which word of the
// paper the clipping stood for.
func TestClippedWords(t *testing.T) {
	ix := bigIndex(t)
	topSay(t, ix, 3, map[string]string{"hparam tuning": "hyperparameter", "object det": "detect",
		"image seg with transformers": "segment", "mech interp": "interpretab", "quant of LLMs": "quantiz"})
	// Chat shorthands are their words.
	for typed, words := range map[string]string{"e2e speech recognition": "end-to-end speech recognition",
		"zero shot image classification w/o finetuning": "zero shot image classification without finetuning"} {
		answeredAs(t, ix, typed, words)
	}
	for q, want := range map[string]string{"hparam tuning": "hparam (hyperparameter", "object det": "det (detection)"} {
		r := topResults(t, ix, q, 1)
		if len(r) == 1 && !slices.ContainsFunc(r[0].Matched, func(m string) bool { return strings.HasPrefix(strings.ToLower(m), want) }) {
			t.Errorf("%q: matched %q, want %q", q, r[0].Matched, want)
		}
	}
}

// "with X in the title" is a title filter said in words: it was refused,
// the word "title" unmatched.
func TestTitleInWords(t *testing.T) {
	for i, r := range topResults(t, bigIndex(t), `the paper with "grokking" in the title`, 3) {
		if !strings.Contains(strings.ToLower(r.Title), "grok") {
			t.Errorf("result %d %q has no grokking in its title", i+1, r.Title)
		}
	}
}

// A name written as one CamelCase word is typed apart in Slack: "flash
// attention" listed papers that only say "attention" (and one "flash"),
// never the FlashAttention papers, which bleve's OR of the two words left
// below thirty others. A code name's parts are its words ("flash_attn"
// found nothing at all).
func TestCamelCaseNamesTypedApart(t *testing.T) {
	ix := bigIndex(t)
	topSay(t, ix, 2, map[string]string{"flash attention": "flashattention", "`flash_attn`": "flashattention"})
	topSay(t, ix, 1, map[string]string{"long lora": "longlora"})
	if r := topResults(t, ix, "flash attention", 1); len(r) == 1 && !slices.Contains(r[0].Matched, "flash") {
		t.Errorf("flash attention: matched %q, want flash among them", r[0].Matched)
	}
}

// Short words typed apart find the CamelCase word a paper writes them as:
// "watermark user id" was refused, the watermark paper saying "userID";
// "stealth ink" found nothing, no abstract saying "stealth" or "ink" alone.
func TestCamelCaseWordOfShortWords(t *testing.T) {
	ix, _ := seedIndex(t)
	for q, want := range map[string]string{"stealth ink": "StealthInk", "la cache": "LaCache", "sep llm": "SepLLM"} {
		if r := topResults(t, ix, q, 1); len(r) == 1 && !strings.HasPrefix(r[0].Title, want) {
			t.Errorf("%q: first %q, want %s", q, r[0].Title, want)
		}
	}
	for _, q := range []string{"watermark user id", "watermark user ids", "time stamp watermark"} {
		r := topResults(t, ix, q, 1)
		if len(r) == 1 && (!strings.Contains(r[0].Title, "StealthInk") || !slices.ContainsFunc(r[0].Matched, func(m string) bool { return m == "id" || m == "ids" || m == "stamp" })) {
			t.Errorf("%q: first %q, matched %q; want StealthInk on its userID or TimeStamp", q, r[0].Title, r[0].Matched)
		}
	}
}

// Words typed apart that papers hyphenate after a stop word are the
// hyphenated word: "few shot" listed zero-shot papers second (the analyzer
// drops "few"), "on device" papers on any device.
func TestStopWordLedCompoundsTypedApart(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"few shot":                      "few-shot",
		"few shot learning":             "few-shot",
		"out of distribution detection": "out-of-distribution",
	})
	topSay(t, bigIndex(t), 2, map[string]string{"off policy evaluation": "off-policy"})

	// Papers that write the words apart still have them all: "behavior in
	// the wild" refused the paper on behaviour "in the wild", its "wild"
	// counted for a quarter as if "in-the-wild" had been typed.
	papers := []Paper{
		{ID: "robots", Title: "Robots in-the-wild", Abstract: "In-the-wild robot data."},
		{ID: "faces", Title: "Faces in-the-wild", Abstract: "We detect faces in-the-wild."},
		{ID: "animals", Title: "Animal behavior in the wild", Abstract: "We track how animals behave in the wild."},
	}
	for i := range 8 {
		papers = append(papers, Paper{ID: fmt.Sprint("b", i), Title: fmt.Sprint("On the behavior of optimizers ", i), Abstract: "Their behavior in training."})
	}
	ix := papersIndex(t, papers)
	if r := topResults(t, ix, "behavior in the wild", 1); len(r) == 1 && r[0].ID != "animals" {
		t.Errorf("behavior in the wild: %q first; want the animal behavior paper", r[0].ID)
	}

	// Letters that spell a word of their own are that word: "a version of
	// Adam" matched "aversion" as "a-version".
	res, err := bigIndex(t).Search(t.Context(), Request{Text: "is there a version of Adam that uses less memory?", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res.Results {
		if slices.ContainsFunc(r.Matched, func(m string) bool { return strings.Contains(m, "-") }) {
			t.Errorf("a version of Adam: result %d %q matched %q", i+1, r.Title, r.Matched)
		}
	}
}

// An acronym rarer than the words it stands for does not outweigh the
// other words in bleve's lookup: the papers that write "LMs" filled all
// thirty candidates of "diffusion language models", none about diffusion.
func TestRareAcronymDoesNotCrowdOutTheTopic(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{"diffusion language models": "diffusion"})
}

// A long form's distinctive word alone counts for part of it: the papers on
// unlearning in LLMs write "unlearning", not "machine unlearning", and had
// ranked below papers on machine unlearning of anything else.
func TestDistinctiveWordOfALongForm(t *testing.T) {
	ix := bigIndex(t)
	topSay(t, ix, 3, map[string]string{"machine unlearning for LLMs": "unlearn"})
	topSay(t, ix, 2, map[string]string{"machine unlearning for LLMs": "language model"})
}

// A word typed whole matches a paper that hyphenates it: Sophia's "Language
// Model Pre-training" lacked "pretraining" in "optimizer for language model
// pretraining". Only the two words joined make it: "pretrain" is no
// "pre-training-free".
func TestHyphenatedWordMatchesItWhole(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "sophia", Title: "Sophia: a second-order optimizer for language model pre-training", Abstract: "We speed up pre-training of language models."},
		{ID: "free", Title: "A pre-training-free optimizer", Abstract: "No pretraining needed."},
		{ID: "whole", Title: "In-context pretraining", Abstract: "Pretraining on related documents."},
		{ID: "other", Title: "Graph neural networks", Abstract: "We study message passing on well-known graphs."},
	})
	for _, c := range []struct {
		q, id, word string
		want        bool
	}{
		{"optimizer pretraining", "sophia", "pretraining", true},
		{"secondorder optimizer", "sophia", "secondorder", true},
		{"pretrain optimizer", "free", "pretrain", true}, // its abstract says it whole
		{"trainingfree optimizer", "free", "trainingfree", false},
	} {
		res, err := ix.Search(t.Context(), Request{Text: c.q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Results {
			if r.ID == c.id && slices.Contains(r.Matched, c.word) != c.want {
				t.Errorf("%q: %s matched %q; %q among them: want %v", c.q, r.ID, r.Matched, c.word, c.want)
			}
		}
	}
}

// A word most papers use is left out of bleve's lookup, but not beside the
// word typed next to it: "training-free" looked up as "free" alone listed
// "Tuning-Free" and "Reward-Free" papers above those that are training-free.
func TestUbiquitousWordBesideItsNeighbour(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"training-free": "training-free",
		"training free": "training-free",
	})
}

// A word that frames requests ("anything", "like", "show") is a name's when
// typed in capitals after another capitalised word: "Segment Anything" is
// the model, and listed segmentation papers when "Anything" was dropped.
func TestMetaWordInACapitalisedName(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{
		"Segment Anything": "segment anything",
		"which papers fine-tune Segment Anything for medical images?": "segment anything",
	})
	for words, want := range map[string]bool{"Any papers": true, "Segment Anything": false, "segment anything": true, "What Anything": true, "QA. Papers": true} {
		cs := []query.Clause{}
		for _, w := range strings.Fields(words) {
			cs = append(cs, query.Clause{Text: w})
		}
		if got := query.MetaWordAt(cs, len(cs)-1, false); got != want {
			t.Errorf("%q: last word a meta word %v, want %v", words, got, want)
		}
	}
}

// "latest", "newest" and "recent" ask for the newest papers first; no
// abstract is about being recent, so they are not searched ("newest GNN
// papers" was refused for want of "newest").
func TestNewestFirst(t *testing.T) {
	var papers []Paper
	for i, y := range []int{2018, 2024, 2019, 2025, 2021} {
		papers = append(papers, Paper{ID: fmt.Sprintf("gnn%d", y), Year: y, Title: fmt.Sprintf("Graph neural networks study %d", i),
			Abstract: "We study graph neural networks on molecules and citation graphs."})
	}
	papers = append(papers, Paper{ID: "other2026", Year: 2026, Title: "Neural networks for speech", Abstract: "Speech recognition with neural networks."})
	for i := range 10 {
		papers = append(papers, Paper{ID: fmt.Sprintf("filler%d", i), Year: 2020, Title: fmt.Sprintf("Kernel methods %d", i), Abstract: "Kernels for regression and classification."})
	}
	ix := papersIndex(t, papers)
	for _, q := range []string{"latest graph neural networks papers", "newest papers on graph neural networks", "graph neural networks, most recent first",
		"what's new in graph neural networks?", "anything new on graph neural networks", "what is new in graph neural networks"} {
		var got []string
		for _, r := range topResults(t, ix, q, 5) {
			got = append(got, r.ID)
		}
		if want := []string{"gnn2025", "gnn2024", "gnn2021", "gnn2019", "gnn2018"}; !slices.Equal(got, want) {
			t.Errorf("%q: %v, want the graph neural network papers newest first %v", q, got, want)
		}
	}
	// Over the ML corpora the recency word is no topic to match.
	for _, q := range []string{"newest GNN papers", "Sergey Levine latest"} {
		for i, r := range topResults(t, bigIndex(t), q, 3) {
			if r.Year < 2024 {
				t.Errorf("%q: result %d %q is from %d", q, i+1, r.Title, r.Year)
			}
		}
	}
}

// bleve scores a group by all its alternatives together, so "LMs" (the
// acronym, and "language models" in titles) filled every candidate of
// "diffusion LMs" with language-model papers; the papers that have both
// words are looked up on their own.
func TestEveryWordAmongTheCandidates(t *testing.T) {
	topSay(t, bigIndex(t), 3, map[string]string{"diffusion LMs": "diffusion"})
}

// An acronym the user did not type is found as written, in capitals: the
// SPIN of "self-play fine-tuning" is no "pen spinning", and a paper that
// has only that (bleve finds the stem) is not listed.
func TestAcronymOfALongFormIsWrittenInCapitals(t *testing.T) {
	for i, r := range topResults(t, bigIndex(t), "self-play fine-tuning", 10) {
		if m := slices.IndexFunc(r.Matched, func(m string) bool { return strings.Contains(m, "spinning") }); m >= 0 || len(r.Matched) == 0 {
			t.Errorf("result %d %q matched %q", i+1, r.Title, r.Matched)
		}
	}
}

// Results name the query's words none of the listed papers has: the papers
// on summarizing other documents are no answer on legal ones, and their
// cards said only what they matched.
func TestMissingWordsAreNamed(t *testing.T) {
	seeds, _ := seedIndex(t)
	for q, want := range map[string][]string{
		"legal kv cache compression":        {"legal"},
		"kv cache compression in hospitals": {"hospitals"},
		"kv cache compression":              nil,
		"kv cache compression 2025":         nil, // a year is the papers', not their words
		// In a long message some words are bound to be missing.
		"kv cache compression for our mostly memory-bound hospital decode servers": nil,
	} {
		res, err := seeds.Search(t.Context(), Request{Text: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if res.NoMatch || !slices.Equal(res.Missing, want) {
			t.Errorf("%q: no_match %v, missing %q, want %q", q, res.NoMatch, res.Missing, want)
		}
	}
	res, err := bigIndex(t).Search(t.Context(), Request{Text: "legal document summarization", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Missing, []string{"legal"}) {
		t.Errorf("legal document summarization: missing %q, want [legal]", res.Missing)
	}
	// What the asker wants to do is no topic the papers lack.
	if res, err := bigIndex(t).Search(t.Context(), Request{Text: "how do I stop reward hacking?", Limit: 3}); err != nil || len(res.Missing) > 0 {
		t.Errorf("how do I stop reward hacking?: missing %q (%v)", res.Missing, err)
	}
	for _, r := range res.Results {
		if says(r, "legal") {
			t.Errorf("%q says legal, yet legal is listed as missing", r.Title)
		}
	}
}

// "know" frames a question when people know ("does anyone know …"); with
// another subject it is the topic: "do LLMs know when they don't know?"
// listed LLM papers of every kind.
func TestKnowWithAnotherSubjectIsTheTopic(t *testing.T) {
	topSay(t, bigIndex(t), 1, map[string]string{"do LLMs know when they don't know?": "know what they don't know"})
}

// The papers of a year or venue the query names come first among those
// that have all of its text: counted like a title word, "2025" left the
// 2025 paper on KV caches below papers of 2024 that repeat "KV cache".
func TestAskedYearsFirst(t *testing.T) {
	var papers []Paper
	for i := range 4 {
		papers = append(papers, Paper{ID: fmt.Sprintf("kv2024-%d", i), Year: 2024, Venue: "ICML 2024", Title: fmt.Sprintf("KV cache eviction %d", i),
			Abstract: "The KV cache grows with context. We compress the KV cache, evict KV cache entries and quantize the KV cache."})
	}
	papers = append(papers, Paper{ID: "kv2025", Year: 2025, Venue: "ICML 2025", Title: "Separators for long context",
		Abstract: "Language models read long documents slowly, and their memory grows with every token they read. " +
			"We compress segments of text into separator tokens, train models to attend to them, and evaluate on many " +
			"benchmarks of reasoning, retrieval and summarization, where the smaller KV cache costs little accuracy."})
	for i := range 10 {
		papers = append(papers, Paper{ID: fmt.Sprintf("filler%d", i), Year: 2020, Title: fmt.Sprintf("Kernel methods %d", i), Abstract: "Kernels for regression and classification."})
	}
	ix := papersIndex(t, papers)
	for _, q := range []string{"ICML 2025 papers on KV cache"} {
		got := topResults(t, ix, q, 5)
		if len(got) < 5 || got[0].ID != "kv2025" {
			t.Errorf("%q: %v, want kv2025 first", q, ids(got))
		}
	}
}

// A name typed in mixed case is found as written: "RoPE" listed "Roping in
// Uncertainty", a paper on Markov games.
func TestMixedCaseNameAsWritten(t *testing.T) {
	res, err := bigIndex(t).Search(t.Context(), Request{Text: "RoPE", Limit: 10})
	if err != nil || res.NoMatch || len(res.Results) < 3 {
		t.Fatalf("RoPE: %v, %+v", err, res)
	}
	for i, r := range res.Results {
		if text := r.Title + " " + r.Abstract; !strings.Contains(text, "RoPE") && !strings.Contains(strings.ToLower(text), "rotary") {
			t.Errorf("result %d %q has neither RoPE nor rotary", i+1, r.Title)
		}
	}
}

// A count before "papers" (or "works", "refs") is the number of papers
// asked for; a number in the topic is not.
func TestAskedCount(t *testing.T) {
	for q, want := range map[string]int{
		"Give me 5 papers on world models": 5,
		"10 works on kv cache":             10,
		"top 3 papers on diffusion":        3,
		"papers on 3d vision":              0,
		"5 tips for training GANs":         0,
		"GPT 4 papers":                     0,
		"find Llama 3 papers":              0,
		"Top 3 papers on RLHF":             3,
		"Show me 2 papers on LoRA":         2,
		"kv cache":                         0,
	} {
		pq, err := ParseQuery(q)
		if err != nil {
			t.Fatalf("ParseQuery(%q): %v", q, err)
		}
		if got := pq.AskedCount(); got != want {
			t.Errorf("ParseQuery(%q).AskedCount() = %d, want %d", q, got, want)
		}
	}
}

// The numbers of a list typed in a message ("1. … 2. …", "(1) …") are no
// topic; a version after a name is ("Llama 2. Is it open?").
func TestListNumbersAreNoTopic(t *testing.T) {
	ix, _ := seedIndex(t)
	for q, numbers := range map[string]bool{
		"1. kv cache compression 2. speculative decoding": false,
		"(1) kv cache (2) watermarks":                     false,
		"what is Llama 2. is it open":                     true,
	} {
		res, err := ix.Search(t.Context(), Request{Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range res.Results {
			found = found || slices.ContainsFunc(r.Matched, func(m string) bool { return m == "1" || m == "2" })
		}
		if found != numbers {
			t.Errorf("%q: a result matched a list number: %v, want %v", q, found, numbers)
		}
	}
}

// A year typed short after a venue ("ICML'25", "NeurIPS '24") is the year:
// searched as "25" it matched numbers in abstracts.
func TestShortYearIsTheYear(t *testing.T) {
	ix := bigIndex(t)
	for q, topic := range map[string]string{
		"any ICML'25 work on MLIPs":             "any ICML 2025 work on MLIPs",
		"NeurIPS '24 papers on diffusion":       "NeurIPS 2024 papers on diffusion",
		"ICLR’24 papers on in-context learning": "ICLR 2024 papers on in-context learning",
	} {
		answeredAs(t, ix, q, topic)
	}
}

// "working" asks in "who's working on …", and is the topic in "working
// memory".
func TestWorkingMemoryIsATopic(t *testing.T) {
	ix := bigIndex(t)
	res, err := ix.Search(t.Context(), Request{Text: "what is working memory?", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res.Results {
		if !slices.Contains(r.Matched, "working") {
			t.Errorf("what is working memory?: result %d %q matched %v, not \"working\"", i+1, r.Title, r.Matched)
		}
	}
}

// An asking word that names the topic with its neighbour is searched:
// "what is beam search?" searched "beam" alone, and "what papers are
// there on recommendation systems?" found dynamical systems.
func TestAskingWordsInATopicsName(t *testing.T) {
	ix := bigIndex(t)
	for q, want := range map[string]struct{ topic, word string }{
		"what papers are there on recommendation systems?":           {"recommendation systems", "recommendation"},
		"what is neural architecture search?":                        {"neural architecture search", "search"},
		"any work on reading comprehension?":                         {"reading comprehension", "reading"},
		"papers on claim verification?":                              {"claim verification", "claim"},
		"what is beam search?":                                       {"beam search", "search"},
		"who worked on code search?":                                 {"code search", "search"},
		"what are good papers on decision making under uncertainty?": {"decision making under uncertainty", "making"},
		"which papers study the reparameterization trick?":           {"reparameterization trick", "trick"},
		"is attention all you need?":                                 {"attention all you need", "need"},
		"any work on operations research for scheduling?":            {"operations research for scheduling", "research"},
	} {
		if rs := answeredAs(t, ix, q, want.topic); len(rs) == 0 || !slices.ContainsFunc(rs[0].Matched, func(m string) bool { return strings.Contains(m, want.word) }) {
			t.Errorf("%q: the first result did not match %q", q, want.word)
		}
	}
}

// "without", "beyond" and the like are searched, but a paper lacking one
// lacks no topic: cards do not say no paper has "without".
func TestFunctionWordsNeverMissing(t *testing.T) {
	ix := bigIndex(t)
	for _, q := range []string{"speech generation beyond English", "diffusion instead of autoregressive decoding", "retrieval among long documents"} {
		res, err := ix.Search(t.Context(), Request{Text: q, Limit: 3})
		if err != nil || res.NoMatch {
			t.Fatalf("%q: refused or failed (%v)", q, err)
		}
		if slices.ContainsFunc(res.Missing, func(w string) bool { return functionWords[strings.ToLower(w)] }) {
			t.Errorf("%q: says no paper has %q", q, res.Missing)
		}
	}
}
