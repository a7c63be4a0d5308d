package hexoid

import (
	"encoding/hex"
	"fmt"
	"math/rand"
	"testing"
)

// 64K lines of 40 hex digits and a newline, as pack-objects prints them: hexoid's bulk
// decode (lowercase-only, so it checks more than encoding/hex does) beside encoding/hex
// line by line.
func BenchmarkDecode64K(b *testing.B) {
	const n = 65536
	text, raw := lines(rand.New(rand.NewSource(7)), n, 41, SHA1)
	dst := make([]byte, len(raw))
	b.Run("hexoid", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for i := 0; i < b.N; i++ {
			if _, err := Decode(dst, text, SHA1, Lower); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-hex", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for i := 0; i < b.N; i++ {
			for j := 0; j < n; j++ {
				if _, err := hex.Decode(dst[j*20:j*20+20], text[j*41:j*41+40]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// One ID: hexoid's decoder (no cgo: SSE2 assembly on amd64) beside encoding/hex, from
// bytes and from a string (hex.DecodeString allocates its result), and, to show what a
// cgo call costs, the bulk call with one record.
func BenchmarkDecodeID(b *testing.B) {
	text, _ := lines(rand.New(rand.NewSource(8)), 1, 40, SHA1)
	dst := make([]byte, 20)
	b.Run("hexoid", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := DecodeID(dst, text, Lower); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-hex", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := hex.Decode(dst, text); err != nil {
				b.Fatal(err)
			}
		}
	})
	id := string(text)
	b.Run("hexoid-string", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := DecodeIDString(dst, id, Lower); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-hex-string", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := hex.DecodeString(id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hexoid-bulk-call", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := DecodeStride(dst, text, 40, SHA1, Lower); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncodeID(b *testing.B) {
	for _, n := range []int{20, 32} {
		raw := make([]byte, n)
		rand.New(rand.NewSource(9)).Read(raw)
		dst := make([]byte, 2*n)
		b.Run(fmt.Sprintf("hexoid-%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				EncodeID(dst, raw)
			}
		})
		b.Run(fmt.Sprintf("encoding-hex-%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				hex.Encode(dst, raw)
			}
		})
	}
}
