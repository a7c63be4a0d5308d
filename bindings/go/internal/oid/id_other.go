//go:build !amd64

package oid

// DecodeBytes decodes src into dst; false if a digit is bad.
func DecodeBytes(dst, src []byte, mix uint64) bool { return SWARBytes(dst, src, mix) }

// DecodeString is DecodeBytes for a string.
func DecodeString(dst []byte, src string, mix uint64) bool { return SWARString(dst, src, mix) }
