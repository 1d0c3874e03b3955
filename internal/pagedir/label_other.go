//go:build !linux

package pagedir

// SetLabel would store data in an extended attribute of the marker; this
// system has no portable way to, so it reports false.
func (d *Dir) SetLabel(data []byte) bool { return false }

// Label returns nothing: see SetLabel.
func (d *Dir) Label() ([]byte, bool) { return nil, false }
