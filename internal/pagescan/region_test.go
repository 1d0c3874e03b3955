package pagescan_test

import (
	"slices"
	"testing"

	"tse-crawler/internal/pagescan"
)

func TestRegion(t *testing.T) {
	const page = "http://www.example.edu/a/index.html"
	const from, until = "<!-- CONTENT -->", "<!-- /CONTENT -->"
	tests := []struct {
		name        string
		from, until string
		html        string
		reference   []string
		browser     []string
	}{
		{
			name: "links inside only", from: from, until: until,
			html:      `<a href="nav.html">nav</a><!-- CONTENT --><a href="01.html">1</a> <a href="02.html">2</a><!-- /CONTENT --><a href="foot.html">f</a>`,
			reference: []string{"http://www.example.edu/a/01.html", "http://www.example.edu/a/02.html"},
			browser:   []string{"http://www.example.edu/a/01.html", "http://www.example.edu/a/02.html"},
		},
		{
			name: "no region, no links", from: from, until: until,
			html: `<a href="01.html">1</a>`,
		},
		{
			name: "no end marker, no region", from: from, until: until,
			html: `<!-- CONTENT --><a href="01.html">1</a>`,
		},
		{
			name: "the end marker before the start does not count", from: from, until: until,
			html:      `<!-- /CONTENT --><a href="00.html">0</a><!-- CONTENT --><a href="01.html">1</a><!-- /CONTENT -->`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html"},
		},
		{
			name: "only the first region", from: from, until: until,
			html:      `<!-- CONTENT --><a href="01.html">1</a><!-- /CONTENT --><!-- CONTENT --><a href="02.html">2</a><!-- /CONTENT -->`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html"},
		},
		{
			name: "start marker only", from: from,
			html:      `<a href="nav.html">nav</a><!-- CONTENT --><a href="01.html">1</a>`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html"},
		},
		{
			name: "end marker only", until: until,
			html:      `<a href="01.html">1</a><!-- /CONTENT --><a href="foot.html">f</a>`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html"},
		},
		{
			// The html scanner reads the whole page, so the head's base
			// applies; the reference scanner ignores base anyway.
			name: "a base outside the region", from: from, until: until,
			html:      `<head><base href="http://ir.example.edu/b/"></head><!-- CONTENT --><a href="01.html">1</a><!-- /CONTENT -->`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://ir.example.edu/b/01.html"},
		},
		{
			// The reference's colon test looks no further than the region.
			name: "the colon test stops at the region", from: from, until: until,
			html:      `<!-- CONTENT --><a href="01.html<!-- /CONTENT -->Note: a colon after the region`,
			reference: nil, // no end quote inside the region
			browser:   nil,
		},
		{
			name: "a tag that starts before the region", from: "<b>", until: "</b>",
			html:      `<a href="out.html"><b>text</b></a><b><a href="in.html">in</a></b>`,
			reference: nil, // the first region holds no link
			browser:   nil,
		},
		{
			// The html scanner knows the template began before the region.
			name: "a region inside a template", from: from, until: until,
			html:      `<template><!-- CONTENT --><a href="01.html">1</a><!-- /CONTENT --></template>`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   nil,
		},
		{
			name: "a region inside an svg title", from: from, until: until,
			html:      `<svg><title><!-- CONTENT --><a href="01.html">1</a><!-- /CONTENT --></title></svg>`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html"},
		},
		{
			name: "a region inside an HTML title", from: "<title>", until: "</title>",
			html:      `<title><a href="01.html">1</a></title>`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   nil,
		},
		{
			name: "a base in svg outside the region does not count", from: from, until: until,
			html:      `<svg><base href="http://ir.example.edu/b/"></svg><!-- CONTENT --><svg><a href="01.html"/></svg><!-- /CONTENT -->`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html"},
		},
		{
			// The start marker is text to the html scanner, which takes the
			// region from the bytes all the same.
			name: "a start marker in CDATA", from: from, until: until,
			html:      `<svg><![CDATA[<!-- CONTENT -->]]></svg><a href="01.html">1</a><!-- /CONTENT -->`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html"},
		},
		{
			name: "links in noscript, an iframe and a refresh", from: from, until: until,
			html:      `<!-- CONTENT --><noscript><a href="01.html">1</a></noscript><iframe src="02.html"></iframe><meta http-equiv="refresh" content="0; url=03.html"><!-- /CONTENT -->`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   []string{"http://www.example.edu/a/01.html", "http://www.example.edu/a/02.html", "http://www.example.edu/a/03.html"},
		},
		{
			// Only the first refresh of the page counts, in the region or not.
			name: "a refresh before the region", from: from, until: until,
			html:      `<meta http-equiv="refresh" content="0; url=00.html"><!-- CONTENT --><meta http-equiv="refresh" content="0; url=01.html"><!-- /CONTENT -->`,
			reference: nil,
			browser:   nil,
		},
		{
			// A frameset empties the body, and the region with it.
			name: "a region in a body a frameset replaces", from: from, until: until,
			html:      `<!-- CONTENT --><div><a href="01.html"></a></div><!-- /CONTENT --><frameset><frame src="02.html"></frameset>`,
			reference: []string{"http://www.example.edu/a/01.html"},
			browser:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range []struct {
				name    string
				scanner pagescan.Scanner
				want    []string
			}{{"reference", new(pagescan.Reference), tt.reference}, {"html", new(pagescan.HTML), tt.browser}} {
				r := &pagescan.Region{From: []byte(tt.from), Until: []byte(tt.until), Scanner: s.scanner}
				var got []string
				r.Scan(page, []byte(tt.html), func(link string) { got = append(got, link) })
				if !slices.Equal(got, s.want) {
					t.Errorf("%s in region: %q, want %q", s.name, got, s.want)
				}
			}
		})
	}
}
