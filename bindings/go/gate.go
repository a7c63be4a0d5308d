package hexoid

import (
	"errors"
	"fmt"
	"time"
)

// RefUpdate is one line of a pre-receive hook's input: the ref's old and new values (40
// or 64 lowercase hex digits, all zeros for none) and its name.
type RefUpdate struct {
	Old, New, Ref string
}

// PushOptions are the push check's settings, those of `hexoid pre-receive` (its git
// config names in brackets). The zero value (or nil) is the hook's default: lowercase
// only, rejecting, one job, no time limit, git from PATH, the repository and alternates
// from the environment as receive-pack sets them for a hook.
type PushOptions struct {
	Mixed          bool          // uppercase IDs only warn (hexoid.mixed)
	ReportOnly     bool          // nothing rejects (hexoid.reportOnly)
	Jobs           int           // threads for each pushed pack, 0..256 (hexoid.jobs)
	Timeout        time.Duration // 0: none; else the check ends then, incomplete (hexoid.timeout)
	TimeoutAccepts bool          // a check the time limit ended accepts (hexoid.onTimeout=accept)
	// FullWalk walks every commit the pushed refs reach that their old values did not,
	// rather than git's connectivity walk, which leaves out what any ref already
	// reaches (hexoid.fullWalk).
	FullWalk   bool
	Git        string   // the git to run; "" is "git" on PATH
	GitDir     string   // the repository; "" takes it from the environment (a hook's)
	Alternates []string // with GitDir: more object folders git should read
	Algo       Algo     // the repository's hash; AutoAlgo: that of the first update
}

// Verdict is what the check says of the push: the exit status of `hexoid pre-receive`.
type Verdict int

const (
	Accept    Verdict = 0 // let it in (maybe with warnings)
	Reject    Verdict = 1 // findings reject it
	Unchecked Verdict = 2 // rejected: the check could not be done
)

func (v Verdict) String() string {
	switch v {
	case Accept:
		return "accept"
	case Reject:
		return "reject"
	case Unchecked:
		return "unchecked"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// PushFinding is one thing the push check found, in report order.
type PushFinding struct {
	Code       string // the library's stable name (codes.go): "uppercase-id", "bad-id", "crc32-mismatch", ...
	Class      Class  // ClassGit3 or ClassError
	Rejects    bool   // it rejects the push (with Mixed or ReportOnly, it may not)
	Update     int    // index of the update whose ref reaches it, or -1
	Ref        string // that update's ref, or ""
	Pushed     string // found in the pushed objects: the pack's or loose object's name
	Object     string // the object's ID in lowercase hex, or ""
	ObjectType string // "commit" or "tag" for a header finding, else as known or ""
	Header     string // "tree", "parent", "object", "mergetag object", or ""
	Line       int    // in the object's text, from 1; 0 if not about text
	Column     int    // from 1; 0 if not about text
	Offset     int64  // in the pushed pack, or -1
	Message    string // one line, for people
}

// PushResult is the push check's verdict and what it found.
type PushResult struct {
	Verdict   Verdict
	Complete  bool   // false: the check could not be done in full (see Errors, TimedOut)
	TimedOut  bool   // Timeout ended it
	Rejecting uint64 // findings that reject the push
	Warnings  uint64 // findings that do not
	Findings  []PushFinding
	Errors    []string // each reason the check could not be done, as it happened
}

// ErrPushArgs wraps what makes a push check impossible to start: bad options or updates.
var ErrPushArgs = errors.New("hexoid: push check not started")

// argError is an OS error that keeps a push check from starting: it is ErrPushArgs
// (errors.Is) and unwraps to the OS's error.
type argError struct{ err error }

func (e *argError) Error() string        { return ErrPushArgs.Error() + ": " + e.err.Error() }
func (e *argError) Unwrap() error        { return e.err }
func (e *argError) Is(target error) bool { return target == ErrPushArgs }

// unchecked is the result of a check that did not run: never nil, so that a hook that
// exits with its Verdict fails closed.
func unchecked() *PushResult { return &PushResult{Verdict: Unchecked} }
