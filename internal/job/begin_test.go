package job

import (
	"slices"
	"strings"
	"testing"

	"tse-crawler/internal/pagedir"
)

// TestWARCInfo: the warcinfo record says the robots policy once, as obey
// or ignore, and names the files the crawl writes by their base names,
// never by the paths given.
func TestWARCInfo(t *testing.T) {
	for _, obey := range []bool{true, false} {
		j := &Job{
			cfg: &Settings{Robots: obey, Seed: zooSeed, MaxDepth: 2},
			params: func() pagedir.Params {
				return pagedir.Params{Seed: zooSeed, MaxDepth: 2, Options: [][2]string{
					{"links", "html"},
					{"graph", "/home/someone/crawls/zoo.csv"},
					{"warc", "/home/someone/crawls/zoo.warc.gz"},
					{"requisites", "none"},
					{"robots", map[bool]string{true: "true", false: "false"}[obey]},
					{"max-size", "10485760"},
				}}
			},
		}
		robots := map[bool]string{true: "obey", false: "ignore"}[obey]
		want := [][2]string{
			{"robots", robots},
			{"links", "html"},
			{"graph", "zoo.csv"},
			{"warc", "zoo.warc.gz"},
			{"requisites", "none"},
			{"max-size", "10485760"},
			{"seed", zooSeed},
			{"maxDepth", "2"},
		}
		info := j.warcInfo()
		if !slices.Equal(info.Fields, want) {
			t.Errorf("robots %v: fields %q, want %q", obey, info.Fields, want)
		}
		if !strings.HasPrefix(info.Software, "tse-crawler/") {
			t.Errorf("software %q", info.Software)
		}
	}
}
