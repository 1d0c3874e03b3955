package job

// moreSeeds returns the seeds the crawl takes after its seed: for a crawl
// that resumes one that journaled them, the journal's, so that it goes on
// as it began whatever changed meanwhile; else the settings', which it
// journals before the crawl takes its first page. A crawl without any
// journals nothing, so that its journal is what it always was.
func (j *Job) moreSeeds() ([]string, error) {
	r := j.replay
	if r != nil && r.HasSeeds {
		return r.Seeds, nil
	}
	seeds := j.cfg.MoreSeeds
	// A crawl that took pages without journaling seeds had none: the
	// options in its journal's header said so.
	if seeds == nil || r != nil && (len(r.Entries) > 0 || len(r.Requisites) > 0) {
		return nil, nil
	}
	if err := j.dir.RecordSeeds(seeds); err != nil {
		return nil, err
	}
	return seeds, nil
}
