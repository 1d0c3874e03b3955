package pagescan_test

import (
	"slices"
	"testing"

	"tse-crawler/internal/pagescan"
)

// TestCSSRefs checks CSSRefs: the URLs StyleRequisites finds, each at its
// url( or string.
func TestCSSRefs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, sheet string
		want        []pagescan.Ref
	}{
		{"@import and url() on lines of their own",
			"@import 'a.css';\n@import url(\"b.css#m\") screen;\r\n\r\nbody {\n  background: URL( c.png ) , url(#no);\r  mask: image-set('d.png' 1x)\n}",
			[]pagescan.Ref{
				{URL: sheetDir + "a.css", Requisite: true, Line: 1, Column: 9},
				{URL: sheetDir + "b.css", Fragment: "m", Requisite: true, Line: 2, Column: 9},
				{URL: sheetDir + "c.png", Requisite: true, Line: 5, Column: 15},
				{URL: sheetDir + "d.png", Requisite: true, Line: 6, Column: 19},
			}},
		{"a comment, an FF and a byte order mark", "\ufeff/* é\f */a{b:url(x.svg#y)}", []pagescan.Ref{
			{URL: sheetDir + "x.svg", Fragment: "y", Requisite: true, Line: 1, Column: 13},
		}},
		{"characters in the sheet's encoding", "@charset \"windows-1252\";\na{content:'\xe9\xe9'; b:url(x.png)}", []pagescan.Ref{
			{URL: sheetDir + "x.png", Requisite: true, Line: 2, Column: 19},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []pagescan.Ref
			pagescan.CSSRefs(sheetURL, []byte(tt.sheet), "", func(r pagescan.Ref) { got = append(got, r) })
			if !slices.Equal(got, tt.want) {
				t.Errorf("CSSRefs(%q):\n got %+v\nwant %+v", tt.sheet, got, tt.want)
			}
		})
	}
}
