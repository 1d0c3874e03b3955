package pagescan

// A browser loads one image of an srcset, or of a CSS image-set(): the
// one that fits its viewport and its device pixel ratio (DPR). A page may
// list thousands; a crawl that fetched every one would make as many
// requests for one picture. So only the candidates a browser could pick
// in these cases count as requisites, at most four of each set:
//   - at DPR 1 and at DPR 2, a browser picks the candidate of the least
//     density at or above the DPR, else the densest (ties go to the first:
//     the HTML Standard drops a later candidate of the same density);
//   - a width descriptor (100w) makes a candidate's density its width
//     over the source size, which sizes gives and the viewport bounds: it
//     is taken unknown, as at most 1920 px wide. The source sizes tried
//     are 1920 px, the widest viewport, and the narrowest candidate's
//     width, as on a viewport so narrow that the browser takes the
//     narrowest at DPR 1 (and, at DPR 2, what is at least twice as wide).
//
// The picks for source size 1920 at DPR 1 and 2 and for the narrowest
// width at DPR 1 and 2 make at most four candidates, and two for a set
// of densities alone. A viewport between, or a sizes narrower than the
// viewport, may pick another, which is not fetched: the bound is what a
// browser loads on a phone and on a desktop, at 1× and 2×. It is a
// crawl's bound, not a link check's: [HTML.Refs] and [CSSRefs] give every
// candidate, those not picked Unloaded.

// maxViewport is the widest viewport, in CSS pixels, whose picks count.
const maxViewport = 1920

// A candidate is one image of an srcset or an image-set(): a density, or
// a width if width is above 0.
type candidate struct {
	density, width float64
}

// picks returns which of cands, in order, a browser could pick: see
// above. It returns nil for none.
func picks(cands []candidate) []bool {
	if len(cands) == 0 {
		return nil
	}
	narrowest := 0.0
	for _, c := range cands {
		if c.width > 0 && (narrowest == 0 || c.width < narrowest) {
			narrowest = c.width
		}
	}
	kept := make([]bool, len(cands))
	sizes := []float64{maxViewport}
	if narrowest > 0 && narrowest < maxViewport {
		sizes = append(sizes, narrowest)
	}
	for _, size := range sizes {
		for _, dpr := range [...]float64{1, 2} {
			kept[pick(cands, size, dpr)] = true
		}
	}
	return kept
}

// pick returns the index of the candidate a browser picks for a source
// size and a DPR: the least density at or above dpr, else the densest;
// the first of equal densities.
func pick(cands []candidate, size, dpr float64) int {
	best, densest := -1, 0
	density := func(c candidate) float64 {
		if c.width > 0 {
			return c.width / size
		}
		return c.density
	}
	for i, c := range cands {
		d := density(c)
		if d >= dpr && (best < 0 || d < density(cands[best])) {
			best = i
		}
		if d > density(cands[densest]) {
			densest = i
		}
	}
	if best < 0 {
		return densest
	}
	return best
}
