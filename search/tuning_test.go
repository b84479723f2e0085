package search

import "testing"

// Every name the eval command's help lists changes its own parameter, and
// no other name is taken.
func TestTuningSetEveryName(t *testing.T) {
	seen := map[Tuning]string{DefaultTuning(): "default"}
	for _, name := range TuningNames() {
		tu := DefaultTuning()
		value := "7"
		if name == "answer-cues" && tu.AnswerCues {
			value = "0"
		}
		if err := tu.Set(name, value); err != nil {
			t.Fatalf("Set(%q): %v", name, err)
		}
		if other, ok := seen[tu]; ok {
			t.Errorf("Set(%q, %s) gives the same parameters as %s", name, value, other)
		}
		seen[tu] = name
	}
	tu := DefaultTuning()
	if err := tu.Set("nearby", "1"); err == nil {
		t.Error(`Set("nearby") took a name no parameter has`)
	}
	if err := tu.Set("near", "far"); err == nil {
		t.Error(`Set("near", "far") took a value that is no number`)
	}
}
