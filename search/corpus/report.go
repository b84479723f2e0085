package corpus

// Report is what a load found besides the papers themselves: how many it
// kept, and what it skipped, dropped and read.
type Report struct {
	Papers     int
	Skipped    int
	Problems   []string
	Duplicates int
	Files      []string
}

// Report describes c.
func (c *Corpus) Report() Report {
	return Report{Papers: len(c.Papers), Skipped: c.Skipped, Problems: c.Problems, Duplicates: c.Duplicates, Files: c.Files}
}

// Report describes s.
func (s *Spool) Report() Report {
	return Report{Papers: s.count, Skipped: s.Skipped, Problems: s.Problems, Duplicates: s.Duplicates, Files: s.Files}
}
