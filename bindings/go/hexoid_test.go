package hexoid

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"hexoid.dev/go/hexoid/internal/oid"
)

var algos = []Algo{SHA1, SHA256}

var codeName = map[Class]string{ClassError: "bad-hex", ClassGit3: "uppercase-id"}

// lines makes n random IDs as records of stride bytes (hex, then '\n' and padding),
// and their raw bytes.
func lines(rng *rand.Rand, n, stride int, algo Algo) (text, raw []byte) {
	rawsz, hexsz := algo.RawSize(), algo.HexSize()
	raw = make([]byte, n*rawsz)
	rng.Read(raw)
	text = bytes.Repeat([]byte{' '}, n*stride)
	for i := 0; i < n; i++ {
		hex.Encode(text[i*stride:], raw[i*rawsz:(i+1)*rawsz])
		if stride > hexsz {
			text[i*stride+stride-1] = '\n'
		}
	}
	return text, raw
}

func TestDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, algo := range algos {
		for _, stride := range []int{algo.HexSize(), algo.HexSize() + 1, algo.HexSize() + 7} {
			for _, n := range []int{0, 1, 2, 3, 31, 64, 1000} {
				text, raw := lines(rng, n, stride, algo)
				got := make([]byte, len(raw))
				k, err := DecodeStride(got, text, stride, algo, Lower)
				if err != nil || k != n || !bytes.Equal(got, raw) {
					t.Fatalf("%v stride %d n %d: decoded %d, %v", algo, stride, n, k, err)
				}
				if k, err := ValidateStride(text, stride, algo, Lower); err != nil || k != n {
					t.Fatalf("%v stride %d n %d: Validate %d, %v", algo, stride, n, k, err)
				}
				// The last line without its newline is still a record.
				if n > 0 && stride > algo.HexSize() {
					cut := text[:len(text)-(stride-algo.HexSize())]
					if Records(cut, stride, algo) != n {
						t.Fatalf("a last record without its newline is not counted")
					}
				}
				back := bytes.Repeat([]byte{'.'}, len(text))
				if k, err := Encode(back, stride, raw, algo); err != nil || k != n {
					t.Fatalf("Encode %d, %v", k, err)
				}
				for i := 0; i < n; i++ {
					if string(back[i*stride:i*stride+algo.HexSize()]) != string(text[i*stride:i*stride+algo.HexSize()]) {
						t.Fatalf("Encode record %d differs", i)
					}
					if stride > algo.HexSize() && back[i*stride+algo.HexSize()] != '.' {
						t.Fatalf("Encode wrote between records")
					}
				}
			}
		}
	}
}

// A bad byte at every position of a record in the middle: the error names it, the
// records before are decoded, the bad one and those after are zeroed, and dst past the
// call's records is untouched.
func TestDecodeErrors(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, algo := range algos {
		const n, bad = 9, 4
		stride := algo.HexSize() + 1
		rawsz := algo.RawSize()
		for col := 0; col < algo.HexSize(); col++ {
			for _, c := range []struct {
				b     byte
				kind  Kind
				class Class
			}{{'G', Lower, ClassError}, {'g', Mixed, ClassError}, {'B', Lower, ClassGit3}, {0, Mixed, ClassError}} {
				text, raw := lines(rng, n, stride, algo)
				text[bad*stride+col] = c.b
				dst := bytes.Repeat([]byte{0xAA}, (n+2)*rawsz)
				k, err := DecodeStride(dst, text, stride, algo, c.kind)
				var e *Error
				if !errors.As(err, &e) || k != bad || *e != (Error{Record: bad, Column: col + 1, Class: c.class, Code: codeName[c.class]}) {
					t.Fatalf("%v col %d %q: got %d, %v", algo, col, c.b, k, err)
				}
				if !bytes.Equal(dst[:bad*rawsz], raw[:bad*rawsz]) {
					t.Fatalf("records before the bad one are not decoded")
				}
				if !bytes.Equal(dst[bad*rawsz:n*rawsz], make([]byte, (n-bad)*rawsz)) {
					t.Fatalf("dst holds garbage after the error")
				}
				if !bytes.Equal(dst[n*rawsz:], bytes.Repeat([]byte{0xAA}, 2*rawsz)) {
					t.Fatalf("dst past the records was written")
				}
				if k, err := ValidateStride(text, stride, algo, c.kind); k != bad || !errors.As(err, &e) || e.Column != col+1 {
					t.Fatalf("Validate: %d, %v", k, err)
				}
			}
		}
		// Mixed accepts what Lower calls uppercase.
		text, _ := lines(rng, n, stride, algo)
		copy(text[bad*stride:], strings.ToUpper(string(text[bad*stride:bad*stride+algo.HexSize()])))
		if _, err := ValidateStride(text, stride, algo, Mixed); err != nil {
			t.Fatalf("Mixed rejects uppercase: %v", err)
		}
	}
}

func TestArguments(t *testing.T) {
	if _, err := DecodeStride(make([]byte, 20), make([]byte, 40), 39, SHA1, Lower); err != ErrStride {
		t.Fatalf("stride 39: %v", err)
	}
	if _, err := DecodeStride(make([]byte, 20), make([]byte, 40), 40, Algo(7), Lower); err != ErrAlgo {
		t.Fatalf("algo 7: %v", err)
	}
	// dst with room for 2 of 3 records: an error, nothing written.
	text, _ := lines(rand.New(rand.NewSource(3)), 3, 41, SHA1)
	dst := make([]byte, 40)
	if k, err := DecodeStride(dst, text, 41, SHA1, Lower); k != 0 || err != ErrShortDst || !bytes.Equal(dst, make([]byte, 40)) {
		t.Fatalf("short dst: %d, %v", k, err)
	}
	if k, err := Decode(dst, text, SHA1, Lower); k != 0 || err != ErrShortDst || !bytes.Equal(dst, make([]byte, 40)) {
		t.Fatalf("short dst: %d, %v", k, err)
	}
	if k, err := DecodeStride(nil, nil, 41, SHA1, Lower); k != 0 || err != nil {
		t.Fatalf("empty: %d, %v", k, err)
	}
}

// No allocation on a call that succeeds: the error struct is returned by value from C.
func TestNoAllocations(t *testing.T) {
	text, raw := lines(rand.New(rand.NewSource(4)), 64, 41, SHA1)
	dst := make([]byte, len(raw))
	if a := testing.AllocsPerRun(100, func() { DecodeStride(dst, text, 41, SHA1, Lower) }); a != 0 {
		t.Fatalf("Decode allocates %v times a call", a)
	}
	if a := testing.AllocsPerRun(100, func() { ValidateStride(text, 41, SHA1, Lower) }); a != 0 {
		t.Fatalf("Validate allocates %v times a call", a)
	}
	id := string(text[:40])
	if a := testing.AllocsPerRun(100, func() { DecodeIDString(dst, id, Lower) }); a != 0 {
		t.Fatalf("DecodeIDString allocates %v times a call", a)
	}
	if a := testing.AllocsPerRun(100, func() { DecodeID(dst, text[:40], Lower) }); a != 0 {
		t.Fatalf("DecodeID allocates %v times a call", a)
	}
}

// Single IDs against encoding/hex and the rules: every byte value at every position.
func TestDecodeID(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, algo := range algos {
		text, raw := lines(rng, 1, algo.HexSize(), algo)
		dst := make([]byte, 32)
		if k, err := DecodeID(dst, text, Lower); err != nil || k != algo.RawSize() || !bytes.Equal(dst[:k], raw) {
			t.Fatalf("%v: %d, %v", algo, k, err)
		}
		for pos := 0; pos < algo.HexSize(); pos++ {
			for b := 0; b < 256; b++ {
				s := append([]byte(nil), text...)
				s[pos] = byte(b)
				isLower := (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f')
				isUpper := b >= 'A' && b <= 'F'
				for _, kind := range []Kind{Lower, Mixed} {
					for i := range dst {
						dst[i] = 0xAA
					}
					_, err := DecodeIDString(dst, string(s), kind)
					ok := isLower || (isUpper && kind == Mixed)
					if ok {
						want, _ := hex.DecodeString(string(s))
						if err != nil || !bytes.Equal(dst[:len(want)], want) {
							t.Fatalf("%v pos %d byte %#x kind %d: %v", algo, pos, b, kind, err)
						}
						continue
					}
					var e *Error
					class, code := ClassError, "bad-hex"
					if isUpper {
						class, code = ClassGit3, "uppercase-id"
					}
					if !errors.As(err, &e) || *e != (Error{0, pos + 1, class, code}) {
						t.Fatalf("%v pos %d byte %#x kind %d: %v", algo, pos, b, kind, err)
					}
					if !bytes.Equal(dst[:algo.RawSize()], make([]byte, algo.RawSize())) {
						t.Fatalf("dst holds garbage after the error")
					}
				}
			}
		}
		out := make([]byte, 64)
		if k, err := EncodeID(out, raw); err != nil || string(out[:k]) != hex.EncodeToString(raw) {
			t.Fatalf("EncodeID: %v", err)
		}
	}
	for _, n := range []int{0, 39, 41, 63, 65} {
		if _, err := DecodeID(make([]byte, 32), make([]byte, n), Mixed); err != ErrLength {
			t.Fatalf("length %d: %v", n, err)
		}
	}
	if _, err := DecodeID(make([]byte, 19), make([]byte, 40), Mixed); err != ErrLength {
		t.Fatalf("short dst: %v", err)
	}
}

// The portable decoder (what other architectures use) against the rules, here too.
func TestSWAR(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	for _, algo := range algos {
		text, raw := lines(rng, 1, algo.HexSize(), algo)
		for pos := 0; pos < algo.HexSize(); pos++ {
			for b := 0; b < 256; b++ {
				s := append([]byte(nil), text...)
				s[pos] = byte(b)
				isLower := (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f')
				isUpper := b >= 'A' && b <= 'F'
				for _, kind := range []Kind{Lower, Mixed} {
					ok := isLower || (isUpper && kind == Mixed)
					dst := make([]byte, 32)
					if oid.SWARBytes(dst, s, mixMask(kind)) != ok || oid.SWARString(dst, string(s), mixMask(kind)) != ok {
						t.Fatalf("%v pos %d byte %#x kind %d", algo, pos, b, kind)
					}
					if ok {
						want, _ := hex.DecodeString(string(s))
						if !bytes.Equal(dst[:len(want)], want) {
							t.Fatalf("%v pos %d byte %#x: wrong bytes", algo, pos, b)
						}
					}
				}
			}
		}
		dst := make([]byte, 32)
		if !oid.SWARBytes(dst, text, 0) || !bytes.Equal(dst[:len(raw)], raw) {
			t.Fatalf("%v: swar", algo)
		}
	}
}

func TestListing(t *testing.T) {
	text, _ := lines(rand.New(rand.NewSource(6)), 5000, 41, SHA1)
	text[41*1234+7] = 'C'   // line 1235, column 8: uppercase
	text[41*4000+39] = '\r' // line 4001, column 40: not hex
	var got []Problem
	collect := func(p Problem) error { got = append(got, p); return nil }
	for name, r := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return bytes.NewReader(text) },
		"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(text)) },
	} {
		got = nil
		st, err := VerifyListing(r(), FormatOIDs, AutoAlgo, Lower, collect)
		if err != nil || st.Lines != 5000 || st.OIDs != 4998 || st.Problems != 2 || st.Algo != SHA1 {
			t.Fatalf("%s: %+v, %v", name, st, err)
		}
		if len(got) != 2 || got[0].Line != 1235 || got[0].Column != 8 || got[0].Class != ClassGit3 || got[0].Code != "uppercase-id" || got[1].Code != "crlf" ||
			got[1].Line != 4001 || got[1].Column != 40 || got[1].Class != ClassError || got[1].Message == "" {
			t.Fatalf("%s: problems %v", name, got)
		}
	}
	// Mixed: the uppercase line is fine.
	if st, _ := VerifyListing(bytes.NewReader(text), FormatOIDs, SHA1, Mixed, nil); st.Problems != 1 {
		t.Fatalf("mixed: %+v", st)
	}
	// The callback stops it with its error.
	stop := errors.New("enough")
	if _, err := VerifyListing(bytes.NewReader(text), FormatOIDs, SHA1, Lower, func(Problem) error { return stop }); err != stop {
		t.Fatalf("stop: %v", err)
	}
	// A reader's error comes back.
	if _, err := VerifyListing(iotest.TimeoutReader(bytes.NewReader(text)), FormatOIDs, SHA1, Lower, nil); err != iotest.ErrTimeout {
		t.Fatalf("reader error: %v", err)
	}
	// A panic in the callback comes out of VerifyListing, not through C.
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Fatalf("recovered %v", r)
			}
		}()
		VerifyListing(bytes.NewReader(text), FormatOIDs, SHA1, Lower, func(Problem) error { panic("boom") })
	}()
	if _, err := VerifyListing(bytes.NewReader(text), Format(99), SHA1, Lower, nil); err != ErrBadListingOptions {
		t.Fatalf("format 99: %v", err)
	}
	if f, err := ParseFormat("batch-check"); err != nil || f != FormatBatchCheck || f.String() != "batch-check" {
		t.Fatalf("ParseFormat: %v %v", f, err)
	}
}

// What the installed git prints, for this repository's own history, in SHA-1 and in a
// fresh SHA-256 repository: rev-list --objects and cat-file --batch-check are clean.
func TestListingFromGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for _, algo := range algos {
		repo := filepath.Join(dir, algo.String())
		run := func(stdin io.Reader, args ...string) []byte {
			cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
			cmd.Stdin = stdin
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git %v: %v", args, err)
			}
			return out
		}
		if err := exec.Command("git", "init", "-q", "--object-format="+algo.String(), repo).Run(); err != nil {
			t.Fatalf("git init: %v", err)
		}
		for i := 0; i < 20; i++ {
			run(nil, "commit", "-q", "--allow-empty", "-m", fmt.Sprint("commit ", i))
		}
		// Bare IDs, in Go too when built without cgo.
		ids := run(nil, "rev-list", "--all")
		st, err := VerifyListing(bytes.NewReader(ids), FormatOIDs, AutoAlgo, Lower, func(p Problem) error {
			return fmt.Errorf("problem %v", p)
		})
		if err != nil || st.Lines != 20 || st.OIDs != 20 || st.Algo != algo || st.Format != FormatOIDs {
			t.Fatalf("%v oids: %+v %v", algo, st, err)
		}
		up := bytes.ToUpper(ids)
		if st, err := VerifyListing(bytes.NewReader(up), FormatOIDs, algo, Lower, nil); err != nil || st.Problems != 20 || st.OIDs != 0 {
			t.Fatalf("%v oids in uppercase: %+v %v", algo, st, err)
		}
		// And decoded in bulk, against git's own.
		raw := make([]byte, 20*algo.RawSize())
		if k, err := Decode(raw, ids, algo, Lower); err != nil || k != 20 {
			t.Fatalf("%v: decode git's IDs: %d %v", algo, k, err)
		}
		if want, _ := hex.DecodeString(string(ids[:algo.HexSize()])); !bytes.Equal(raw[:algo.RawSize()], want) {
			t.Fatalf("%v: decoded ID differs", algo)
		}
		// Refs as git lists them (in Go too without cgo): show-ref -d, ls-remote
		// --symref, a packed-refs file with a peeled tag. Clean, every ID counted.
		run(nil, "tag", "-a", "-m", "a tag", "v1")
		run(nil, "pack-refs", "--all")
		packed, err := os.ReadFile(filepath.Join(repo, ".git", "packed-refs"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			format Format
			text   []byte
			ids    uint64
		}{
			{FormatShowRef, run(nil, "show-ref", "-d"), 3},
			{FormatLsRemote, run(nil, "ls-remote", "--symref", "."), 4},
			{FormatPackedRefs, packed, 3},
		} {
			st, err := VerifyListing(bytes.NewReader(c.text), c.format, AutoAlgo, Lower, func(p Problem) error {
				return fmt.Errorf("problem %v", p)
			})
			if err != nil || st.OIDs != c.ids || st.Algo != algo {
				t.Fatalf("%v %v: %+v %v\n%s", algo, c.format, st, err, c.text)
			}
		}
		run(nil, "tag", "-d", "v1")
		revs := run(nil, "rev-list", "--objects", "--all")
		if !HaveCgo {
			if _, err := VerifyListing(bytes.NewReader(revs), FormatAuto, AutoAlgo, Lower, nil); !errors.Is(err, ErrNeedsCgo) {
				t.Fatalf("auto without cgo: %v", err)
			}
			continue
		}
		st, err = VerifyListing(bytes.NewReader(revs), FormatAuto, AutoAlgo, Lower, func(p Problem) error {
			return fmt.Errorf("problem %v", p)
		})
		if err != nil || st.Lines != 21 || st.OIDs != 21 || st.Algo != algo || st.Format != FormatRevList {
			t.Fatalf("%v rev-list: %+v %v", algo, st, err)
		}
		// cat-file takes the whole line as the name: give it the IDs alone.
		var names bytes.Buffer
		for _, l := range strings.Split(strings.TrimSpace(string(revs)), "\n") {
			names.WriteString(strings.Fields(l)[0] + "\n")
		}
		checks := run(&names, "cat-file", "--batch-check")
		if st, err := VerifyListing(bytes.NewReader(checks), FormatBatchCheck, algo, Lower, nil); err != nil || st.Problems != 0 || st.OIDs != 21 {
			t.Fatalf("%v batch-check: %+v %v", algo, st, err)
		}
		// The same listing in uppercase: one problem a line, each uppercase.
		var n uint64
		up = bytes.ToUpper(revs)
		VerifyListing(bytes.NewReader(up), FormatRevList, algo, Lower, func(p Problem) error {
			if p.Class == ClassGit3 {
				n++
			}
			return nil
		})
		if n != 21 {
			t.Fatalf("%v: %d uppercase problems in 21 uppercase lines", algo, n)
		}
	}
}

// Decode and Validate take lines of one ID each and nothing else: each way a line can
// be wrong is its own error, at its line and column, with the lines before decoded.
func TestDecodeStrict(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for _, algo := range algos {
		hexsz, rawsz := algo.HexSize(), algo.RawSize()
		text, raw := lines(rng, 4, hexsz+1, algo)
		dst := make([]byte, 5*rawsz)
		if k, err := Decode(dst, text, algo, Lower); err != nil || k != 4 || !bytes.Equal(dst[:4*rawsz], raw) {
			t.Fatalf("%v: good lines: %d, %v", algo, k, err)
		}
		if k, err := Validate(nil, algo, Lower); err != nil || k != 0 {
			t.Fatalf("%v: empty: %d, %v", algo, k, err)
		}
		id := string(text[:hexsz])
		good := string(text[hexsz+1 : 2*(hexsz+1)])
		upper := strings.ToUpper(id[:hexsz-1]) + "G"
		for _, c := range []struct {
			name, src   string
			col         int
			code        string
			mixedPasses bool
		}{
			{"no newline at the end", good + id, hexsz + 1, "no-newline", false},
			{"a truncated last line", good + id[:10], 11, "short-id", false},
			{"a short ID", good + id[:10] + "\n" + good, 11, "short-id", false},
			{"CRLF", good + id + "\r\n" + good, hexsz + 1, "crlf", false},
			{"junk after the ID", good + id + " x\n", hexsz + 1, "long-line", false},
			{"a long ID", good + id + "a\n", hexsz + 1, "long-id", false},
			{"trailing garbage", good + id + "\n" + "\x00", 1, "bad-hex", false},
			{"a blank line", good + "\n" + id + "\n", 1, "short-id", false},
			{"uppercase", good + strings.ToUpper(id) + "\n", strings.IndexAny(id, "abcdef") + 1, "uppercase-id", true},
			{"not hex before uppercase", good + upper + "\n", hexsz, "bad-hex", false},
		} {
			if c.code == "uppercase-id" && strings.IndexAny(id, "abcdef") < 0 {
				continue
			}
			want := 1
			if c.name == "trailing garbage" {
				want = 2
			}
			for i := range dst {
				dst[i] = 0xAA
			}
			k, err := Decode(dst, []byte(c.src), algo, Lower)
			var e *Error
			if !errors.As(err, &e) || k != want || e.Record != want || e.Column != c.col || e.Code != c.code {
				t.Fatalf("%v: %s: %d, %+v", algo, c.name, k, err)
			}
			if !bytes.Equal(dst[:rawsz], raw[rawsz:2*rawsz]) {
				t.Fatalf("%v: %s: the good line before is not decoded", algo, c.name)
			}
			if !bytes.Equal(dst[want*rawsz:(want+1)*rawsz], make([]byte, rawsz)) {
				t.Fatalf("%v: %s: the bad line's output is not zeroed", algo, c.name)
			}
			if k2, err2 := Validate([]byte(c.src), algo, Lower); k2 != k || fmt.Sprint(err2) != fmt.Sprint(err) {
				t.Fatalf("%v: %s: Validate %d %v, Decode %d %v", algo, c.name, k2, err2, k, err)
			}
			if _, err := Validate([]byte(c.src), algo, Mixed); (err == nil) != c.mixedPasses {
				t.Fatalf("%v: %s: Mixed: %v", algo, c.name, err)
			}
		}
	}
}

// Every format the library has a name for has its constant, and back.
func TestFormats(t *testing.T) {
	for f := FormatAuto; f < formatCount; f++ {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Fatalf("%d: %q: %v, %v", int(f), f.String(), g, err)
		}
	}
	if FormatMergeTreeZ != formatCount-1 || FormatMergeTreeZ.String() != "merge-tree-z" {
		t.Fatalf("the last format: %d %q", int(FormatMergeTreeZ), FormatMergeTreeZ)
	}
}

// EncodeID against encoding/hex, for every byte value at every place.
func TestEncodeID(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	out := make([]byte, 64)
	for _, n := range []int{20, 32} {
		raw := make([]byte, n)
		for pos := 0; pos < n; pos++ {
			rng.Read(raw)
			for b := 0; b < 256; b++ {
				raw[pos] = byte(b)
				if k, err := EncodeID(out, raw); err != nil || k != 2*n || string(out[:k]) != hex.EncodeToString(raw) {
					t.Fatalf("%x: %q, %v", raw, out[:k], err)
				}
			}
		}
	}
	for _, n := range []int{0, 19, 21, 31, 33} {
		if _, err := EncodeID(out, make([]byte, n)); err != ErrLength {
			t.Fatalf("length %d: %v", n, err)
		}
	}
	if _, err := EncodeID(make([]byte, 39), make([]byte, 20)); err != ErrLength {
		t.Fatalf("short dst: %v", err)
	}
}

// One Class for IDs, listings, the audit and the push check, named as hexoid audit
// names it.
func TestClass(t *testing.T) {
	for c, want := range map[Class]string{ClassGit3: "git3", ClassError: "error", ClassWarn: "warn", 0: "Class(0)", 9: "Class(9)"} {
		if c.String() != want {
			t.Fatalf("%d: %q", int(c), c.String())
		}
	}
	_, err := Validate([]byte(strings.Repeat("A", 40)+"\n"), SHA1, Lower)
	var e *Error
	if !errors.As(err, &e) || e.Class != ClassGit3 || !strings.Contains(e.Error(), "uppercase") {
		t.Fatalf("uppercase: %v", err)
	}
	_, err = Validate([]byte(strings.Repeat("A", 39)+"g\n"), SHA1, Mixed)
	if !errors.As(err, &e) || e.Class != ClassError || e.Column != 40 {
		t.Fatalf("not hex: %v", err)
	}
}

// pack-objects' input, as git pack-objects reads it (checked in Go too without cgo):
// each way a line is wrong, at its column, with the library's code and message.
func TestPackObjectsListing(t *testing.T) {
	id := "e83c5163316f89bfbde7d9ab23ca2e25604af290"
	text := "-" + id + "\n" + id + " path/to/file\n" + id + "\n" + id + "x\n" + strings.ToUpper(id) + "0\n" +
		"-" + id + " x\n" + id[:12] + " y\n" + id + "\r\n"
	var got []string
	st, err := VerifyListing(strings.NewReader(text), FormatPackObjects, AutoAlgo, Lower, func(p Problem) error {
		got = append(got, fmt.Sprintf("%d:%d %s %s: %s", p.Line, p.Column, p.Class, p.Code, p.Message))
		return nil
	})
	want := []string{
		"4:41 error syntax: expected a space after the object ID, found 'x'",
		"5:41 error long-id: object ID too long: more than 40 hex digits (sha1)",
		"6:42 error syntax: expected the end of the line, found ' '",
		"7:1 error abbreviated-id: abbreviated object ID: 12 hex digits, expected 40 (sha1): run git with --no-abbrev to print whole IDs",
		"8:41 error crlf: carriage return before end of line (CRLF line ending)",
	}
	if err != nil || st.Lines != 8 || st.OIDs != 3 || st.Problems != 5 || st.Algo != SHA1 || st.Format != FormatPackObjects ||
		strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%+v %v:\n%s", st, err, strings.Join(got, "\n"))
	}
}
