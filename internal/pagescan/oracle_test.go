package pagescan

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// treeLinks finds the links in a page the slow and sure way, to check
// [HTML] against: it builds the whole tree of the page, decoded, with
// x/net/html's parser, scripting disabled, and walks it. The links come in tree order, and an
// element the parser cloned (the adoption agency does) counts each time it
// appears. It fails where the parser does, on a page nested deeper than
// 512 elements.
func treeLinks(pageURL string, page []byte) ([]string, error) {
	d := decode(page, "")
	doc, err := html.ParseWithOptions(bytes.NewReader(d.text), html.ParseOptionEnableScripting(false))
	if err != nil {
		return nil, err
	}
	var (
		base      = pageURL
		haveBase  bool
		refreshed bool
		links     []link
	)
	add := func(ref string, resolveNow bool) {
		if !resolveNow {
			links = append(links, link{ref: cleanHref([]byte(ref))})
		} else if u, ok := resolveLink(base, cleanHref([]byte(ref)), d.query); ok {
			links = append(links, link{ref: u, resolved: true})
		} else {
			links = append(links, link{ref: cleanHref([]byte(ref)), resolved: true})
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			attr := func(ns, key string) (string, bool) {
				for _, a := range n.Attr {
					if a.Namespace == ns && a.Key == key {
						return a.Val, true
					}
				}
				return "", false
			}
			switch {
			case n.Namespace == "" && n.DataAtom == atom.Template:
				return // its contents are not in the document
			case n.Namespace == "" && (n.DataAtom == atom.A || n.DataAtom == atom.Area):
				if href, ok := attr("", "href"); ok {
					add(href, false)
				}
			case n.Namespace == "svg" && n.Data == "a":
				if href, ok := attr("", "href"); ok {
					add(href, false)
				} else if href, ok := attr("xlink", "href"); ok {
					add(href, false)
				}
			case n.Namespace == "" && n.DataAtom == atom.Base:
				if href, ok := attr("", "href"); ok && !haveBase {
					haveBase = true
					if u, ok := resolveLink(pageURL, cleanHref([]byte(href)), d.query); ok &&
						!strings.HasPrefix(strings.ToLower(u), "data:") &&
						!strings.HasPrefix(strings.ToLower(u), "javascript:") {
						base = u
					}
				}
			case n.Namespace == "" && (n.DataAtom == atom.Iframe || n.DataAtom == atom.Frame):
				_, srcdoc := attr("", "srcdoc")
				if src, _ := attr("", "src"); src != "" && !(n.DataAtom == atom.Iframe && srcdoc) {
					add(src, true)
				}
			case n.Namespace == "" && n.DataAtom == atom.Meta && !refreshed:
				equiv, _ := attr("", "http-equiv")
				content, _ := attr("", "content")
				if !strings.EqualFold(equiv, "refresh") || content == "" {
					break
				}
				if ref, hasURL, ok := parseRefresh(content); ok && !hasURL {
					refreshed = true
				} else if _, resolves := resolveLink(base, cleanHref([]byte(ref)), d.query); ok && resolves {
					refreshed = true
					add(ref, true)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	var out []string
	for _, l := range links {
		if l.resolved {
			out = append(out, l.ref)
		} else if u, ok := resolveLink(base, l.ref, d.query); ok {
			out = append(out, u)
		} else {
			out = append(out, l.ref)
		}
	}
	return out, nil
}

// foreignLookalike reports whether x/net/html's tree for page has an SVG or
// MathML element named like an HTML table part, frameset, head or body.
// When the parser resets its insertion mode it takes such an element for
// HTML's, unlike the standard, and parses what follows in the wrong mode.
func foreignLookalike(page []byte) bool {
	doc, err := html.ParseWithOptions(bytes.NewReader(page), html.ParseOptionEnableScripting(false))
	if err != nil {
		return false
	}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Namespace != "" {
			switch n.DataAtom {
			case atom.Td, atom.Th, atom.Tr, atom.Tbody, atom.Thead, atom.Tfoot, atom.Caption,
				atom.Colgroup, atom.Table, atom.Frameset, atom.Head, atom.Body, atom.Html:
				return true
			}
		}
	}
	return false
}
