// Package seen remembers the URLs a crawl has already met, so that no page
// is queued twice. It is the design's "hashtable" of URLs.
//
// A crawl never forgets a URL, so the set is most of a crawl's memory. A
// URL costs its own bytes (rounded up to the allocator's size class: 80 for
// a URL of 65 to 80 bytes), which the crawler shares with the bag, and 35
// to 56 bytes of map, as the map's load swings between its splits: a slot
// of a map[string]struct{} takes 24 bytes, not 16, since Go pads an empty
// last field (go.dev/issue/71368).
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

// Has reports whether s is in the set.
func (set *Set) Has(s string) bool {
	_, ok := set.m[s]
	return ok
}
