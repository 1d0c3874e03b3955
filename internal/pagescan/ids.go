package pagescan

import "golang.org/x/net/html/atom"

// insertsOwn reports whether a tag in the document inserts an element
// where opens, called after it, reports that it does not open one of its
// name: an <svg> or a <math>, a <frameset> that replaces the body, a
// <form> that a table closes at once, and a <head> before anything else
// but <html>.
func (t *tree) insertsOwn(g *tag) bool {
	switch g.atom {
	case atom.Svg, atom.Math:
		return true
	case atom.Frameset:
		return !t.bodyStarted || t.framesetOK
	case atom.Form:
		return !t.form && t.inTable()
	case atom.Head:
		return !t.pastHead && !t.bodyStarted
	}
	return false
}

// htmlIDs notes the id, and the name of an <a>, of a tag in HTML in the
// document that inserts an element if inserted. An <html> or a <body>
// tag adds its id to the element, if the element has none.
func (t *tree) htmlIDs(g *tag, inserted bool) {
	switch {
	case g.atom == atom.Html || g.atom == atom.Body:
		t.mergedID(g)
	case inserted:
		t.noteID(g, g.atom == atom.A)
	}
	if g.atom != atom.Html {
		// The head is there now, implied if not by this tag.
		t.pastHead = true
	}
}

// mergedID notes the id of an <html> or a <body> tag, unless the element
// has one already.
func (t *tree) mergedID(g *tag) {
	have := &t.haveBodyID
	if g.atom == atom.Html {
		have = &t.haveHTMLID
	}
	if *have {
		return
	}
	id, ok := g.get("id")
	if !ok {
		return
	}
	*have = true
	if g.atom == atom.Html {
		t.htmlID = string(id)
	} else if len(id) > 0 {
		t.ids = append(t.ids, string(id))
	}
}

// noteID notes the tag's id, and its name if anchor, which a fragment
// can name: an element with an empty id has none.
func (t *tree) noteID(g *tag, anchor bool) {
	if id, ok := g.get("id"); ok && len(id) > 0 {
		t.ids = append(t.ids, string(id))
	}
	if !anchor {
		return
	}
	if name, ok := g.get("name"); ok && len(name) > 0 {
		t.ids = append(t.ids, string(name))
	}
}
