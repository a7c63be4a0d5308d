// Package oid decodes one object ID's hex digits, without cgo: SSE2 on amd64 (in Go
// assembly, which a cgo package cannot hold), eight digits to a 64-bit word elsewhere.
// The callers check lengths: src is 40 or 64 bytes, dst has room for half of it.
//
// SPDX-License-Identifier: MIT
package oid

import "encoding/binary"

// Mix, as mix, lets 'A'..'F' through as well: it copies bit 6 (set in letters) to bit 5,
// which lowercases them before they are compared; 0 accepts lowercase only.
const Mix = ones * 0x20

const ones = 0x0101010101010101

// SWARBytes and SWARString decode 40 or 64 digits (the callers check) in Go, eight to
// a 64-bit word; amd64 uses SSE2 instead (id_amd64.s). They report whether all digits
// were valid.
func SWARBytes(dst, src []byte, mix uint64) bool {
	var bad uint64
	if len(src) == 40 {
		_, _ = src[39], dst[19]
		bad = word(dst[0:4], le64(src[0:8]), mix) | word(dst[4:8], le64(src[8:16]), mix) |
			word(dst[8:12], le64(src[16:24]), mix) | word(dst[12:16], le64(src[24:32]), mix) |
			word(dst[16:20], le64(src[32:40]), mix)
	} else {
		_, _ = src[63], dst[31]
		bad = word(dst[0:4], le64(src[0:8]), mix) | word(dst[4:8], le64(src[8:16]), mix) |
			word(dst[8:12], le64(src[16:24]), mix) | word(dst[12:16], le64(src[24:32]), mix) |
			word(dst[16:20], le64(src[32:40]), mix) | word(dst[20:24], le64(src[40:48]), mix) |
			word(dst[24:28], le64(src[48:56]), mix) | word(dst[28:32], le64(src[56:64]), mix)
	}
	return bad == 0
}

func SWARString(dst []byte, src string, mix uint64) bool {
	var bad uint64
	if len(src) == 40 {
		_, _ = src[39], dst[19]
		bad = word(dst[0:4], le64s(src[0:8]), mix) | word(dst[4:8], le64s(src[8:16]), mix) |
			word(dst[8:12], le64s(src[16:24]), mix) | word(dst[12:16], le64s(src[24:32]), mix) |
			word(dst[16:20], le64s(src[32:40]), mix)
	} else {
		_, _ = src[63], dst[31]
		bad = word(dst[0:4], le64s(src[0:8]), mix) | word(dst[4:8], le64s(src[8:16]), mix) |
			word(dst[8:12], le64s(src[16:24]), mix) | word(dst[12:16], le64s(src[24:32]), mix) |
			word(dst[16:20], le64s(src[32:40]), mix) | word(dst[20:24], le64s(src[40:48]), mix) |
			word(dst[24:28], le64s(src[48:56]), mix) | word(dst[28:32], le64s(src[56:64]), mix)
	}
	return bad == 0
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func le64s(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
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
