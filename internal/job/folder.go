package job

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"tse-crawler/internal/linkcheck"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/sitefolder"
)

// A link check of a folder (crawler -check DIR) is a link check of the
// site the folder is, published at -base or at sitefolder.Reserved: the
// folder is served in-process, through the client's transport, so the
// crawl and the check run as for any site, with every page of the folder
// a seed, and the report names the folder's files by their paths in it.

// folderArg says whether the one argument of a link check, raw, is a
// folder rather than a site's URL: a folder that is there, or a path with
// no scheme ("docs/html", "www.example.org" when there is no such folder,
// which checkFolder then refuses with the URL it may have meant).
func folderArg(raw string) bool {
	if fi, err := os.Stat(raw); err == nil && fi.IsDir() {
		return true
	}
	name, _, _ := splitScheme(raw)
	return name == "" && !strings.Contains(raw, "://")
}

// fileURLMessage explains a seed that is a file: URL, raw: the crawler
// fetches none, and checks a folder by its path. It names the folder the
// URL is or is in.
func fileURLMessage(raw string) string {
	dir := raw
	if u, err := url.Parse(raw); err == nil && u.Path != "" {
		dir = filepath.Clean(filepath.FromSlash(u.Path))
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	return fmt.Sprintf("seedURL %q is a file: URL, which the crawler does not fetch: to check a folder's links, give its path after -check, %q; to crawl it, serve it and give its http URL", raw, dir)
}

// checkFolder checks the settings of a link check of the folder raw, and
// sets its scope, the base URL.
func (cfg *Settings) checkFolder(raw string) error {
	var msg string
	switch {
	case cfg.Resume:
		msg = "-resume: a check of a folder keeps nothing to resume: run it again without -resume"
	case len(cfg.Scopes) > 0:
		msg = "-scope: a folder's scope is the folder itself: give -base URL to say where it is published, or leave -scope out"
	case cfg.WARC != "" || len(cfg.Since) > 0:
		msg = "-warc and -since archive a crawl of a site, not a folder: leave them out, or check the site by its URL"
	}
	if msg != "" {
		return refuse(Flags, msg)
	}
	if fi, err := os.Stat(raw); err != nil || !fi.IsDir() {
		name := raw
		if strings.TrimSpace(raw) == "" {
			name = strconv.Quote(raw) // else the message names nothing
		}
		msg = fmt.Sprintf("%s is no folder: give a folder of HTML files, or a site's URL with its scheme", name)
		if _, rest, problem := splitScheme(raw); problem != "" && err != nil {
			msg += ", such as https://" + rest
		}
		return refuse(SeedURL, msg)
	}
	base, err := sitefolder.ParseBase(cfg.Base)
	if err != nil {
		return &SettingError{Setting: Flags, Err: err}
	}
	cfg.Scopes = []string{base}
	if err := cfg.build(); err != nil {
		return err
	}
	cfg.Folder, cfg.RawSeed, cfg.MaxDepth = raw, raw, math.MaxInt32
	return nil
}

// openFolder opens the folder to check and lists its pages: the first is
// the crawl's seed, the others its more seeds, which the crawl takes
// whether a link reaches them or not. A page -exclude matches is left out.
func (j *Job) openFolder() error {
	cfg := j.cfg
	f, err := sitefolder.Open(cfg.Folder, cfg.Base)
	if err != nil {
		return &SettingError{Setting: SeedURL, Err: err}
	}
	f.Warn = j.con.Warn
	pages, err := f.Pages()
	if err != nil {
		f.Close()
		return &SettingError{Setting: SeedURL, Err: err}
	}
	var seeds []string
	excluded := 0
	for _, p := range pages {
		key, ok := cfg.normalizer()(p)
		switch {
		case !ok || !cfg.scope.Contains(key):
		case cfg.exclusion(key) != nil:
			excluded++
		default:
			seeds = append(seeds, key)
		}
	}
	if len(seeds) == 0 && excluded > 0 {
		f.Close()
		return refuse(SeedURL, fmt.Sprintf("-exclude leaves none of the folder's %d pages to check: give patterns that match fewer of them", len(pages)))
	}
	if len(seeds) == 0 {
		f.Close()
		return refuse(SeedURL, fmt.Sprintf("the folder %s holds no .html or .htm file to check: give the folder a site's pages are in", cfg.Folder))
	}
	cfg.Seed, cfg.MoreSeeds, j.folder = seeds[0], seeds[1:], f
	return nil
}

// serveFolder has the fetcher ask the folder, if the check is of one, for
// its URLs: in-process, without a pause or a robots.txt.
func (j *Job) serveFolder(fetcher *pagefetch.Fetcher) {
	if j.folder == nil {
		return
	}
	fetcher.Client.Transport = j.folder.Transport(fetcher.Client.Transport)
	fetcher.InProcess = j.folder.Serves
	fetcher.Scheduler.InProcess(j.folder.Host())
}

// nameFiles has the report name the folder's URLs by the paths of their
// files in it, in each of its lists.
func (j *Job) nameFiles(r *linkcheck.Report) {
	if j.folder == nil || r == nil {
		return
	}
	for _, bs := range [][]linkcheck.BrokenLink{r.Broken, r.NotChecked} {
		for i := range bs {
			b := &bs[i]
			b.URL = j.folder.Name(b.URL)
			for k := range b.From {
				b.From[k].Page = j.folder.Name(b.From[k].Page)
			}
		}
	}
	for i, u := range r.Unread {
		r.Unread[i] = j.folder.Name(u)
	}
}

// closeFolder closes the folder, if the check is of one.
func (j *Job) closeFolder() {
	if j.folder != nil {
		j.folder.Close()
		j.folder = nil
	}
}
