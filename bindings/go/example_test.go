package hexoid_test

import (
	"fmt"
	"strings"

	"hexoid.dev/go/hexoid"
)

// git rev-list's output checked for Git 3.0, then decoded: the strict calls take lines of
// one ID each and nothing else.
func Example() {
	lines := []byte("e83c5163316f89bfbde7d9ab23ca2e25604af290\n" +
		"8d2B29d3dd4fbf94e5e2f4f0bd8e2d1a0a6c7e6d\n")
	if n, err := hexoid.Validate(lines, hexoid.SHA1, hexoid.Lower); err != nil {
		fmt.Printf("%d good, then %v\n", n, err)
	}
	raw := make([]byte, 2*hexoid.SHA1.RawSize())
	n, err := hexoid.Decode(raw, lines, hexoid.SHA1, hexoid.Mixed) // as Git 2.x reads it
	fmt.Println(n, err, fmt.Sprintf("%x", raw[20:]))
	// Output:
	// 1 good, then hexoid: record 1, column 4: uppercase hex digit: Git 3.0 accepts only lowercase
	// 2 <nil> 8d2b29d3dd4fbf94e5e2f4f0bd8e2d1a0a6c7e6d
}

// Each way a line can be wrong has its Code, at its column.
func ExampleValidate() {
	id := "e83c5163316f89bfbde7d9ab23ca2e25604af290"
	for _, text := range []string{
		id + "\n" + id + "\n",
		id + "\r\n",
		id[:39] + "\n",
		id + "0\n",
		id + " x\n",
		id,
		strings.Replace(id, "e", "E", 1) + "\n",
		strings.Replace(id, "e", "g", 1) + "\n",
	} {
		n, err := hexoid.Validate([]byte(text), hexoid.SHA1, hexoid.Lower)
		if e, ok := err.(*hexoid.Error); ok {
			fmt.Printf("%d good; line %d, column %d: %s (%s)\n", n, e.Record+1, e.Column, e.Code, e.Class)
		} else {
			fmt.Printf("%d good\n", n)
		}
	}
	// Output:
	// 2 good
	// 0 good; line 1, column 41: crlf (error)
	// 0 good; line 1, column 40: short-id (error)
	// 0 good; line 1, column 41: long-id (error)
	// 0 good; line 1, column 41: long-line (error)
	// 0 good; line 1, column 41: no-newline (error)
	// 0 good; line 1, column 1: uppercase-id (git3)
	// 0 good; line 1, column 1: bad-hex (error)
}

func ExampleDecodeID() {
	var raw [32]byte
	n, err := hexoid.DecodeIDString(raw[:], "e83c5163316f89bfbde7d9ab23ca2e25604af290", hexoid.Lower)
	fmt.Printf("%d %v %x\n", n, err, raw[:n])
	_, err = hexoid.DecodeIDString(raw[:], "E83C5163316F89BFBDE7D9AB23CA2E25604AF290", hexoid.Lower)
	fmt.Println(err)
	// Output:
	// 20 <nil> e83c5163316f89bfbde7d9ab23ca2e25604af290
	// hexoid: record 0, column 1: uppercase hex digit: Git 3.0 accepts only lowercase
}

func ExampleEncodeID() {
	raw := []byte{0xe8, 0x3c, 0x51, 0x63, 0x31, 0x6f, 0x89, 0xbf, 0xbd, 0xe7,
		0xd9, 0xab, 0x23, 0xca, 0x2e, 0x25, 0x60, 0x4a, 0xf2, 0x90}
	var hex [64]byte
	n, _ := hexoid.EncodeID(hex[:], raw)
	fmt.Println(string(hex[:n]))
	// Output:
	// e83c5163316f89bfbde7d9ab23ca2e25604af290
}

// A listing as git prints it, streamed: each bad line reaches the callback.
func ExampleVerifyListing() {
	listing := "e83c5163316f89bfbde7d9ab23ca2e25604af290\n" +
		"8D2B29D3DD4FBF94E5E2F4F0BD8E2D1A0A6C7E6D\n" +
		"4b825dc642cb6eb9a060e54bf8d69288fbee4904\r\n"
	stats, err := hexoid.VerifyListing(strings.NewReader(listing), hexoid.FormatOIDs, hexoid.AutoAlgo, hexoid.Lower,
		func(p hexoid.Problem) error {
			fmt.Printf("%d:%d: %s (%s)\n", p.Line, p.Column, p.Code, p.Class)
			return nil
		})
	fmt.Println(stats.Lines, stats.OIDs, stats.Problems, stats.Algo, err)
	// Output:
	// 2:2: uppercase-id (git3)
	// 3:41: crlf (error)
	// 3 1 2 sha1 <nil>
}
