package hexoid

import "hexoid.dev/go/hexoid/internal/oid"

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
			class := ClassHex
			if v&upperBit != 0 {
				class = ClassUpper
			}
			code := "bad-hex"
			if class == ClassUpper {
				code = "uppercase-id"
			}
			return &Error{Record: 0, Column: i + 1, Class: class, Code: code}
		}
	}
	return nil // not reached: decode8 and the tables agree
}

const digits = "0123456789abcdef"

// EncodeID writes the 20 or 32 bytes of src as 40 or 64 lowercase hex digits into dst
// and returns how many it wrote; any other length, or a dst too short, is ErrLength.
func EncodeID(dst, src []byte) (int, error) {
	if (len(src) != 20 && len(src) != 32) || len(dst) < 2*len(src) {
		return 0, ErrLength
	}
	out := dst[:2*len(src)]
	for i, b := range src {
		out[2*i] = digits[b>>4]
		out[2*i+1] = digits[b&15]
	}
	return len(out), nil
}
