//go:build cgo

package hexoid

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"testing/iotest"
)

// What a build without cgo runs, held here to the library's results on the same input:
// the bulk decoder and encoder, the format names, and the bare-ID listing checker.

func TestPureGoDecode(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	junk := []byte("AaFfGg09 \t\r\n\x00\x80\xff/:@`{")
	for _, algo := range algos {
		rawsz := algo.RawSize()
		for round := 0; round < 3000; round++ {
			stride := algo.HexSize() + rng.Intn(3)
			n := 1 + rng.Intn(12)
			text, _ := lines(rng, n, stride, algo)
			for k := rng.Intn(4); k > 0; k-- {
				text[rng.Intn(len(text))] = junk[rng.Intn(len(junk))]
			}
			for _, kind := range []Kind{Lower, Mixed} {
				a := bytes.Repeat([]byte{0xAA}, (n+1)*rawsz)
				b := bytes.Repeat([]byte{0xAA}, (n+1)*rawsz)
				r1, c1, k1 := decodeRecords(a, text, n, stride, algo, kind)
				r2, c2, k2 := goDecodeRecords(b, text, n, stride, algo, kind)
				if r1 != r2 || c1 != c2 || k1 != k2 || !bytes.Equal(a, b) {
					t.Fatalf("%v %q kind %d: library %d %d %v, Go %d %d %v", algo, text, kind, r1, c1, k1, r2, c2, k2)
				}
				r1, c1, k1 = decodeRecords(nil, text, n, stride, algo, kind)
				if r1 != r2 || c1 != c2 || k1 != k2 {
					t.Fatalf("%v %q: check only: %d %d %v", algo, text, r1, c1, k1)
				}
			}
			raw := make([]byte, n*rawsz)
			rng.Read(raw)
			e1 := bytes.Repeat([]byte{'.'}, n*stride)
			e2 := bytes.Repeat([]byte{'.'}, n*stride)
			encodeRecords(e1, stride, raw, n, algo)
			goEncodeRecords(e2, stride, raw, n, algo)
			if !bytes.Equal(e1, e2) {
				t.Fatalf("encode: %q %q", e1, e2)
			}
		}
	}
}

// Go's names of the formats are the library's, each at its value; a format the library
// has beyond them is only not checked in Go.
func TestPureGoFormatNames(t *testing.T) {
	if len(formatNames) > formatCount {
		t.Fatalf("%d names for %d formats", len(formatNames), formatCount)
	}
	for f, name := range formatNames {
		if Format(f).String() != name {
			t.Fatalf("%d: Go %q, library %q", f, name, Format(f))
		}
	}
}

// oidsListing makes a listing of bare IDs or of pack-objects' input, most lines good,
// each other line wrong in one of the ways a listing can be, some in more than one.
func oidsListing(rng *rand.Rand, format Format, algo Algo, n int) []byte {
	var b bytes.Buffer
	hexsz := algo.HexSize()
	id := func() []byte {
		text, _ := lines(rng, 1, hexsz, algo)
		return text
	}
	for i := 0; i < n; i++ {
		l := id()
		switch rng.Intn(24) {
		case 0:
			l[rng.Intn(hexsz)] = "ABCDEF"[rng.Intn(6)]
		case 1:
			l[rng.Intn(hexsz)] = "gG \t\x00\x7f\x80\xff/:@`{\r-"[rng.Intn(15)]
		case 2:
			l = append(l, '\r')
		case 3:
			l = l[:rng.Intn(hexsz)]
		case 4:
			l = append(l, "0a x\r\x00\t"[rng.Intn(7)])
		case 5:
			l = append(l, id()...)
		case 6:
			l = l[:0]
		case 7:
			l = bytes.ToUpper(l)
			l = append(l, '\r')
		case 8:
			l = l[:rng.Intn(hexsz)]
			l = append(l, " \tx\r\x00"[rng.Intn(5)])
			l = append(l, "abc"[:rng.Intn(3)]...)
		case 9:
			l = append(l, "\r\r"...)
		case 10:
			other := SHA1
			if algo == SHA1 {
				other = SHA256
			}
			text, _ := lines(rng, 1, other.HexSize(), other)
			l = text
		case 11:
			l[rng.Intn(hexsz)] = "ABCDEF"[rng.Intn(6)]
			l[rng.Intn(hexsz)] = "g\x00 "[rng.Intn(3)]
		}
		switch format {
		case FormatPackObjects:
			// pack-objects' input: a name after the ID, or an edge's '-' before it.
			switch rng.Intn(6) {
			case 0, 1:
				l = append(l, " some/path"[:1+rng.Intn(10)]...)
			case 2:
				l = append([]byte{'-'}, l...)
			case 3:
				l = append([]byte{'-'}, l...)
				l = append(l, " x0\r\x00"[rng.Intn(5)])
			case 4:
				l = append(l, "x0\t"[rng.Intn(3)])
			}
		case FormatShowRef, FormatPromisor, FormatLsRemote, FormatPackedRefs:
			sep := " "
			if format == FormatLsRemote {
				sep = "\t"
			}
			switch rng.Intn(12) {
			case 0:
				l = append(l, " \t\r0x"[rng.Intn(5)]) // no ref, a wrong separator
			case 1:
				l = append(l, sep...) // an empty ref name
			case 2:
				l = append(l, (sep + "refs/heads/a b")...)
			case 3:
				l = append(l, (sep + "refs/heads/a\tb")...)
			case 4:
				l = append(l, (sep + "refs/tags/v1\r")...)
			case 5:
				if format == FormatPackedRefs {
					l = append([]byte{'^'}, l...)
					l = append(l, " x\r"[:rng.Intn(4)]...)
				} else if format == FormatLsRemote {
					l = []byte("ref: refs/heads/main\tHEAD"[:rng.Intn(26)])
				}
			case 6:
				if format == FormatPackedRefs {
					l = []byte("# pack-refs with: peeled fully-peeled sorted")
				}
			default:
				l = append(l, (sep + "refs/heads/main")...)
			}
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func runBoth(t *testing.T, name string, format Format, text []byte, algo Algo, kind Kind, stopAt int) {
	t.Helper()
	var got [2][]string
	var stats [2]ListingStats
	var errs [2]error
	for i := 0; i < 2; i++ {
		k := 0
		st := &listingState{fn: func(p Problem) error {
			got[i] = append(got[i], fmt.Sprintf("%d:%d %s %s %s", p.Line, p.Column, p.Class, p.Code, p.Message))
			if k++; k == stopAt {
				return fmt.Errorf("stop")
			}
			return nil
		}}
		var c checker
		if i == 0 {
			cc, err := newCChecker(format, algo, kind, st)
			if err != nil {
				t.Fatal(err)
			}
			c = cc
		} else {
			c = newGoListing(format, algo, kind, st)
		}
		// Read in pieces of every size, as a reader may give them.
		stats[i], errs[i] = verify(iotest.HalfReader(bytes.NewReader(text)), c, st)
		c.close()
	}
	if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
		for j := 0; j < len(got[0]) || j < len(got[1]); j++ {
			var a, b string
			if j < len(got[0]) {
				a = got[0][j]
			}
			if j < len(got[1]) {
				b = got[1][j]
			}
			if a != b {
				t.Fatalf("%s: problem %d:\nlibrary %s\nGo      %s", name, j, a, b)
			}
		}
	}
	// After a stop the library may have counted the lines of a batch further on.
	if (errs[0] == nil) != (errs[1] == nil) || stopAt == 0 && stats[0] != stats[1] {
		t.Fatalf("%s: library %+v %v, Go %+v %v", name, stats[0], errs[0], stats[1], errs[1])
	}
}

func TestPureGoListing(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for _, format := range []Format{FormatOIDs, FormatPackObjects, FormatShowRef, FormatPromisor, FormatLsRemote, FormatPackedRefs} {
		for _, algo := range algos {
			for round := 0; round < 60; round++ {
				text := oidsListing(rng, format, algo, 1+rng.Intn(300))
				if rng.Intn(4) == 0 { // the last line without its newline
					text = text[:len(text)-1]
				}
				name := fmt.Sprintf("%v %v round %d", format, algo, round)
				for _, a := range []Algo{AutoAlgo, algo} {
					for _, kind := range []Kind{Lower, Mixed} {
						runBoth(t, fmt.Sprintf("%s algo %v kind %d", name, a, kind), format, text, a, kind, 0)
					}
				}
				runBoth(t, name+", stopped", format, text, algo, Lower, 1+rng.Intn(3))
			}
		}
		// Lines the hash cannot be told from, first; the empty listing.
		id := strings.Repeat("a", 40)
		for _, text := range []string{"", "\n", "\r\n", "abc\n", " " + id + "\n", "\x00\n", id + "\tx\n", id + "a",
			"-\n", "-", "-" + id + " x\n", "-\r\n", "- " + id + "\n", "-" + id[:20] + "\n", id + " \n", id + "A\n",
			"ref: \n", "ref:\n", "^\n", "^" + id + "\n", "# pack-refs with:\n", "#\n", id + " refs/x\n", id + "\trefs/x\n"} {
			runBoth(t, fmt.Sprintf("%v %q", format, text), format, []byte(text), AutoAlgo, Lower, 0)
			runBoth(t, fmt.Sprintf("%v %q sha1", format, text), format, []byte(text), SHA1, Lower, 0)
		}
		// Lines longer than the library keeps: at its limit, one byte over, far over, with
		// and without a newline, and the hash still unknown in one.
		id = strings.Repeat("b", 40)
		for _, text := range []string{
			id + "\n" + id + strings.Repeat("x", maxLine-40) + "\n" + id + "\n",
			id + "\n" + id + strings.Repeat("x", maxLine-39) + "\n" + id + "\n",
			id + "\n" + id + " " + strings.Repeat("x", maxLine) + "\n" + id + "\n",
			id + "\n" + id + "\t" + strings.Repeat("x", maxLine) + "\n" + id + "\n",
			id + "\n# pack-refs with:" + strings.Repeat(" x", maxLine) + "\nref: " + strings.Repeat("y", maxLine) + "\n",
			id + "\n" + strings.Repeat("G", 3*maxLine) + "\n" + id + "\n",
			id + "\n" + id + strings.Repeat("\r", maxLine),
			strings.Repeat("c", maxLine+5) + "\n" + id + "\n",
		} {
			runBoth(t, fmt.Sprintf("%v %d bytes", format, len(text)), format, []byte(text), AutoAlgo, Lower, 0)
		}
	}
}
