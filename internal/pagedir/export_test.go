package pagedir

// Count and Label let the black-box tests see what only Begin reads.

func (d *Dir) Count() (int, error)   { return d.count() }
func (d *Dir) Label() ([]byte, bool) { return d.label() }
