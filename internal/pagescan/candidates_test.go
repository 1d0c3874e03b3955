package pagescan_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagescan"
)

// TestSrcsetPicks checks which candidates of an srcset count: those a
// browser picks at DPR 1 and 2, for a source size of 1920 px and of the
// narrowest width candidate, in order, each once.
func TestSrcsetPicks(t *testing.T) {
	tests := []struct {
		name, srcset string
		want         []string
		skipped      int
	}{
		{"one", "a.png", []string{"a.png"}, 0},
		{"1x and 2x", "a.png 1x, b.png 2x", []string{"a.png", "b.png"}, 0},
		{"densities: the least at or above 1 and 2", "c.png 3x, a.png 1x, h.png 1.5x, b.png 2x, q.png 0.5x",
			[]string{"a.png", "b.png"}, 3},
		{"densities all below: the densest", "a.png 0.5x, b.png 0.75x, c.png 0.25x", []string{"b.png"}, 2},
		{"densities between", "a.png 1.5x, b.png 3x", []string{"a.png", "b.png"}, 0},
		{"no descriptor is 1x", "a.png, b.png 2x, c.png 4x", []string{"a.png", "b.png"}, 1},
		{"duplicate densities: the first", "a.png 1x, b.png 1.0x, c.png 2x, d.png 2x", []string{"a.png", "c.png"}, 2},
		{"duplicate URLs", "a.png 1x, a.png 2x, a.png 3x", []string{"a.png", "a.png"}, 1},
		// 1920 at 1 and 2: 2000w and 4000w; 100 at 1 and 2: 100w, 200w.
		{"widths", "w100.png 100w, w200.png 200w, w400.png 400w, w800.png 800w, w2000.png 2000w, w4000.png 4000w, w8000.png 8000w",
			[]string{"w100.png", "w200.png", "w2000.png", "w4000.png"}, 3},
		{"widths out of order", "w4000.png 4000w, w100.png 100w, w2000.png 2000w, w150.png 150w, w300.png 300w",
			[]string{"w4000.png", "w100.png", "w2000.png", "w300.png"}, 1},
		// 1920 at 1 and 2: the widest, 300w; 100 at 1 and 2: 100w, 200w.
		{"widths all narrow", "a.png 100w, b.png 300w, c.png 200w", []string{"a.png", "b.png", "c.png"}, 0},
		{"one width", "a.png 640w", []string{"a.png"}, 0},
		{"width and height", "a.png 100w 50h, b.png 3000w 20h", []string{"a.png", "b.png"}, 0},
		// At 1920 px, 1x and 2x beat 2000w (1.04) and 4000w (2.08); at
		// 2000 px, 2000w and 4000w tie with them, and come later.
		{"mixed", "a.png 1x, w.png 2000w, b.png 2x, v.png 4000w, c.png 3x",
			[]string{"a.png", "b.png"}, 3},
		// At 1000 px, 1000w ties with 1x, after it, and 2000w with 2x,
		// before it.
		{"mixed, ties to the first", "a.png 1x, w.png 1000w, v.png 2000w, b.png 2x",
			[]string{"a.png", "v.png", "b.png"}, 1},
		{"invalid descriptors dropped, not counted", "a.png 1x 2x, b.png 2q, c.png 1x, d.png -1x, e.png 2x, f.png 0w",
			[]string{"c.png", "e.png"}, 0},
		{"empty", " , ", nil, 0},
	}
	for _, tt := range tests {
		got, skipped := pagescan.SrcsetPicks(tt.srcset)
		if !slices.Equal(got, tt.want) || skipped != tt.skipped {
			t.Errorf("%s: srcset %q picks %q, %d skipped; want %q, %d", tt.name, tt.srcset, got, skipped, tt.want, tt.skipped)
		}
	}
}

// TestSrcsetPicksBound: whatever the srcset, at most four candidates
// count, and the others are skipped.
func TestSrcsetPicksBound(t *testing.T) {
	for _, unit := range []string{"x", "w"} {
		var b strings.Builder
		for i := range 50000 {
			fmt.Fprintf(&b, "i%d.png %d%s, ", i, 50000-i, unit)
		}
		got, skipped := pagescan.SrcsetPicks(b.String())
		if len(got) > 4 || len(got)+skipped != 50000 {
			t.Errorf("50,000 candidates in %s: %d picked (%q), %d skipped", unit, len(got), got, skipped)
		}
	}
}

// TestCSSPicks checks which candidates of an image-set() count, as for
// an srcset of densities: resolutions in x, dppx, dpi and dpcm, 1x if
// none, a gradient a candidate too.
func TestCSSPicks(t *testing.T) {
	tests := []struct {
		name, css string
		want      []string
		skipped   int
	}{
		{"x", `b: image-set("a.png" 1x, "b.png" 2x, "c.png" 3x)`, []string{"a.png", "b.png"}, 1},
		{"units", `b: image-set(url(c.png) 288dpi, "a.png" 1dppx, url("h.png") 1.5x, 'b.png' 192dpi, "d.png" 0.5dpcm)`,
			[]string{"a.png", "b.png"}, 3},
		{"none is 1x, type() is no resolution", `b: -webkit-image-set("a.png", "b.png" type("image/avif") 2x, "c.png" 4x)`,
			[]string{"a.png", "b.png"}, 1},
		{"a gradient picked at 1x", `b: image-set(linear-gradient(red, blue) 1x, "b.png" 2x, "c.png" 3x)`,
			[]string{"b.png"}, 1},
		{"duplicates: the first", `b: image-set("a.png" 1x, "b.png" 1x, "c.png" 2x)`, []string{"a.png", "c.png"}, 1},
		{"two sets", `b: image-set("a.png" 1x, "z.png" 9x), url(u.png), image-set("b.png" 2x, "c.png" 3x)`,
			[]string{"a.png", "z.png", "u.png", "b.png"}, 1},
		{"left open", `b: image-set("a.png" 1x, "b.png" 2x, "c.png" 3x`, []string{"a.png", "b.png"}, 1},
	}
	for _, tt := range tests {
		got, skipped := pagescan.CSSPicks(tt.css)
		if !slices.Equal(got, tt.want) || skipped != tt.skipped {
			t.Errorf("%s: %q finds %q, %d skipped; want %q, %d", tt.name, tt.css, got, skipped, tt.want, tt.skipped)
		}
	}
}

// TestRequisitesSkipped: Requisites counts the candidates it skips, of
// srcsets and of image-set()s in style attributes and <style>s.
func TestRequisitesSkipped(t *testing.T) {
	page := `<img src=s.png srcset="a.png 1x, b.png 2x, c.png 3x"><picture><source srcset="d.png 1x, e.png 4x, f.png 8x"></picture>` +
		`<link rel=preload as=image imagesrcset="g.png 1x, h.png 5x"><p style="x:image-set('i.png' 1x, 'j.png' 2x, 'k.png' 3x)">` +
		`<style>p{x:image-set('l.png' 1x, 'm.png' 0.5x, 'n.png' 2x)}</style>`
	var got []string
	skipped := pagescan.Requisites("http://h/p.html", []byte(page), "", func(u string) { got = append(got, strings.TrimPrefix(u, "http://h/")) })
	want := []string{"s.png", "a.png", "b.png", "d.png", "e.png", "g.png", "h.png", "i.png", "j.png", "l.png", "n.png"}
	if !slices.Equal(got, want) || skipped != 4 {
		t.Errorf("Requisites = %q, %d skipped; want %q, 4", got, skipped, want)
	}
}
