package hexoid

// The bulk calls and the bare-ID listing checker in Go, for a build without cgo; built
// with cgo too, so that the tests hold them to the library's results.

import (
	"fmt"

	"hexoid.dev/go/hexoid/internal/oid"
)

// goDecodeRecords is decodeRecords one ID at a time through DecodeID's decoder.
func goDecodeRecords(dst, src []byte, n, stride int, algo Algo, kind Kind) (rec, col int, class Class) {
	hexsz, rawsz := algo.HexSize(), algo.RawSize()
	mix := mixMask(kind)
	var scratch [32]byte
	for i := 0; i < n; i++ {
		out := scratch[:rawsz]
		if dst != nil {
			out = dst[i*rawsz : i*rawsz+rawsz]
		}
		id := src[i*stride : i*stride+hexsz]
		if oid.DecodeBytes(out, id, mix) {
			continue
		}
		zero(dst, i*rawsz, n*rawsz)
		var e Error
		digitsError(&e, id, kind)
		return i, e.Column - 1, e.Class
	}
	return 0, 0, 0
}

// goEncodeRecords is encodeRecords through EncodeID.
func goEncodeRecords(dst []byte, stride int, src []byte, n int, algo Algo) {
	hexsz, rawsz := algo.HexSize(), algo.RawSize()
	for i := 0; i < n; i++ {
		EncodeID(dst[i*stride:i*stride+hexsz], src[i*rawsz:i*rawsz+rawsz])
	}
}

// formatNames are the library's names of the formats, by Format: Format.String and
// ParseFormat without cgo (with cgo, the library's own are used, and a test holds
// these to them).
var formatNames = [...]string{"auto", "oids", "pack-objects", "rev-list", "batch-check",
	"show-index", "verify-pack", "ls-tree", "for-each-ref", "packed-refs", "fetch-head",
	"reflog", "ls-files", "ls-remote", "show-ref", "diff-raw", "fsck", "promisor", "marks",
	"bundle", "ls-tree-z", "ls-files-z", "replace", "ref-peeled", "cherry",
	"submodule-status"}

// maxLine is the library's longest line: a longer one is reported, its first maxLine
// bytes checked and the rest skipped.
const maxLine = 1 << 20

// goOIDs checks a bare-ID listing (FormatOIDs) as the library does: each line one ID
// and nothing else, each way it is not reported with the library's code, column and
// message, problems in line order, at most one ID problem and one about the line's
// shape for a line.
type goOIDs struct {
	st       *listingState
	algo     Algo
	kind     Kind
	line     []byte // the line the last feed left open
	skipping bool   // inside a line longer than maxLine, already checked
	stopped  bool
	n        ListingStats
}

func newGoOIDs(algo Algo, kind Kind, st *listingState) *goOIDs {
	if kind != Mixed {
		kind = Lower
	}
	return &goOIDs{st: st, algo: algo, kind: kind, n: ListingStats{Format: FormatOIDs}}
}

func (g *goOIDs) feed(b []byte) bool {
	for len(b) > 0 && !g.stopped {
		i := indexByte(b, '\n')
		if i < 0 {
			g.add(b)
			break
		}
		if len(g.line) == 0 && !g.skipping && i <= maxLine {
			g.take(b[:i], false) // a whole line in b: no copy
		} else {
			g.add(b[:i])
			if g.skipping {
				g.skipping = false
			} else if !g.stopped {
				g.take(g.line, false)
			}
			g.line = g.line[:0]
		}
		b = b[i+1:]
	}
	return g.stopped
}

// add keeps b as more of the open line; past maxLine, the line is checked then, cut.
func (g *goOIDs) add(b []byte) {
	if g.skipping {
		return
	}
	if room := maxLine - len(g.line); len(b) > room {
		g.line = append(g.line, b[:room]...)
		g.take(g.line, true)
		g.line = g.line[:0]
		g.skipping = true
		return
	}
	g.line = append(g.line, b...)
}

func (g *goOIDs) finish() bool {
	if !g.stopped && len(g.line) > 0 && !g.skipping {
		g.take(g.line, false)
	}
	g.line, g.skipping = nil, false
	return g.stopped
}

func (g *goOIDs) stats() ListingStats {
	s := g.n
	s.Algo = g.algo
	return s
}

func (g *goOIDs) close() {}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

func isHexDigit(c byte) bool { return mixedTable[c]&bad == 0 }

func (g *goOIDs) algoName() string {
	if g.algo == SHA256 {
		return "sha256"
	}
	return "sha1"
}

// emit reports a problem at column col (from 0) of the line.
func (g *goOIDs) emit(line uint64, col int, code, msg string) {
	if g.stopped {
		return
	}
	g.n.Problems++
	if g.st.fn == nil {
		return
	}
	class := ClassError
	if code == "uppercase-id" {
		class = ClassGit3
	}
	if g.st.problem(Problem{Line: int(line), Column: col + 1, Class: class, Code: code, Message: msg}) {
		g.stopped = true
	}
}

// badByte reports byte col of s, where a digit of the ID that starts the line was wanted.
func (g *goOIDs) badByte(line uint64, s []byte, col int) {
	b := s[col]
	switch {
	case b >= 'A' && b <= 'F' && g.kind == Lower:
		g.emit(line, col, "uppercase-id", fmt.Sprintf("uppercase hex digit '%c' in object ID: Git 3.0 accepts only lowercase (--mixed allows it)", b))
	case b == '\r' && col+1 == len(s):
		g.emit(line, col, "crlf", "carriage return before end of line (CRLF line ending)")
	case b == 0:
		g.emit(line, col, "nul-byte", "NUL byte in line")
	case b == ' ' || b == '\t':
		g.emit(line, col, "short-id", fmt.Sprintf("object ID too short: %d hex digits, expected %d (%s)", col, g.algo.HexSize(), g.algoName()))
	case b > ' ' && b < 0x7f:
		g.emit(line, col, "bad-hex", fmt.Sprintf("invalid hex digit '%c' in object ID", b))
	default:
		g.emit(line, col, "bad-hex", fmt.Sprintf("invalid byte 0x%02x in object ID", b))
	}
}

// shape reports what is wrong at byte col of s around the ID: a CR that ends the line or
// a NUL say more than anything else there.
func (g *goOIDs) shape(line uint64, s []byte, col int, code, msg string) {
	if col < len(s) && s[col] == '\r' && col+1 == len(s) {
		g.emit(line, col, "crlf", "carriage return before end of line (CRLF line ending)")
	} else if col < len(s) && s[col] == 0 {
		g.emit(line, col, "nul-byte", "NUL byte in line")
	} else {
		g.emit(line, col, code, msg)
	}
}

// take checks one line (s without its newline); cut: s is the first maxLine bytes of
// a longer one.
func (g *goOIDs) take(s []byte, cut bool) {
	g.n.Lines++
	line := g.n.Lines
	more := ""
	if cut {
		more = "more than "
	}
	if len(s) == 0 {
		g.shape(line, s, 0, "empty-line", "empty line")
		return
	}
	if g.algo == AutoAlgo {
		// The first ID tells the hash, by the length of its token.
		run := 0
		for run < len(s) && s[run] != ' ' && s[run] != '\t' && s[run] != '\r' {
			run++
		}
		switch run {
		case 40:
			g.algo = SHA1
		case 64:
			g.algo = SHA256
		default:
			g.shape(line, s, 0, "unknown-hash", fmt.Sprintf("cannot tell the object format: %s%d hex digits, expected 40 (sha1) or 64 (sha256)", more, run))
			return
		}
	}
	hexsz := g.algo.HexSize()
	if len(s) < hexsz {
		i := 0
		for i < len(s) && isHexDigit(s[i]) {
			i++
		}
		if i < len(s) && s[i] != ' ' && s[i] != '\t' {
			g.badByte(line, s, i)
			return
		}
		g.shape(line, s, i, "short-id", fmt.Sprintf("object ID too short: %d hex digits, expected %d (%s)", i, hexsz, g.algoName()))
		return
	}
	var raw [32]byte
	good := oid.DecodeBytes(raw[:], s[:hexsz], mixMask(g.kind))
	if !good {
		var e Error
		digitsError(&e, s[:hexsz], g.kind)
		g.badByte(line, s, e.Column-1)
	}
	if len(s) > hexsz {
		g.shape(line, s, hexsz, "long-line", fmt.Sprintf("line too long: %s%d bytes, a %s object ID has %d hex digits", more, len(s), g.algoName(), hexsz))
		return
	}
	if good && len(s) == hexsz {
		g.n.OIDs++
	}
}
