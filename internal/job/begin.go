package job

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tse-crawler/internal/buildinfo"
	"tse-crawler/internal/crawler"
	"tse-crawler/internal/earlier"
	"tse-crawler/internal/filelock"
	"tse-crawler/internal/linkcache"
	"tse-crawler/internal/linkgraph"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/wacz"
	"tse-crawler/internal/warc"
)

// Begin begins the crawl cfg asks for, once Parse has checked it: it
// chooses the proxy from the environment, read through getenv, claims the
// page directory, opens the files the crawl writes besides its pages, then
// the page directory, and begins the crawl in it, afresh or where its
// journal says. params names the crawl for its journal, as cfg is when it
// is called: a crawl that resumes with -links auto takes the mode the
// journal says it began in. Warnings and notes go to con.
//
// If the crawl cannot begin, Begin returns why: a *SettingError for a
// proxy variable, a file to write or a seed the crawl cannot begin with,
// a *filelock.BusyError in its tree for a page directory or a WARC file
// another crawler is using, and otherwise the page directory's error
// (package pagedir), a *pagedir.FinishedError for a crawl with nothing
// left to do. If ctx ends while the archives of -since are indexed, which
// may take minutes, Begin returns its cause.
func Begin(ctx context.Context, cfg *Settings, params func() pagedir.Params, getenv func(string) string, con *Console) (_ *Job, err error) {
	proxy, err := proxyFunc(getenv, cfg.WARC != "")
	if err != nil {
		return nil, &SettingError{Setting: Flags, Err: err}
	}
	if msg := httpsProxyWarning(cfg, getenv); msg != "" {
		con.Warn(msg)
	}
	if cfg.CheckCache != "" && !cfg.CheckExternal {
		con.Warn(fmt.Sprintf("-check-cache %s keeps links outside the scope, which -check-external=false leaves unchecked: nothing is kept; leave out one of the two", cfg.CheckCache))
	}
	j := &Job{cfg: cfg, params: params, con: con, proxy: proxy, fetchProxy: pauselessProxy(proxy, cfg.Delay, getenv, con.Warn)}
	if cfg.Folder != "" {
		if err := j.openFolder(); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				j.closeFolder()
			}
		}()
	}
	if cfg.Check && cfg.Dir == "" {
		// A link check given no directory keeps its pages in one of its
		// own, which it removes when it ends; one killed before its end
		// could not, and the next removes what it left.
		pagedir.RemoveAbandoned(os.TempDir(), checkDirPrefix)
		if j.tmpDir, err = os.MkdirTemp("", checkDirPrefix); err != nil {
			return nil, fmt.Errorf("making a directory for the pages to check: %w", err)
		}
		cfg.Dir = j.tmpDir
	}
	// Claimed first, so that a crawler that finds another in the
	// directory writes nothing at all, not even its other files.
	claim, err := pagedir.Claim(cfg.Dir)
	if err != nil {
		if j.tmpDir != "" {
			os.RemoveAll(j.tmpDir)
		}
		return nil, err
	}
	if j.out, err = j.openOutputs(ctx); err != nil {
		claim.Release()
		if j.tmpDir != "" {
			os.RemoveAll(j.tmpDir)
		}
		if cause := context.Cause(ctx); cause != nil && errors.Is(err, cause) {
			return nil, err // stopped, by no fault of the settings
		}
		return nil, &SettingError{Setting: Flags, Err: err}
	}
	if err := j.begin(claim); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// checkDirPrefix begins the name of the page directory a link check given
// none makes for itself.
const checkDirPrefix = "crawler-check-"

// The outputs are the files a crawl writes besides its pages. They are
// opened before the page directory, so that a path that cannot be written
// is found before the crawl, with nothing written in the directory.
type outputs struct {
	stats *outFile // -stats-json, or nil
	graph *outFile // -graph, or nil
	// archive is -warc: a new crawl's, made by openOutputs, or one that
	// resumes, opened by begin once the page directory says where
	// the file is cut back.
	archive *warc.Writer
	// cache is -check-cache, or nil.
	cache *linkcache.Cache
	// unlockArchive releases the lock of the WARC file, which the crawl
	// keeps past closing it, through the packing of a .wacz and the
	// removal of the file it is made from, until the job is closed.
	unlockArchive func()
	// since is the earlier crawl's archive (-since), or nil.
	since *earlier.Archive
}

// openOutputs checks that the files of -stats-json, -graph and -warc lie
// outside the page directory and opens them, but for a crawl that resumes,
// whose WARC file waits for the page directory, once it is found not to be
// in use. Its errors are usage errors.
func (j *Job) openOutputs(ctx context.Context) (_ *outputs, err error) {
	cfg := j.cfg
	if err := outsideDir(cfg.Dir, map[string]string{"stats-json": cfg.StatsJSON, "graph": cfg.Graph, "warc": cfg.WARC, "check-cache": cfg.CheckCache}); err != nil {
		return nil, err
	}
	if cfg.WARC != "" && cfg.Resume {
		// Told before anything is written; reopening it takes the lock.
		if err := filelock.Probe(cfg.warcFile(), "WARC file "+cfg.warcFile()); err != nil {
			return nil, warcError(err)
		}
	}
	out := new(outputs)
	defer func() {
		if err != nil {
			out.closeSince()
		}
	}()
	if len(cfg.Since) > 0 {
		// Read first: indexing an archive is what may fail, or take
		// a while, and nothing is written until it is done.
		a, err := openSince(ctx, cfg)
		if err != nil {
			return nil, err
		}
		out.since = a
		for _, w := range a.Warnings() {
			j.con.Warn("-since: " + w)
		}
		if a.Len() == 0 {
			j.con.Warn(fmt.Sprintf("-since: %s holds no page or requisite answered 200, so every request goes whole: give the archive of an earlier crawl of this site", strings.Join(cfg.Since, ", ")))
		}
		if !cfg.Quiet && !cfg.Check {
			fmt.Fprintf(j.con, "crawler: -since: %d URLs to revalidate\n", a.Len())
		}
	}
	if cfg.StatsJSON != "" {
		f, err := createOut(cfg.StatsJSON)
		if err != nil {
			return nil, fmt.Errorf("-stats-json: %w: give a file in a directory you can write to", err)
		}
		out.stats = f
	}
	if cfg.Graph != "" {
		f, err := openGraph(cfg)
		if err != nil {
			out.stats.discard()
			return nil, err
		}
		out.graph = f
	}
	if cfg.CheckCache != "" {
		c, err := linkcache.New(cfg.CheckCache, cfg.CheckCacheAge, time.Now, j.con.Warn)
		if err != nil {
			out.stats.discard()
			out.graph.discard()
			if _, ok := errors.AsType[*fs.PathError](err); ok {
				return nil, fmt.Errorf("-check-cache: %w: give a file you can read and write, in a directory you can write to", err)
			}
			return nil, fmt.Errorf("-check-cache: %w", err)
		}
		out.cache = c
	}
	// A new crawl's WARC file is made before the page directory is
	// marked, so that a name already taken, or a directory that cannot be
	// written, is told with nothing written in either.
	if cfg.WARC != "" && !cfg.Resume {
		err := checkNewWARC(cfg.WARC)
		if err == nil && cfg.wacz() {
			err = checkNewWARC(cfg.warcFile())
		}
		if err == nil {
			out.archive, err = warc.Create(cfg.warcFile(), j.warcInfo())
		}
		if err == nil {
			if err = out.keepLock(); err != nil {
				out.unmake(cfg)
			}
		}
		if err != nil {
			out.stats.discard()
			out.graph.discard()
			return nil, warcError(err)
		}
	}
	return out, nil
}

// openSince opens and indexes the archives of -since, which must not be
// the file the crawl writes, unless ctx ends first.
func openSince(ctx context.Context, cfg *Settings) (*earlier.Archive, error) {
	for _, path := range cfg.Since {
		for _, out := range []string{cfg.WARC, cfg.warcFile()} {
			if out != "" && sameFile(path, out) {
				return nil, fmt.Errorf("-since %s is the file -warc writes: give the archive of an earlier crawl, and -warc a new file", path)
			}
		}
	}
	if err := sinceNames(cfg); err != nil {
		return nil, err
	}
	a, err := earlier.Open(ctx, cfg.Since...)
	if err != nil {
		return nil, fmt.Errorf("-since: %w", err) // which says what to do
	}
	return a, nil
}

// sinceNames reports two packages of one name among the .wacz files of
// -since and the package -warc writes: a revisit record names the package
// that holds its payload by its file name alone (WARC-Refers-To-Container,
// and the requires of datapackage.json), which must then name one.
func sinceNames(cfg *Settings) error {
	if cfg.WARC == "" {
		return nil
	}
	out := ""
	if cfg.wacz() {
		out = filepath.Base(cfg.WARC)
	}
	byName := make(map[string]string)
	for _, path := range cfg.Since {
		if !strings.EqualFold(filepath.Ext(path), ".wacz") {
			continue
		}
		name := filepath.Base(path)
		if name == out {
			return fmt.Errorf("-since %s has the name of the package -warc writes, and the revisit records of %s name the package of the earlier answer by its name alone: give -warc another name", path, cfg.WARC)
		}
		if other, ok := byName[name]; ok && !sameFile(path, other) {
			return fmt.Errorf("-since %s and %s have one name, and a revisit record names the package of the earlier answer by its name alone: give one of them another name", other, path)
		}
		byName[name] = path
	}
	return nil
}

// sameFile reports whether a and b name one file, or the same path.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// closeSince closes the earlier crawl's archive, if it is open.
func (out *outputs) closeSince() {
	if out.since != nil {
		out.since.Close()
		out.since = nil
	}
}

// openGraph opens the -graph file: a new one, unless the crawl resumes,
// whose graph may be there already, made by the run before.
func openGraph(cfg *Settings) (*outFile, error) {
	if !cfg.Resume {
		if _, err := os.Lstat(cfg.Graph); err == nil {
			return nil, fmt.Errorf("-graph %s exists: give the name of a new file (a crawl never writes over a file it did not make), or -resume to finish the crawl that made it", cfg.Graph)
		}
	}
	f, err := createOut(cfg.Graph)
	if err != nil {
		return nil, fmt.Errorf("-graph: %w: give a file in a directory you can write to", err)
	}
	return f, nil
}

// writeGraph writes the link graph, if there is a -graph file, once the
// crawl is done: before the page directory is marked finished, so that a
// crawl killed before the file is whole can still be resumed to write it.
func (out *outputs) writeGraph(g *linkgraph.Graph) error {
	if out.graph == nil {
		return nil
	}
	if err := out.graph.writeFrom(g.WriteCSV); err != nil {
		return fmt.Errorf("-graph: %w", err)
	}
	return nil
}

// unmake removes the WARC file openOutputs made, for a crawl that could
// not begin: it is this run's, and holds nothing of a crawl.
func (out *outputs) unmake(cfg *Settings) {
	if out.archive != nil && !cfg.Resume {
		out.archive.Close()
		os.Remove(cfg.warcFile())
	}
}

// keepLock keeps the lock of the WARC file just opened until the job is
// closed.
func (out *outputs) keepLock() error {
	unlock, err := out.archive.KeepLock()
	if err != nil {
		return err
	}
	out.unlockArchive = unlock
	return nil
}

// unlock releases the WARC file's lock, if it is kept.
func (out *outputs) unlock() {
	if out.unlockArchive != nil {
		out.unlockArchive()
		out.unlockArchive = nil
	}
}

// closeArchive closes the WARC file, if there is one, once the crawl has
// ended with err, and returns err, or if it is nil the error of closing.
func (out *outputs) closeArchive(err error) error {
	if out.archive != nil {
		if cerr := out.archive.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// begin opens the page directory, claimed, and begins the crawl in it,
// which for a crawl that resumes opens its WARC file as the directory
// decides. If the crawl cannot begin, it removes the WARC file a new crawl
// made, and returns why.
func (j *Job) begin(claim *pagedir.Claimed) error {
	cfg, out := j.cfg, j.out
	dir, err := claim.Open(cfg.Resume)
	if err != nil {
		out.unmake(cfg)
		return err
	}
	adopted := false
	if p, ok := dir.Recorded(); ok {
		if adopted, err = cfg.adopt(p); err != nil {
			dir.Close()
			return fmt.Errorf("%w (read as links were when this crawl began)", err)
		}
	}
	replay, err := dir.Begin(j.params())
	if err != nil {
		dir.Close()
		out.unmake(cfg)
		return err
	}
	if cfg.WARC != "" && cfg.Resume {
		if out.archive, err = dir.ResumeWARC(cfg.warcFile(), replay, j.warcInfo()); err == nil {
			if err = out.keepLock(); err != nil {
				out.archive.Close()
				out.archive = nil
			}
		}
		if err != nil {
			dir.Close()
			return &SettingError{Setting: Flags, Err: warcError(err)}
		}
	}
	if cfg.Resume {
		j.removeLeft()
	}
	if note := cfg.modeNote(adopted); note != "" && !cfg.Quiet && !cfg.Check {
		fmt.Fprintf(j.con, "crawler: %s\n", note)
	}
	j.begun = begun{dir, replay}
	return nil
}

// removeLeft removes, for a crawl that resumes, the temporary files a
// run killed while it wrote its outputs left beside them: a -graph or
// -stats-json file, or a package, half written, and a response spooled
// for its record. The run writes them again; a torn one would be left
// for good. It warns of one it cannot remove.
func (j *Job) removeLeft() {
	cfg := j.cfg
	type output struct {
		path string
		temp tempName
	}
	outs := []output{{cfg.Graph, replacement}, {cfg.StatsJSON, replacement}}
	if cfg.WARC != "" {
		outs = append(outs, output{cfg.warcFile(), spoolTemp})
	}
	if cfg.wacz() {
		outs = append(outs, output{cfg.WARC, packageTemp})
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		o.temp.removeLeft(o.path, func(name string, err error) {
			j.con.Warn(fmt.Sprintf("cannot remove %s, which a run killed while it wrote %s left: %v: remove it yourself (rm %s)", name, o.path, err, name))
		})
	}
}

// What Begin found in the page directory.
type begun struct {
	dir    *pagedir.Dir
	replay *pagedir.Replay // what came of the pages of the runs before, or nil
}

// history returns, for a crawl that resumes, what came of the pages of
// the runs before, having said so; nil for a new crawl.
func (j *Job) history() crawler.History {
	replay := j.replay
	if replay == nil {
		return nil
	}
	fmt.Fprintf(j.con, "crawler: resuming the crawl in %s: replaying what came of its first %d pages, %d of them saved\n", j.cfg.Dir, len(replay.Entries), replay.Saved)
	return replay.History(j.dir)
}

// finish closes the page directory as the crawl's outcome, err, requires,
// and returns the error of emptying the marker.
func (j *Job) finish(err error) error {
	if err == nil || errors.Is(err, crawler.ErrSeedFailed) {
		// Done, one way or the other: the marker goes back to empty.
		return j.dir.Finish()
	}
	j.dir.Close() // keep the journal, to resume from
	return nil
}

// modeNote says how links are read when -links auto chose it for a crawl
// other than the CS50 reference's, whose log and stderr stay the
// reference's; adopted is whether the mode is the one the crawl resumed
// began in.
func (cfg *Settings) modeNote(adopted bool) string {
	switch {
	case cfg.Links != "auto":
		return ""
	case adopted && cfg.mode == "reference":
		return "links are read as the CS50 reference does (-links reference), as when this crawl began"
	case adopted:
		return "links are read as a browser does (-links html), as when this crawl began"
	case cfg.mode == "html":
		return "links are read as a browser does (-links html), as in any crawl with -scope; -links reference reads them as the CS50 reference does"
	}
	return ""
}

// adopt makes a crawl that resumes with -links auto read links in the
// mode the journal says the crawl began in, p being the journal's
// parameters: a crawl begun with a -scope before auto was the default
// went on in reference mode. It reports whether it changed the mode; its
// errors, a seed or a -scope that mode cannot read, are *SettingErrors.
func (cfg *Settings) adopt(p pagedir.Params) (bool, error) {
	var was string
	for _, o := range p.Options {
		if o[0] == "links" {
			was = o[1]
		}
	}
	if cfg.Links != "auto" || was == cfg.mode || was != "reference" && was != "html" {
		return false, nil
	}
	cfg.mode = was
	if err := cfg.buildMode(); err != nil {
		return false, err
	}
	seed, err := cfg.checkSeed(cfg.RawSeed)
	if err != nil {
		return false, err
	}
	cfg.Seed = seed
	return true, nil
}

// warcInfo describes the crawl for the warcinfo record that begins each
// run's part of its WARC file: the software, the robots policy, the
// options that shape the crawl, the seed and maxDepth.
//
// The robots policy is said once, as obey or ignore, not again as the
// journal's true or false. The files the crawl writes, -warc and -graph,
// are named by their base names alone: a WARC file is made to be shared,
// and the path a user typed, perhaps from their home directory, is theirs.
// The WARC file of a package is only written beside it until the crawl
// ends, so its records name it as the package does.
func (j *Job) warcInfo() warc.Info {
	cfg := j.cfg
	robots := "ignore"
	if cfg.Robots {
		robots = "obey"
	}
	info := warc.Info{Software: "tse-crawler/" + buildinfo.Version, Fields: [][2]string{{"robots", robots}}}
	if cfg.wacz() {
		info.Filename = wacz.WARCName
	}
	for _, o := range j.params().Options {
		switch o[0] {
		case "robots":
			continue
		case "warc", "graph":
			o[1] = filepath.Base(o[1])
		}
		info.Fields = append(info.Fields, [2]string{o[0], o[1]})
	}
	info.Fields = append(info.Fields, [2]string{"seed", cfg.Seed}, [2]string{"maxDepth", strconv.Itoa(cfg.MaxDepth)})
	return info
}

// wacz reports whether -warc names a WACZ package, which the crawl makes
// when it ends from the WARC file it writes beside it as it goes. The
// suffix is matched in any case: X.WACZ is a package too.
func (cfg *Settings) wacz() bool { return strings.HasSuffix(strings.ToLower(cfg.WARC), ".wacz") }

// warcFile is the WARC file the crawl writes: -warc's, or for a package
// the .warc.gz beside it, which a crawl that resumes cuts back as any.
func (cfg *Settings) warcFile() string {
	if cfg.wacz() {
		return cfg.WARC + ".warc.gz"
	}
	return cfg.WARC
}

// writeWACZ makes the -warc package, if -warc names one, from the
// crawl's finished WARC file and the pages in the page directory: before
// the marker is emptied, so that a crawl killed before the package is
// whole is resumed, removes what was written of it, and makes it again.
// The package replaces what was at its path only once whole, and has the
// mode of any file the crawl makes.
func (j *Job) writeWACZ() error {
	cfg := j.cfg
	if !cfg.wacz() {
		return nil
	}
	var pages []string
	for id := 1; ; id++ {
		u, _, _, err := j.dir.Load(id)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return fmt.Errorf("-warc: reading the pages for %s: %w", cfg.WARC, err)
		}
		pages = append(pages, u)
	}
	p := wacz.Package{WARC: cfg.warcFile(), Pages: pages, Software: "tse-crawler/" + buildinfo.Version, Now: time.Now}
	for _, path := range cfg.Since {
		// The packages its revisits may name, for a replay tool given
		// them all.
		if strings.EqualFold(filepath.Ext(path), ".wacz") {
			p.Requires = append(p.Requires, path)
		}
	}
	if err := replaceFile(cfg.WARC, packageTemp, nil, p.Pack); err != nil {
		return fmt.Errorf("-warc: writing WACZ file %s: %w", cfg.WARC, err)
	}
	return nil
}

// checkNewWARC finds what would make [warc.Create] refuse path, as far as
// it can be known before the file is made: a name already taken, even by a
// dangling symbolic link, or a directory that is not there.
func checkNewWARC(path string) error {
	if _, err := os.Lstat(path); err == nil {
		if err := filelock.Probe(path, "WARC file "+path); err != nil {
			return err // the file of a crawl that runs: -resume would not do
		}
		return &warc.ExistsError{Path: path}
	}
	if d := filepath.Dir(path); !isDir(d) {
		return fmt.Errorf("%s, where WARC file %s would go, is not a directory: create it first (mkdir -p %s), or give a file in a directory that exists", d, path, d)
	}
	return nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// warcError adds to an error opening the WARC file the flag and what to
// do about it.
func warcError(err error) error {
	advice := ""
	switch {
	case isType[*warc.ExistsError](err):
		advice = ": give the name of a new file (a crawl never writes into a file it did not make), or -resume to finish the crawl that wrote it"
	case errors.Is(err, fs.ErrNotExist):
		advice = ": give a file in a directory that exists"
	case errors.Is(err, fs.ErrPermission):
		advice = ": give a file in a directory you can write to"
	}
	return fmt.Errorf("-warc: %w%s", err, advice)
}

// isType reports whether err's tree holds an error of type E.
func isType[E error](err error) bool {
	_, ok := errors.AsType[E](err)
	return ok
}
