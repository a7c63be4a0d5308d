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
	"submodule-status", "text", "rev-list-format", "pretty-raw", "blame", "worktrees",
	"id-fields", "graph", "merge-tree", "fast-export", "merge-tree-z"}

// maxLine is the library's longest line: a longer one is reported, its first maxLine
// bytes checked and the rest skipped.
const maxLine = 1 << 20

// goListing checks a listing whose lines hold at most one ID (goFormat) as the library
// does: bare IDs (FormatOIDs), pack-objects' input (<oid>[ <name>], -<oid>), show-ref's
// and .promisor files' <oid> <ref>, ls-remote's <oid>TAB<ref> (and ref: lines),
// packed-refs (its header, <oid> <ref>, ^<oid>). Each way a line is wrong is reported
// with the library's code, column and message, in line order, at most one problem for
// the line's ID and one for the text around it.
type goListing struct {
	st       *listingState
	format   Format
	algo     Algo
	kind     Kind
	line     []byte // the line the last feed left open
	skipping bool   // inside a line longer than maxLine, already checked
	stopped  bool
	n        ListingStats
}

func newGoListing(format Format, algo Algo, kind Kind, st *listingState) *goListing {
	if kind != Mixed {
		kind = Lower
	}
	return &goListing{st: st, format: format, algo: algo, kind: kind, n: ListingStats{Format: format}}
}

func (g *goListing) feed(b []byte) bool {
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
func (g *goListing) add(b []byte) {
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

func (g *goListing) finish() bool {
	if !g.stopped && len(g.line) > 0 && !g.skipping {
		g.take(g.line, false)
	}
	g.line, g.skipping = nil, false
	return g.stopped
}

func (g *goListing) stats() ListingStats {
	s := g.n
	s.Algo = g.algo
	return s
}

func (g *goListing) close() {}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

func isHexDigit(c byte) bool { return mixedTable[c]&bad == 0 }

func (g *goListing) algoName() string {
	if g.algo == SHA256 {
		return "sha256"
	}
	return "sha1"
}

// emit reports a problem at column col (from 0) of the line.
func (g *goListing) emit(line uint64, col int, code, msg string) {
	if g.stopped {
		return
	}
	g.n.Problems++
	if g.st.fn == nil {
		return
	}
	class := ClassError
	if code == CodeUppercaseID {
		class = ClassGit3
	}
	if g.st.problem(Problem{Line: int(line), Column: col + 1, Class: class, Code: code, Message: msg}) {
		g.stopped = true
	}
}

// abbreviation is the library's rule for an abbreviated ID of n digits (grammar.h): at
// least 4, not within two of either hash's length, and (the hash known) more than two
// short of it.
func abbreviation(n, hexsz int) bool {
	if n < 4 || (n+2 >= 40 && (n <= 42 || n+2 >= 62)) {
		return false
	}
	return hexsz == 0 || n+2 < hexsz
}

// whole is what an abbreviated ID's message says was expected.
func (g *goListing) whole() string {
	switch g.algo.HexSize() {
	case 64:
		return "64 (sha256)"
	case 40:
		return "40 (sha1)"
	}
	return "40 (sha1) or 64 (sha256)"
}

// abbreviated is the digits of an abbreviated ID at s[pos:] that ends the line or its
// token, or 0.
func (g *goListing) abbreviated(s []byte, pos int) int {
	run := 0
	for pos+run < len(s) && isHexDigit(s[pos+run]) {
		run++
	}
	if e := pos + run; e < len(s) && s[e] != ' ' && s[e] != '\t' {
		return 0
	}
	if abbreviation(run, g.algo.HexSize()) {
		return run
	}
	return 0
}

// kindDigits: every byte of b is a digit the kind takes.
func kindDigits(b []byte, kind Kind) bool {
	table := &lowerTable
	if kind == Mixed {
		table = &mixedTable
	}
	for _, c := range b {
		if table[c]&bad != 0 {
			return false
		}
	}
	return true
}

func (g *goListing) emitAbbreviated(line uint64, col, digits int) {
	g.emit(line, col, CodeAbbreviatedID, fmt.Sprintf("abbreviated object ID: %d hex digits, expected %s: run git with --no-abbrev to print whole IDs", digits, g.whole()))
}

// badByte reports byte col of s, where a digit of the ID that starts at idStart was
// wanted; true when that made it an abbreviated ID, after which the line is not read.
func (g *goListing) badByte(line uint64, s []byte, col, idStart int) bool {
	b := s[col]
	if (b == ' ' || b == '\t') && abbreviation(col-idStart, g.algo.HexSize()) {
		g.emitAbbreviated(line, idStart, col-idStart)
		return true
	}
	switch {
	case b >= 'A' && b <= 'F' && g.kind == Lower:
		g.emit(line, col, CodeUppercaseID, fmt.Sprintf("uppercase hex digit '%c' in object ID: Git 3.0 accepts only lowercase (--mixed allows it)", b))
	case b == '\r' && col+1 == len(s):
		g.emit(line, col, CodeCRLF, "carriage return before end of line (CRLF line ending)")
	case b == 0:
		g.emit(line, col, CodeNULByte, "NUL byte in line")
	case b == ' ' || b == '\t':
		g.emit(line, col, CodeShortID, fmt.Sprintf("object ID too short: %d hex digits, expected %d (%s)", col-idStart, g.algo.HexSize(), g.algoName()))
	case b > ' ' && b < 0x7f:
		g.emit(line, col, CodeBadHex, fmt.Sprintf("invalid hex digit '%c' in object ID", b))
	default:
		g.emit(line, col, CodeBadHex, fmt.Sprintf("invalid byte 0x%02x in object ID", b))
	}
	return false
}

// The problems of a line's text, as the library's grammar names them.
const (
	pNone = iota
	pEmpty
	pShort  // arg: the hex digits seen
	pLongID // a hex digit right after the ID
	pLong   // bare IDs: more after the ID; arg: the line's length
	pExpect // what: what was expected
	pAlgo   // the first ID neither 40 nor 64 digits; arg: its length
	pHuge   // the line was cut
	pAbbrev // an abbreviated ID; arg: its digits
)

// textProblem is where a line's text breaks its format.
type textProblem struct {
	code, col, arg int
	what           string
}

// report reports p of the line s (cut: s is the first maxLine bytes of a longer one): a
// CR that ends the line or a NUL says more than anything else there.
func (g *goListing) report(line uint64, s []byte, cut bool, p textProblem) {
	col := p.col
	if col < len(s) && p.code != pHuge {
		if s[col] == '\r' && col+1 == len(s) {
			g.emit(line, col, CodeCRLF, "carriage return before end of line (CRLF line ending)")
			return
		}
		if s[col] == 0 {
			g.emit(line, col, CodeNULByte, "NUL byte in line")
			return
		}
	}
	more := ""
	if cut {
		more = "more than "
	}
	switch p.code {
	case pEmpty:
		g.emit(line, col, CodeEmptyLine, "empty line")
	case pAbbrev:
		g.emitAbbreviated(line, col, p.arg)
	case pShort:
		g.emit(line, col, CodeShortID, fmt.Sprintf("object ID too short: %d hex digits, expected %d (%s)", p.arg, g.algo.HexSize(), g.algoName()))
	case pLongID:
		g.emit(line, col, CodeLongID, fmt.Sprintf("object ID too long: more than %d hex digits (%s)", g.algo.HexSize(), g.algoName()))
	case pLong:
		g.emit(line, col, CodeLongLine, fmt.Sprintf("line too long: %s%d bytes, a %s object ID has %d hex digits", more, p.arg, g.algoName(), g.algo.HexSize()))
	case pAlgo:
		g.emit(line, col, CodeUnknownHash, fmt.Sprintf("cannot tell the object format: %s%d hex digits, expected 40 (sha1) or 64 (sha256)", more, p.arg))
	case pHuge:
		g.emit(line, col, CodeHugeLine, fmt.Sprintf("line longer than %d bytes", maxLine))
	default:
		switch {
		case col >= len(s):
			g.emit(line, col, CodeSyntax, fmt.Sprintf("expected %s, found the end of the line", p.what))
		case s[col] >= ' ' && s[col] < 0x7f:
			g.emit(line, col, CodeSyntax, fmt.Sprintf("expected %s, found '%c'", p.what, s[col]))
		default:
			g.emit(line, col, CodeSyntax, fmt.Sprintf("expected %s, found byte 0x%02x", p.what, s[col]))
		}
	}
}

// take checks one line (s without its newline); cut: s is the first maxLine bytes of
// a longer one. The line is parsed first, its ID decoded after, then its problems are
// reported in the order of the line: the ID's, then the text's.
func (g *goListing) take(s []byte, cut bool) {
	g.n.Lines++
	line := g.n.Lines
	id, idStart, badCol := noID, 0, 0
	var tp textProblem
	if len(s) == 0 {
		tp = textProblem{code: pEmpty}
	} else {
		id, idStart, badCol, tp = g.parse(s)
	}
	if cut && tp.code == pNone {
		tp = textProblem{code: pHuge, col: maxLine}
	}
	var raw [32]byte
	idBad := id == shortBad
	if id == fullID {
		hexsz := g.algo.HexSize()
		if !oid.DecodeBytes(raw[:], s[idStart:idStart+hexsz], mixMask(g.kind)) {
			var e Error
			digitsError(&e, s[idStart:idStart+hexsz], g.kind)
			idBad, badCol = true, idStart+e.Column-1
		}
	}
	// An ID with an uppercase digit that is also too long is reported as too long: it
	// is not valid with uppercase allowed either.
	// An abbreviated ID ends the line's reading, as the library's grammar ends it: when
	// its digits are ones the kind takes (an uppercase one among them under Lower, and
	// the grammar reads on past the ID's length).
	stop := false
	if idBad && !(tp.code == pLongID && g.kind == Lower && s[badCol] >= 'A' && s[badCol] <= 'F') {
		stop = g.badByte(line, s, badCol, idStart) && kindDigits(s[idStart:badCol], g.kind)
	}
	if tp.code != pNone && !stop {
		g.report(line, s, cut, tp)
	}
	if !idBad && tp.code == pNone && id == fullID {
		g.n.OIDs++
	}
}

// goFormats are the formats goListing checks: each line at most one ID.
func goFormat(f Format) bool {
	switch f {
	case FormatOIDs, FormatPackObjects, FormatShowRef, FormatPromisor, FormatLsRemote, FormatPackedRefs:
		return true
	}
	return false
}

// parse reads the line s by the format's grammar: where its ID is, and the first
// problem of its text, after which nothing of the line is looked at.
func (g *goListing) parse(s []byte) (id, idStart, badCol int, tp textProblem) {
	pos := 0
	var after func(pos int) textProblem // the text after a whole ID
	switch {
	case g.format == FormatOIDs:
		after = func(pos int) textProblem {
			if pos < len(s) {
				return textProblem{code: pLong, col: pos, arg: len(s)}
			}
			return textProblem{}
		}
	case g.format == FormatPackObjects && s[0] == '-', g.format == FormatPackedRefs && s[0] == '^':
		pos = 1
		after = func(pos int) textProblem { return endAt(s, pos) }
	case g.format == FormatPackObjects:
		after = func(pos int) textProblem {
			if pos < len(s) {
				_, tp := sepAt(s, pos, ' ', "a space after the object ID")
				return tp
			}
			return textProblem{}
		}
	case g.format == FormatPackedRefs && hasPrefix(s, "# pack-refs with:"):
		return noID, 0, 0, textProblem{}
	case g.format == FormatLsRemote && hasPrefix(s, "ref: "): // --symref: ref: <target>TAB<ref>
		return noID, 0, 0, textProblem{}
	default: // show-ref, promisor, ls-remote, packed-refs: <oid> <ref>, <oid>TAB<ref>
		ch, what := byte(' '), "a space after the object ID"
		if g.format == FormatLsRemote {
			ch, what = '\t', "a tab after the object ID"
		}
		after = func(pos int) textProblem {
			pos, tp := sepAt(s, pos, ch, what)
			if tp.code != pNone {
				return tp
			}
			return refnameAt(s, pos)
		}
	}
	id, idStart, badCol, tp = g.oid(s, pos)
	if id == fullID {
		tp = after(idStart + g.algo.HexSize())
	}
	return id, idStart, badCol, tp
}

func hasPrefix(s []byte, p string) bool { return len(s) >= len(p) && string(s[:len(p)]) == p }

// sepAt takes the separator ch at s[pos], right after an ID: a hex digit there means
// the ID is too long.
func sepAt(s []byte, pos int, ch byte, what string) (int, textProblem) {
	if pos < len(s) && s[pos] == ch {
		return pos + 1, textProblem{}
	}
	if pos < len(s) && isHexDigit(s[pos]) {
		return pos, textProblem{code: pLongID, col: pos}
	}
	return pos, textProblem{code: pExpect, col: pos, what: what}
}

// refnameAt takes a ref name, the rest of the line: not empty, no space or tab.
func refnameAt(s []byte, pos int) textProblem {
	if pos >= len(s) {
		return textProblem{code: pExpect, col: pos, what: "a ref name"}
	}
	for i := pos; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			return textProblem{code: pExpect, col: i, what: "the end of the ref name"}
		}
	}
	return textProblem{}
}

func endAt(s []byte, pos int) textProblem {
	if pos == len(s) {
		return textProblem{}
	}
	return textProblem{code: pExpect, col: pos, what: "the end of the line"}
}

// What oid found where an ID was wanted.
const (
	noID     = iota // none: a text problem says why
	fullID          // hexsz bytes, to decode
	shortBad        // too few digits, cut by a byte that is no digit (badCol)
)

// oid parses the ID at s[pos:], taking the hash from it when the listing has none yet:
// fullID when hexsz bytes are there, else what is wrong.
func (g *goListing) oid(s []byte, pos int) (id, idStart, badCol int, tp textProblem) {
	if g.algo == AutoAlgo {
		// The first ID tells the hash, by the length of its token.
		run := 0
		for pos+run < len(s) && s[pos+run] != ' ' && s[pos+run] != '\t' && s[pos+run] != '\r' {
			run++
		}
		switch run {
		case 40:
			g.algo = SHA1
		case 64:
			g.algo = SHA256
		default:
			if a := g.abbreviated(s, pos); a > 0 {
				return noID, pos, 0, textProblem{code: pAbbrev, col: pos, arg: a}
			}
			return noID, pos, 0, textProblem{code: pAlgo, col: pos, arg: run}
		}
	}
	if pos+g.algo.HexSize() > len(s) {
		// Too short: name the first byte that is not a digit, else say how short.
		if a := g.abbreviated(s, pos); a > 0 {
			return noID, pos, 0, textProblem{code: pAbbrev, col: pos, arg: a}
		}
		i := pos
		for i < len(s) && isHexDigit(s[i]) {
			i++
		}
		if i < len(s) && s[i] != ' ' && s[i] != '\t' {
			return shortBad, pos, i, textProblem{}
		}
		return noID, pos, 0, textProblem{code: pShort, col: i, arg: i - pos}
	}
	return fullID, pos, 0, textProblem{}
}
