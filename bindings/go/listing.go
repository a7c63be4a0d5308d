package hexoid

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// Format is what a listing's lines are, as git prints them. Its values are the
// library's enum hexoid_format, in its order (checked when built with cgo).
type Format int

const (
	FormatAuto            Format = iota // recognised from the first lines
	FormatOIDs                          // <oid>: pack-objects output, shallow, *-chain files
	FormatPackObjects                   // pack-objects input: <oid>[ <name>] or -<oid>
	FormatRevList                       // rev-list --objects
	FormatBatchCheck                    // cat-file --batch-check
	FormatShowIndex                     // show-index
	FormatVerifyPack                    // verify-pack -v
	FormatLsTree                        // ls-tree
	FormatForEachRef                    // for-each-ref
	FormatPackedRefs                    // packed-refs
	FormatFetchHead                     // FETCH_HEAD
	FormatReflog                        // reflogs
	FormatLsFiles                       // ls-files --stage
	FormatLsRemote                      // ls-remote
	FormatShowRef                       // show-ref (-d, --head)
	FormatDiffRaw                       // diff-tree/-index/-files --raw --no-abbrev
	FormatFsck                          // git fsck
	FormatPromisor                      // a .promisor file
	FormatMarks                         // fast-import/fast-export marks
	FormatBundle                        // a bundle's header
	FormatLsTreeZ                       // ls-tree -z
	FormatLsFilesZ                      // ls-files --stage -z
	FormatReplace                       // replace -l --format=medium|long
	FormatRefPeeled                     // for-each-ref with %(*objectname)
	FormatCherry                        // git cherry [-v]
	FormatSubmoduleStatus               // git submodule status
	FormatText                          // any text: ID-like words (never chosen by FormatAuto)
	FormatRevListFormat                 // rev-list --format: commit <oid> lines and what the format made
	FormatPrettyRaw                     // log/rev-list --pretty=raw, cat-file -p of a commit or tag
	FormatBlame                         // blame --porcelain, --line-porcelain
	FormatWorktrees                     // worktree list --porcelain
	FormatIDFields                      // IDs a space or tab apart, fields may be empty
	FormatGraph                         // log --graph --format='%H[ %P]'
	FormatMergeTree                     // merge-tree --write-tree
	FormatFastExport                    // fast-export streams (--show-original-ids)
	FormatMergeTreeZ                    // merge-tree --write-tree -z (NUL-ended records)
)

// String is the name `hexoid verify --format` takes.
func (f Format) String() string {
	if s := formatName(f); s != "" {
		return s
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat is the Format of a name: "oids", "rev-list", "batch-check", "auto", ...
func ParseFormat(name string) (Format, error) {
	if f, ok := formatByName(name); ok {
		return f, nil
	}
	return 0, fmt.Errorf("hexoid: unknown listing format %q", name)
}

// Problem is one thing wrong in a line of a listing: each bad ID of the line is one,
// and so is where the text around them breaks the format (a line may have both: an
// uppercase ID then a CR before its newline).
type Problem struct {
	Line    int    // from 1
	Column  int    // from 1: the first byte that is wrong
	Class   Class  // ClassGit3 when only an uppercase digit is wrong, else ClassError
	Code    string // for programs: the library's stable name ("uppercase-id", "bad-hex", "crlf", ...)
	Message string // for people: what is wrong
}

func (p Problem) String() string { return fmt.Sprintf("%d:%d: %s", p.Line, p.Column, p.Message) }

// ListingStats is what VerifyListing saw: its lines, the IDs of its good lines, and its
// problems. When fn stopped the check, Problems counts those fn was given, and Lines
// and OIDs may count lines the library had read beyond the last of them.
type ListingStats struct {
	Lines, OIDs, Problems uint64
	Format                Format // the format used (what FormatAuto recognised)
	Algo                  Algo   // the hash used; AutoAlgo if no ID was seen
}

var (
	// ErrBadListingOptions: an unknown format, algo or kind.
	ErrBadListingOptions = errors.New("hexoid: unknown listing format, algo or kind")
	// ErrNilReader: VerifyListing given no reader.
	ErrNilReader = errors.New("hexoid: nil io.Reader")
)

// listingState is what a check's callback reaches: fn, and how it stopped.
type listingState struct {
	fn       func(Problem) error
	err      error
	panicked interface{}
	didPanic bool
}

// problem hands p to fn; true: stop.
func (st *listingState) problem(p Problem) bool {
	if err := st.fn(p); err != nil {
		st.err = err
		return true
	}
	return false
}

// A checker checks one listing, fed as it is read: feed and finish say whether a
// callback stopped it.
type checker interface {
	feed(b []byte) (stop bool)
	finish() (stop bool)
	stats() ListingStats
	close()
}

// bufs holds the read buffers of VerifyListing, so that a call allocates none of its own.
var bufs = sync.Pool{New: func() interface{} { b := make([]byte, 64<<10); return &b }}

// VerifyListing reads a listing from r to its end and checks every line and the IDs in
// it, in bounded memory whatever its size or its lines' lengths. Each problem goes to
// fn (nil only counts them), in line order. A non-nil error from fn stops the check and
// is returned. The error is nil when the listing was read to its end, bad lines or not:
// ListingStats.Problems counts them; otherwise it is r's error or fn's. A nil r is
// ErrNilReader.
//
// The C side holds no Go pointer: fn is reached through a runtime/cgo.Handle, deleted
// when VerifyListing returns. A panic in fn is raised again from VerifyListing.
//
// Built without cgo, the formats whose lines hold one ID (FormatOIDs,
// FormatPackObjects, FormatShowRef, FormatPromisor, FormatLsRemote, FormatPackedRefs)
// are checked in Go, with the same problems, messages and counts as the library's; any
// other format is an error that is ErrNeedsCgo.
func VerifyListing(r io.Reader, format Format, algo Algo, kind Kind, fn func(Problem) error) (ListingStats, error) {
	var stats ListingStats
	if r == nil {
		return stats, ErrNilReader
	}
	st := &listingState{fn: fn}
	c, err := newChecker(format, algo, kind, st)
	if err != nil {
		return stats, err
	}
	defer c.close()
	return verify(r, c, st)
}

// verify feeds r to c to its end, or until st's fn stops it.
func verify(r io.Reader, c checker, st *listingState) (ListingStats, error) {
	var stats ListingStats
	bp := bufs.Get().(*[]byte)
	defer bufs.Put(bp)
	buf := *bp
	stopped := false
	var rerr error
	for !stopped {
		n, err := r.Read(buf)
		if n > 0 && c.feed(buf[:n]) {
			stopped = true
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			rerr = err
			break
		}
	}
	if !stopped && rerr == nil {
		c.finish()
	}
	stats = c.stats()
	if st.didPanic {
		panic(st.panicked)
	}
	if st.err != nil {
		return stats, st.err
	}
	return stats, rerr
}
