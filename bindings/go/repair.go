package hexoid

import (
	"errors"
	"fmt"
)

// RepairKind is what an action of a repair does.
type RepairKind int

const (
	// RepairLowercase: the IDs of a file of the git directory lowercased, nothing else
	// in it changed.
	RepairLowercase RepairKind = 1
	// RepairShow: a file outside the git directory (what blame.ignoreRevsFile or
	// fsck.skipList name): its fix is shown, the file never written.
	RepairShow RepairKind = 2
	// RepairRename: a file named by an ID renamed to lowercase (a loose object, once
	// its content hashes to that ID; a loose refs/replace/<ID> with its reflog); To is
	// the new name.
	RepairRename RepairKind = 3
	// RepairRewrite: a new commit. With RewriteHistory, a ref moved to its history
	// written again (Path the ref, To its new ID), or, RepairFailed with Path an
	// object's ID, a signed object on the way, which keeps the rewrite from being done.
	// In the "notes" area, a notes ref given a commit whose tree names its notes in
	// lowercase (To: that commit).
	RepairRewrite RepairKind = 4
)

// String is "lowercase", "show", "rename" or "rewrite", as hexoid repair --json-lines
// writes it.
func (k RepairKind) String() string {
	switch k {
	case RepairLowercase:
		return "lowercase"
	case RepairShow:
		return "show"
	case RepairRename:
		return "rename"
	case RepairRewrite:
		return "rewrite"
	}
	return fmt.Sprintf("RepairKind(%d)", int(k))
}

// RepairOutcome is where an action stands.
type RepairOutcome int

const (
	RepairPlanned RepairOutcome = 1 // planned: all a dry run does
	RepairDone    RepairOutcome = 2 // the file was replaced
	RepairShown   RepairOutcome = 3 // RepairShow: the fix was shown
	// The three below leave the file as it was, and Message says why: a later run may
	// do what RepairLocked and RepairChanged left.
	RepairLocked  RepairOutcome = 4 // a lock someone holds did not go in time
	RepairChanged RepairOutcome = 5 // the file changed since it was read
	RepairFailed  RepairOutcome = 6 // it could not be done
)

// String is "planned", "done", "shown", "locked", "changed" or "failed".
func (o RepairOutcome) String() string {
	switch o {
	case RepairPlanned:
		return "planned"
	case RepairDone:
		return "done"
	case RepairShown:
		return "shown"
	case RepairLocked:
		return "locked"
	case RepairChanged:
		return "changed"
	case RepairFailed:
		return "failed"
	}
	return fmt.Sprintf("RepairOutcome(%d)", int(o))
}

// RepairAction is one file of the repair: what is done to it, and how it went. Its
// strings are Go's own: they stay valid.
type RepairAction struct {
	Kind    RepairKind
	Outcome RepairOutcome
	Area    string // as Finding.Area: "refs", "packed-refs", "reflogs", ...
	Path    string // relative to the git directory, as the audit names it
	Lock    string // the lock taken first ("refs/heads/main.lock"), or ""
	IDs     uint64 // IDs lowercased (planned: to lowercase)
	Line    int    // the first of them: its line and column, from 1
	Column  int
	Message string // RepairLocked, RepairChanged, RepairFailed: why, one line; else ""
	To      string // RepairRename: the new name; RepairRewrite: the new ID; else ""
}

// String is the action as hexoid repair prints it.
func (a RepairAction) String() string {
	plural := "s"
	if a.IDs == 1 {
		plural = ""
	}
	switch {
	case a.Kind == RepairRename && a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would rename to %s", a.Area, a.Path, a.To)
	case a.Kind == RepairRename && a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: renamed to %s", a.Area, a.Path, a.To)
	case a.Kind == RepairRewrite && a.Area == "notes" && a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would write a notes commit whose tree names its notes in lowercase", a.Area, a.Path)
	case a.Kind == RepairRewrite && a.Area == "notes" && a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: notes commit %s names its notes in lowercase", a.Area, a.Path, a.To)
	case a.Kind == RepairRewrite && a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would move to %s (its history written again)", a.Area, a.Path, a.To)
	case a.Kind == RepairRewrite && a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: moved to %s (its history written again)", a.Area, a.Path, a.To)
	case a.Outcome == RepairPlanned && a.Kind == RepairShow:
		return fmt.Sprintf("[%s] %s:%d:%d: would show: lowercase this ID (outside the git directory: not written)",
			a.Area, a.Path, a.Line, a.Column)
	case a.Outcome == RepairPlanned:
		return fmt.Sprintf("[%s] %s: would lowercase %d ID%s", a.Area, a.Path, a.IDs, plural)
	case a.Outcome == RepairShown:
		return fmt.Sprintf("[%s] %s:%d:%d: shown: lowercase this ID by hand (outside the git directory: not written)",
			a.Area, a.Path, a.Line, a.Column)
	case a.Outcome == RepairDone:
		return fmt.Sprintf("[%s] %s: done: %d ID%s lowercased", a.Area, a.Path, a.IDs, plural)
	case a.Outcome == RepairFailed:
		return fmt.Sprintf("[%s] %s: %s: %s", a.Area, a.Path, a.Outcome, a.Message)
	}
	return fmt.Sprintf("[%s] %s: %s: %s: left as it was, run again", a.Area, a.Path, a.Outcome, a.Message)
}

// RepairOptions are the repair's settings; the zero value (or nil) is the real run in
// one thread, told nothing.
type RepairOptions struct {
	Jobs int // threads for the audit's objects; 0 or 1: the calling goroutine's thread only
	// DryRun: plan only, change nothing; each action is told as RepairPlanned.
	DryRun bool
	// OnAction is told each action: planned (DryRun) or with its outcome. A non-nil
	// error stops the repair after the action at hand, which is never left half done.
	OnAction func(RepairAction) error
	// OnLeft is told each finding the repair leaves as it is: uppercase in commits' and
	// tags' headers, IDs that are names of files, every error. A non-nil error stops the
	// repair before it changes anything.
	OnLeft func(Finding) error
	// RewriteHistory: a new history for the commits and tags with uppercase IDs in
	// their headers and everything that reaches them from a ref, as hexoid repair
	// --rewrite-history writes it (see the README); DropSignatures writes signed ones
	// again unsigned (without it, one on the way stops the rewrite); ReplaceRefs also
	// makes refs/replace/<old> for each, so that old IDs still resolve.
	RewriteHistory bool
	DropSignatures bool
	ReplaceRefs    bool

	// step, for the tests: told before each change the repair makes ("journal",
	// "lock", "write", "rename", "link", "unlock", "done") and the file's path relative
	// to the git directory. A non-nil error stops the repair there.
	step func(what, path string) error
}

// RepairResult counts what a repair planned and did, with the repository it repaired.
type RepairResult struct {
	GitDir     string // the (common) git directory
	Algo       Algo
	RefStorage string // "files" or "reftable"

	Planned uint64 // actions
	IDs     uint64 // IDs they lowercase
	Done    uint64 // files replaced
	Shown   uint64 // fixes shown of files outside the git directory
	Locked  uint64 // left: a lock someone holds did not go in time (run again)
	Changed uint64 // left: changed since they were read (run again)
	Failed  uint64 // left: could not be done

	LeftGit3   uint64 // findings left as they are: git3 ones
	LeftErrors uint64 // and errors (warnings are not counted)
	Recovered  uint64 // locks of a killed repair removed before this one started
	Commits    uint64 // RewriteHistory: commits written again
	Tags       uint64 // and tags
}

// repairState is what the callbacks of one repair reach through its cgo.Handle.
// ErrNotRepaired wraps why a repair could not start: no repository, its audit could not
// run, another repair of it is running, or its journal could not be written.
var ErrNotRepaired = errors.New("hexoid: not repaired")
