package pagescan

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// treeRequisites finds the requisites of a page the slow and sure way, to
// check [Requisites] against, as treeLinks does for links: it builds the
// page's tree with x/net/html's parser, scripting disabled, and walks it,
// resolving each URL against the first <base> met so far in tree order.
// The requisites come in tree order: a <style>'s after what its children
// load. It fails where the parser does, on a page nested deeper than 512
// elements.
func treeRequisites(pageURL string, page []byte) ([]string, error) {
	d := decode(page, "")
	doc, err := html.ParseWithOptions(bytes.NewReader(d.text), html.ParseOptionEnableScripting(false))
	if err != nil {
		return nil, err
	}
	w := requisiteWalk{pageURL: pageURL, base: pageURL, d: d}
	w.walk(doc)
	return w.out, nil
}

type requisiteWalk struct {
	pageURL, base string
	haveBase      bool
	d             document
	out           []string
}

func (w *requisiteWalk) add(ref string) {
	if ref = cleanHref([]byte(ref)); ref == "" {
		return
	}
	if u, ok := requisiteURL(w.base, ref, w.d.query); ok {
		w.out = append(w.out, u)
	}
}

// css adds what CSS text loads, as cssURLs finds it: the candidates of an
// image-set() a browser could pick, as in Requisites (see TestCSSPicks).
func (w *requisiteWalk) css(text string, sheet bool) {
	cssURLs(text, sheet, func(ref string) {
		if u, ok := requisiteURL(w.base, ref, w.d.query); ok {
			w.out = append(w.out, u)
		}
	})
}

func (w *requisiteWalk) walk(n *html.Node) {
	if n.Type == html.ElementNode {
		if n.Namespace == "" && n.DataAtom == atom.Template {
			return // its contents are not in the document
		}
		w.element(n)
	}
	for c := range n.ChildNodes() {
		w.walk(c)
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Style && (n.Namespace == "" || n.Namespace == "svg") {
		var text strings.Builder
		for c := range n.ChildNodes() {
			if c.Type == html.TextNode {
				text.WriteString(c.Data)
			}
		}
		w.css(text.String(), true)
	}
}

// element notes what an element loads, attribute by attribute.
func (w *requisiteWalk) element(n *html.Node) {
	attr := func(ns, key string) (string, bool) {
		for _, a := range n.Attr {
			if a.Namespace == ns && a.Key == key {
				return a.Val, true
			}
		}
		return "", false
	}
	if n.Namespace == "" && n.DataAtom == atom.Base && !w.haveBase {
		if href, ok := attr("", "href"); ok {
			w.haveBase = true
			if u, ok := resolveLink(w.pageURL, cleanHref([]byte(href)), w.d.query); ok &&
				!strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "javascript:") {
				w.base = u
			}
		}
	}
	isURL := w.urlAttrs(n, attr)
	for _, a := range n.Attr {
		switch {
		case a.Namespace == "" && a.Key == "style":
			w.css(a.Val, false)
		case isURL(a) == 1:
			w.add(a.Val)
		case isURL(a) == 2:
			// The candidates a browser could pick, as Requisites finds
			// them, not every one: the walk checks where srcsets are,
			// and TestSrcsetPicks which of their candidates count.
			srcsetURLs([]byte(a.Val), func(u []byte) { w.add(string(u)) }, nil)
		}
	}
}

// urlAttrs returns a function that says of an attribute of n whether it
// holds a URL (1) or a srcset (2), written afresh from the list in
// Requisites's documentation.
func (w *requisiteWalk) urlAttrs(n *html.Node, attr func(ns, key string) (string, bool)) func(html.Attribute) int {
	p := n.Parent
	media := p != nil && p.Type == html.ElementNode && p.Namespace == "" && (p.DataAtom == atom.Video || p.DataAtom == atom.Audio)
	picture := p != nil && p.Type == html.ElementNode && p.Namespace == "" && p.DataAtom == atom.Picture
	named := func(urls ...string) func(html.Attribute) int {
		return func(a html.Attribute) int {
			for _, u := range urls {
				if a.Namespace == "" && a.Key == u {
					return 1
				}
			}
			return 0
		}
	}
	none := named()
	if n.Namespace == "svg" && (n.Data == "image" || n.Data == "script" || n.Data == "use" || n.Data == "feImage") {
		// A URL that is only a fragment points into the document.
		local := func(a html.Attribute) bool { return strings.HasPrefix(strings.TrimLeft(a.Val, " \t\n\f\r"), "#") }
		if _, ok := attr("", "href"); ok {
			return func(a html.Attribute) int {
				if a.Namespace == "" && a.Key == "href" && !local(a) {
					return 1
				}
				return 0
			}
		}
		return func(a html.Attribute) int {
			if a.Namespace == "xlink" && a.Key == "href" && !local(a) {
				return 1
			}
			return 0
		}
	}
	if n.Namespace != "" {
		return none
	}
	switch n.DataAtom {
	case atom.Img:
		return func(a html.Attribute) int {
			return map[string]int{"src": 1, "srcset": 2}[a.Key]
		}
	case atom.Script, atom.Embed, atom.Audio:
		return named("src")
	case atom.Video:
		return named("src", "poster")
	case atom.Object:
		return named("data")
	case atom.Iframe:
		if _, ok := attr("", "srcdoc"); !ok {
			return named("src")
		}
	case atom.Frame:
		return named("src")
	case atom.Source:
		if media {
			return named("src")
		}
		if picture {
			return func(a html.Attribute) int { return map[string]int{"srcset": 2}[a.Key] }
		}
	case atom.Track:
		if media {
			return named("src")
		}
	case atom.Input:
		if typ, _ := attr("", "type"); strings.ToLower(typ) == "image" {
			return named("src")
		}
	case atom.Body, atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Tr, atom.Td, atom.Th:
		return named("background")
	case atom.Link:
		rel, _ := attr("", "rel")
		kind := map[string]int{}
		asciiSpace := func(r rune) bool { return strings.ContainsRune(" \t\n\f\r", r) }
		for _, word := range strings.FieldsFunc(strings.ToLower(rel), asciiSpace) {
			switch word {
			case "stylesheet", "icon", "apple-touch-icon", "apple-touch-icon-precomposed", "manifest", "modulepreload":
				kind["href"] = 1
			case "preload":
				kind["href"], kind["imagesrcset"] = 1, 2
			}
		}
		return func(a html.Attribute) int { return kind[a.Key] }
	}
	return none
}
