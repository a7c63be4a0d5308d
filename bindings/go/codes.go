package hexoid

// The Code of a Problem, a Finding, a PushFinding or an Error: the library's names for
// what a finding is about (hexoid_codes.h), one list for listings, packs and loose
// objects, the audit and the push check. Programs compare Code with these, not the
// Message, which is for people.
const (
	CodeUppercaseID         = "uppercase-id"          // Git 2.x accepts it, Git 3.0 rejects it
	CodeBadID               = "bad-id"                // not hexsz hex digits
	CodeIDMismatch          = "id-mismatch"           // content rehashed to another ID
	CodeCRC32Mismatch       = "crc32-mismatch"        // a packed object's CRC32
	CodeChecksumMismatch    = "checksum-mismatch"     // a pack's or index's trailing checksum
	CodePackLayout          = "pack-layout"           // object count, offsets, an unusable pack
	CodeObjectHeader        = "object-header"         // an object's type or size
	CodeZlib                = "zlib"                  // a broken zlib stream
	CodeDelta               = "delta"                 // delta instructions
	CodeDeltaBase           = "delta-base"            // a missing delta base, or a loop
	CodeUnreadable          = "unreadable"            // a file or folder that cannot be read
	CodeTooLarge            = "too-large"             // a commit or tag too large to read
	CodeUppercaseIDAccepted = "uppercase-id-accepted" // uppercase Git 3.0 still takes
	CodeNotAFile            = "not-a-file"            // a FIFO, socket or device
	CodeBrokenLink          = "broken-link"           // a gitdir, commondir or submodule
	CodeRepeatedTree        = "repeated-tree"         // a notes tree not walked twice
	CodeBadHex              = "bad-hex"               // a byte that is no hex digit
	CodeShortID             = "short-id"              // too few digits
	CodeLongID              = "long-id"               // too many digits
	CodeLongLine            = "long-line"             // more after a bare ID
	CodeAbbreviatedID       = "abbreviated-id"        // git run without --no-abbrev
	CodeUnknownHash         = "unknown-hash"          // neither 40 nor 64 digits
	CodeCRLF                = "crlf"                  // a carriage return before the newline
	CodeNULByte             = "nul-byte"              // a NUL byte in a line
	CodeEmptyLine           = "empty-line"            // an empty line
	CodeHugeLine            = "huge-line"             // a line longer than 1 MiB
	CodeSyntax              = "syntax"                // the text around the IDs
	CodeBundlePack          = "bundle-pack"           // a bundle without its pack
	CodeUnknownFormat       = "unknown-format"        // no format fits the listing

	// CodeNoNewline is Decode's and Validate's own, not the library's: their input is
	// whole lines, and the last one has no newline (a listing's may lack it).
	CodeNoNewline = "no-newline"
)

// codes is the library's list in its order: codes[n] is the name of enum hexoid_code n.
var codes = [...]string{"", CodeUppercaseID, CodeBadID, CodeIDMismatch, CodeCRC32Mismatch,
	CodeChecksumMismatch, CodePackLayout, CodeObjectHeader, CodeZlib, CodeDelta, CodeDeltaBase,
	CodeUnreadable, CodeTooLarge, CodeUppercaseIDAccepted, CodeNotAFile, CodeBrokenLink,
	CodeRepeatedTree, CodeBadHex, CodeShortID, CodeLongID, CodeLongLine, CodeAbbreviatedID,
	CodeUnknownHash, CodeCRLF, CodeNULByte, CodeEmptyLine, CodeHugeLine, CodeSyntax,
	CodeBundlePack, CodeUnknownFormat}

// formerCodes are the names the push check (PushFinding.Code) gave before the codes were
// one list, and theirs now.
var formerCodes = map[string]string{"uppercase": CodeUppercaseID, "crc": CodeCRC32Mismatch,
	"checksum": CodeChecksumMismatch, "layout": CodePackLayout, "header": CodeObjectHeader,
	"base": CodeDeltaBase, "io": CodeUnreadable}

// CanonicalCode is the Code of a name as the library gives it now: a name an older
// version gave (the push check's "uppercase", "crc", "checksum", "layout", "header",
// "base", "io") is its name today; any other name is itself.
func CanonicalCode(name string) string {
	if c, ok := formerCodes[name]; ok {
		return c
	}
	return name
}
