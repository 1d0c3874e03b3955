package pagescan_test

import (
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagescan"
)

// TestLongTokens scans pages with a token longer than the bound on what the
// tokenizer may hold, set to 64 bytes, and checks that the scan goes on past
// it, in the state a browser's parser is in there, so that nothing in a
// comment, a script or a quoted value reads as a link.
func TestLongTokens(t *testing.T) {
	long := strings.Repeat(" ", 100)
	fake := `<a href=fake.html><img src=fake.png>`
	tests := []struct {
		name, page string
		links      []string
		reqs       []string
	}{
		{"text", `<a href=a.html>` + long + `<a href=b.html>`, inDir("a.html", "b.html"), nil},
		{"text up to a tag the bound cuts", `<a href=a.html>` + long[:49] + `<a href=b.html>`, inDir("a.html", "b.html"), nil},
		{"text with a '<' early in it", `x<` + long + `<a href=b.html>`, inDir("b.html"), nil},
		{"a comment", `<!--` + long + fake + `--><a href=b.html>`, inDir("b.html"), nil},
		{"a comment never closed", `<a href=a.html><!--` + long + fake, inDir("a.html"), nil},
		{"a doctype", `<!DOCTYPE html` + long + `><a href=b.html>`, inDir("b.html"), nil},
		{"a bogus comment", `<?` + long + `><a href=b.html>`, inDir("b.html"), nil},
		{"a script", `<script>` + long + fake + `</script><a href=b.html>`, inDir("b.html"), nil},
		{"a script cut in its end tag", `<script>` + long[:60] + `</script><a href=b.html>`, inDir("b.html"), nil},
		{"a title", `<title>` + long + fake + `</title><a href=b.html>`, inDir("b.html"), nil},
		{"a textarea", `<textarea>` + long + fake + `</textarea><a href=b.html>`, inDir("b.html"), nil},
		{"plaintext", `<a href=a.html><plaintext>` + long + fake, inDir("a.html"), nil},
		{"a style", `<style>` + long + `x{background: url(lost.png)}</style><style>x{background: url(bg.png)}</style><a href=b.html>`, inDir("b.html"), inDir("bg.png")},
		{"a style in any case, ended by an end tag with attributes", `<style>` + long + `</stylex></STYLE class=x><a href=b.html>`, inDir("b.html"), nil},
		{"a script never closed", `<a href=a.html><script>` + long + fake, inDir("a.html"), nil},
		{"text ended by an end tag", long + `</p><a href=b.html>`, inDir("b.html"), nil},
		{"text with '<' that begins no markup", long + `< 3 <3 <<a href=b.html>`, inDir("b.html"), nil},
		{"noscript holds markup", `<noscript>` + long + `<a href=b.html></noscript>`, inDir("b.html"), nil},
		{"an SVG title holds markup", `<svg><title>` + long + `<a href=b.html></a></title></svg>`, inDir("b.html"), nil},
		{"a tag with '>' in a quoted value", `<img alt="` + long + `>` + fake + `"><a href=b.html>`, inDir("b.html"), nil},
		{"a tag with a value quoted after spaces", `<img alt = '` + long + `>` + fake + `'><a href=b.html>`, inDir("b.html"), nil},
		{"an end tag", `</p class="` + long + `>` + fake + `"><a href=b.html>`, inDir("b.html"), nil},
		{"the long tag's own link is lost", `<a title="` + long + `" href=lost.html><a href=b.html>`, inDir("b.html"), nil},
		{"CDATA in SVG", `<svg><![CDATA[` + long + `>` + fake + `]]><a href=b.html></a></svg>`, inDir("b.html"), nil},
		{"CDATA outside foreign content is a bogus comment", `<![CDATA[` + long + `><a href=b.html>]]>`, inDir("b.html"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rd := pagescan.WithMaxToken(64).Read(index, []byte(tt.page), "", pagescan.What{Links: true, Requisites: true})
			links, reqs := rd.Links, rd.Requisites
			if !slices.Equal(links, tt.links) || !slices.Equal(reqs, tt.reqs) {
				t.Errorf("links %q, requisites %q; want %q, %q", links, reqs, tt.links, tt.reqs)
			}
		})
	}
}

// TestLongTokensRegion checks that a region's bounds stay where they are in
// the page when a long token comes before them.
func TestLongTokensRegion(t *testing.T) {
	page := `<a href=a.html><!--` + strings.Repeat("x", 100) + `--><h1>x</h1><a href=b.html><h2>`
	r := &pagescan.Region{From: []byte("<h1>x</h1>"), Until: []byte("<h2>"), Scanner: pagescan.WithMaxToken(64)}
	var links []string
	r.Scan(index, []byte(page), func(u string) { links = append(links, u) })
	if want := inDir("b.html"); !slices.Equal(links, want) {
		t.Errorf("links %q, want %q", links, want)
	}
}

// FuzzLongTokens scans any page with a bound of 32 bytes on a token: it
// must end, and find what the unbounded scan finds on every page where it
// cut no token.
func FuzzLongTokens(f *testing.F) {
	for _, tt := range requisiteTests {
		f.Add([]byte(tt.html))
	}
	f.Add([]byte(`<svg><![CDATA[` + strings.Repeat("x", 40) + `]]><a href=b></a></svg><script>` + strings.Repeat("<", 40)))
	f.Fuzz(func(t *testing.T, page []byte) {
		scan := func(h *pagescan.HTML) (links, reqs []string) {
			rd := h.Read(index, page, "", pagescan.What{Links: true, Requisites: true})
			return rd.Links, rd.Requisites
		}
		h := pagescan.WithMaxToken(32)
		links, reqs := scan(h)
		if pagescan.Cut(h) {
			return
		}
		if wantLinks, wantReqs := scan(new(pagescan.HTML)); !slices.Equal(links, wantLinks) || !slices.Equal(reqs, wantReqs) {
			t.Fatalf("bounded scan of %q found %q, %q; unbounded %q, %q", page, links, reqs, wantLinks, wantReqs)
		}
	})
}
