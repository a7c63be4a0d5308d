package hexoid

import "encoding/binary"

// Single IDs, in Go: a cgo call would cost more than the work.

// Single IDs are decoded eight digits at a time in a 64-bit word (SWAR, see word); the
// tables, for errors only, map a byte to its value, or to bad (0x80) when it is not a hex digit
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
// *Error with Record 0 and the digit's offset as Column; dst[:len(src)/2] is then zeroed.
func DecodeID(dst, src []byte, kind Kind) (int, error) {
	mix := mixMask(kind)
	var badBits uint64
	switch {
	case len(src) == 40 && len(dst) >= 20:
		_, _ = src[39], dst[19]
		badBits = word(dst[0:4], le64(src[0:8]), mix) | word(dst[4:8], le64(src[8:16]), mix) |
			word(dst[8:12], le64(src[16:24]), mix) | word(dst[12:16], le64(src[24:32]), mix) |
			word(dst[16:20], le64(src[32:40]), mix)
	case len(src) == 64 && len(dst) >= 32:
		_, _ = src[63], dst[31]
		badBits = word(dst[0:4], le64(src[0:8]), mix) | word(dst[4:8], le64(src[8:16]), mix) |
			word(dst[8:12], le64(src[16:24]), mix) | word(dst[12:16], le64(src[24:32]), mix) |
			word(dst[16:20], le64(src[32:40]), mix) | word(dst[20:24], le64(src[40:48]), mix) |
			word(dst[24:28], le64(src[48:56]), mix) | word(dst[28:32], le64(src[56:64]), mix)
	default:
		return 0, ErrLength
	}
	if badBits == 0 {
		return len(src) / 2, nil
	}
	return 0, idError(dst[:len(src)/2], src, kind)
}

// DecodeIDString is DecodeID for a string, without converting it.
func DecodeIDString(dst []byte, src string, kind Kind) (int, error) {
	mix := mixMask(kind)
	var badBits uint64
	switch {
	case len(src) == 40 && len(dst) >= 20:
		_, _ = src[39], dst[19]
		badBits = word(dst[0:4], le64s(src[0:8]), mix) | word(dst[4:8], le64s(src[8:16]), mix) |
			word(dst[8:12], le64s(src[16:24]), mix) | word(dst[12:16], le64s(src[24:32]), mix) |
			word(dst[16:20], le64s(src[32:40]), mix)
	case len(src) == 64 && len(dst) >= 32:
		_, _ = src[63], dst[31]
		badBits = word(dst[0:4], le64s(src[0:8]), mix) | word(dst[4:8], le64s(src[8:16]), mix) |
			word(dst[8:12], le64s(src[16:24]), mix) | word(dst[12:16], le64s(src[24:32]), mix) |
			word(dst[16:20], le64s(src[32:40]), mix) | word(dst[20:24], le64s(src[40:48]), mix) |
			word(dst[24:28], le64s(src[48:56]), mix) | word(dst[28:32], le64s(src[56:64]), mix)
	default:
		return 0, ErrLength
	}
	if badBits == 0 {
		return len(src) / 2, nil
	}
	return 0, idError(dst[:len(src)/2], src, kind)
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func le64s(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

const ones = 0x0101010101010101

// mixMask lets 'A'..'F' through in Mixed mode: it copies bit 6 (set in letters) to
// bit 5, which lowercases them before they are compared.
func mixMask(kind Kind) uint64 {
	if kind == Mixed {
		return ones * 0x20
	}
	return 0
}

// word decodes the eight hex digits in x (the first in the low byte) into the four
// bytes of out and returns nonzero bits if any digit is bad. Each byte's value is
// guessed from its low nibble (plus 9 for a letter, which bit 6 marks: '0'..'9' are
// 0x30..0x39, 'a'..'f' 0x61..0x66), then encoded back as the lowercase digit it would
// be and compared with what is there; a guess of 16 or more is a letter past 'f'. No
// byte's arithmetic carries into the next.
func word(out []byte, x, mix uint64) uint64 {
	letter := x >> 6 & ones
	v := x&(ones*0x0f) + letter<<3 + letter
	above9 := (v + ones*0x76) >> 7 & ones
	bad := (v + ones*0x30 + above9*0x27) ^ (x | (x>>1)&mix) | v&(ones*0x10)
	// Each 16-bit lane holds two digits, the first low: make it one byte, then pack.
	t := (v<<4 | v>>8) & 0x00ff00ff00ff00ff
	t = (t | t>>8) & 0x0000ffff0000ffff
	binary.LittleEndian.PutUint32(out, uint32(t|t>>16))
	return bad
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
			return &Error{Record: 0, Column: i, Class: class}
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
