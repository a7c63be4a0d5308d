package oid

// SSE2, in id_amd64.s: every amd64 CPU has it.

//go:noescape
func decodeHex(dst *byte, src *byte, n int, mix uint64) bool

//go:noescape
func decodeHexString(dst *byte, src string, mix uint64) bool

// DecodeBytes decodes src into dst; false if a digit is bad.
func DecodeBytes(dst, src []byte, mix uint64) bool {
	return decodeHex(&dst[0], &src[0], len(src), mix)
}

// DecodeString is DecodeBytes for a string.
func DecodeString(dst []byte, src string, mix uint64) bool {
	return decodeHexString(&dst[0], src, mix)
}
