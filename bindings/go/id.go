package hexoid

import (
	"encoding/binary"

	"hexoid.dev/go/hexoid/internal/oid"
)

// Single IDs, in Go: a cgo call would cost more than the work.

// Single IDs are decoded by internal/oid: sixteen digits to an SSE2 register on amd64,
// eight to a 64-bit word elsewhere. The tables, for errors only, map a byte to its value, or to bad (0x80) when it is not a hex digit
// of the kind, upperBit (0x40) marking 'A'..'F' in the lowercase-only one.
const (
	bad      = 0x80
	upperBit = 0x40
)

var lowerTable, mixedTable = tables()

func tables() (lower, mixed [256]byte) {
	for i := range lower {
		lower[i], mixed[i] = bad, bad
	}
	for c := '0'; c <= '9'; c++ {
		lower[c], mixed[c] = byte(c-'0'), byte(c-'0')
	}
	for c := 'a'; c <= 'f'; c++ {
		lower[c], mixed[c] = byte(c-'a'+10), byte(c-'a'+10)
		mixed[c-'a'+'A'] = byte(c - 'a' + 10)
		lower[c-'a'+'A'] = bad | upperBit
	}
	return
}

// DecodeID decodes one ID of 40 or 64 hex digits into dst (which needs 20 or 32 bytes)
// and returns how many bytes it wrote. Any other length is ErrLength. A bad digit is an
// *Error with Record 0 and the digit's column (from 1) as Column; dst[:len(src)/2] is then zeroed.
func DecodeID(dst, src []byte, kind Kind) (int, error) {
	n := len(src)
	if (n != 40 && n != 64) || len(dst) < n/2 {
		return 0, ErrLength
	}
	if oid.DecodeBytes(dst, src, mixMask(kind)) {
		return n / 2, nil
	}
	return 0, idError(dst[:n/2], src, kind)
}

// DecodeIDString is DecodeID for a string, without converting it.
func DecodeIDString(dst []byte, src string, kind Kind) (int, error) {
	n := len(src)
	if (n != 40 && n != 64) || len(dst) < n/2 {
		return 0, ErrLength
	}
	if oid.DecodeString(dst, src, mixMask(kind)) {
		return n / 2, nil
	}
	return 0, idError(dst[:n/2], src, kind)
}

// mixMask lets 'A'..'F' through in Mixed mode: it copies bit 6 (set in letters) to
// bit 5, which lowercases them before they are compared.
func mixMask(kind Kind) uint64 {
	if kind == Mixed {
		return oid.Mix
	}
	return 0
}

// idError zeroes out and describes the first bad digit of src.
func idError[T string | []byte](out []byte, src T, kind Kind) error {
	for i := range out {
		out[i] = 0
	}
	tab := &lowerTable
	if kind == Mixed {
		tab = &mixedTable
	}
	for i := 0; i < len(src); i++ {
		if v := tab[src[i]]; v&bad != 0 {
			class := ClassError
			if v&upperBit != 0 {
				class = ClassGit3
			}
			code := CodeBadHex
			if class == ClassGit3 {
				code = CodeUppercaseID
			}
			return &Error{Record: 0, Column: i + 1, Class: class, Code: code}
		}
	}
	return nil // not reached: decode8 and the tables agree
}

// EncodeID writes the 20 or 32 bytes of src as 40 or 64 lowercase hex digits into dst
// and returns how many it wrote; any other length, or a dst too short, is ErrLength.
// Four bytes at a time: their eight nibbles spread to the eight bytes of a word, each
// then raised to its digit ('0' + n, and 39 more from 10 on) without a branch.
func EncodeID(dst, src []byte) (int, error) {
	n := len(src)
	if (n != 20 && n != 32) || len(dst) < 2*n {
		return 0, ErrLength
	}
	out := dst[:2*n]
	i := 0
	for ; i+8 <= n; i += 8 {
		x := binary.BigEndian.Uint64(src[i:])
		o := out[2*i : 2*i+16]
		binary.BigEndian.PutUint64(o, hex8(uint32(x>>32)))
		binary.BigEndian.PutUint64(o[8:], hex8(uint32(x)))
	}
	if i < n { // 20 bytes: the last four
		binary.BigEndian.PutUint64(out[2*i:], hex8(binary.BigEndian.Uint32(src[i:])))
	}
	return 2 * n, nil
}

// hex8 is the eight lowercase hex digits of x, the first in the top byte.
func hex8(x uint32) uint64 {
	const ones = 0x0101010101010101
	v := uint64(x)
	v = (v | v<<16) & 0x0000FFFF0000FFFF
	v = (v | v<<8) & 0x00FF00FF00FF00FF
	v = (v | v<<4) & 0x0F0F0F0F0F0F0F0F
	letters := ((v + 6*ones) >> 4) & ones // 1 in each byte from 10 on
	return v + '0'*ones + letters*('a'-'0'-10)
}
