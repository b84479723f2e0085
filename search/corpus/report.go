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

// Len returns the number of papers.
func (c *Corpus) Len() int { return len(c.Papers) }

// Each calls fn with every paper in order; fn must not keep p. An error
// from fn stops it and is returned.
func (c *Corpus) Each(fn func(p *Paper) error) error {
	for i := range c.Papers {
		if err := fn(&c.Papers[i]); err != nil {
			return err
		}
	}
	return nil
}
