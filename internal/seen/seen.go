// Package seen remembers the URLs a crawl has already met, so that no page
// is queued twice. It is the design's "hashtable" of URLs.
package seen

// A Set is a set of strings. The zero value is an empty set. A Set is not
// safe for concurrent use.
type Set struct {
	m map[string]struct{}
}

// Add adds s to the set and reports whether it was new.
func (set *Set) Add(s string) bool {
	if _, ok := set.m[s]; ok {
		return false
	}
	if set.m == nil {
		set.m = make(map[string]struct{})
	}
	set.m[s] = struct{}{}
	return true
}

// Contains reports whether s is in the set.
func (set *Set) Contains(s string) bool {
	_, ok := set.m[s]
	return ok
}

// Len returns the number of strings in the set.
func (set *Set) Len() int { return len(set.m) }
