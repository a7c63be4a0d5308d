//go:build cgo

package hexoid

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// repairRepo is a repository made by the installed git, then planted with what the
// repair lowercases: two loose refs, one line of packed-refs and ORIG_HEAD with their
// IDs in uppercase, which Git 2.x reads as before. The planted files' bytes as git
// wrote them are in lower, by path relative to the git directory; refs is what
// git for-each-ref printed before planting.
type repairRepo struct {
	dir, gitDir string
	lower       map[string][]byte
	upper       map[string][]byte
	refs        string
	t           *testing.T
}

func (r *repairRepo) git(stdin string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

func (r *repairRepo) read(rel string) []byte {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.gitDir, rel))
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// newRepairRepo makes it; with badParent, also a commit whose parent header is
// uppercase hex (as git 2.x takes it with --literally), which no lowercasing of a
// file fixes.
func newRepairRepo(t *testing.T, algo Algo, badParent bool) *repairRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := &repairRepo{dir: filepath.Join(t.TempDir(), "r"), t: t,
		lower: map[string][]byte{}, upper: map[string][]byte{}}
	r.gitDir = filepath.Join(r.dir, ".git")
	if err := exec.Command("git", "init", "-q", "--object-format="+algo.String(), r.dir).Run(); err != nil {
		t.Fatalf("git init: %v", err)
	}
	for i := 0; i < 3; i++ {
		r.git("", "commit", "-q", "--allow-empty", "-m", fmt.Sprint("commit ", i))
	}
	r.git("", "branch", "packed1", "HEAD~1")
	r.git("", "branch", "packed2", "HEAD~2")
	r.git("", "pack-refs", "--all")
	r.git("", "branch", "loose1", "HEAD~1")
	r.git("", "branch", "loose2", "HEAD~2")
	r.git("", "update-ref", "ORIG_HEAD", "HEAD~1")
	if badParent {
		tree, head := r.git("", "rev-parse", "HEAD^{tree}"), r.git("", "rev-parse", "HEAD")
		text := fmt.Sprintf("tree %s\nparent %s\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\n\nbad\n",
			tree, strings.ToUpper(head))
		r.git(text, "hash-object", "-t", "commit", "-w", "--literally", "--stdin")
	}
	r.refs = r.git("", "for-each-ref")

	for _, rel := range []string{"refs/heads/loose1", "refs/heads/loose2", "ORIG_HEAD", "packed-refs"} {
		b := r.read(rel)
		r.lower[rel] = b
		up := bytes.ToUpper(b)
		if rel == "packed-refs" {
			// One line: packed1's ID, nothing else in the file.
			lines := bytes.SplitAfter(b, []byte("\n"))
			n := 0
			for i, l := range lines {
				if bytes.HasSuffix(l, []byte(" refs/heads/packed1\n")) {
					lines[i] = append(bytes.ToUpper(l[:algo.HexSize()]), l[algo.HexSize():]...)
					n++
				}
			}
			if n != 1 {
				t.Fatalf("packed-refs:\n%s", b)
			}
			up = bytes.Join(lines, nil)
		}
		if bytes.Equal(up, b) {
			t.Fatalf("%s: no hex letter to uppercase: %q", rel, b)
		}
		if err := os.WriteFile(filepath.Join(r.gitDir, rel), up, 0666); err != nil {
			t.Fatal(err)
		}
		r.upper[rel] = up
	}
	if refs := r.git("", "for-each-ref"); refs != r.refs {
		t.Fatalf("git reads the planted refs otherwise:\n%s\nnot\n%s", refs, r.refs)
	}
	return r
}

// upperAt says whether the planted file rel has an uppercase hex digit at line and
// column (from 1), where the audit reports an ID's first one.
func (r *repairRepo) upperAt(rel string, line, column int) bool {
	lines := bytes.Split(r.upper[rel], []byte("\n"))
	if line < 1 || line > len(lines) || column < 1 || column > len(lines[line-1]) {
		return false
	}
	c := lines[line-1][column-1]
	return c >= 'A' && c <= 'F'
}

// check fails unless each planted file is as planted (want "upper"), as git wrote it
// (want "lower"), or either, and no lock or journal of the repair is left.
func (r *repairRepo) check(want string) {
	r.t.Helper()
	for rel := range r.lower {
		b := r.read(rel)
		lower, upper := bytes.Equal(b, r.lower[rel]), bytes.Equal(b, r.upper[rel])
		if !lower && !upper || want == "upper" && !upper || want == "lower" && !lower {
			r.t.Fatalf("%s is neither as planted nor as git wrote it (want %s):\n%s", rel, want, b)
		}
	}
	err := filepath.Walk(r.gitDir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if n := fi.Name(); strings.HasSuffix(n, ".lock") || strings.HasPrefix(n, "hexoid-repair.journal") ||
			strings.HasSuffix(n, ".new") {
			return fmt.Errorf("left behind: %s", p)
		}
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if refs := r.git("", "for-each-ref"); refs != r.refs {
		r.t.Fatalf("for-each-ref:\n%s\nnot\n%s", refs, r.refs)
	}
}

func TestRepair(t *testing.T) {
	for _, algo := range algos {
		r := newRepairRepo(t, algo, true)
		var acts []RepairAction
		var left []Finding
		opts := &RepairOptions{
			DryRun:   true,
			OnAction: func(a RepairAction) error { acts = append(acts, a); return nil },
			OnLeft:   func(f Finding) error { left = append(left, f); return nil },
		}
		res, err := Repair(context.Background(), r.dir, opts)
		if err != nil {
			t.Fatalf("%v: dry run: %v", algo, err)
		}
		r.check("upper")
		wantPaths := "ORIG_HEAD packed-refs refs/heads/loose1 refs/heads/loose2"
		checkActs := func(what string, out RepairOutcome) {
			t.Helper()
			var paths []string
			for _, a := range acts {
				if a.Kind != RepairLowercase || a.Outcome != out || a.IDs != 1 || a.Message != "" ||
					!r.upperAt(a.Path, a.Line, a.Column) {
					t.Fatalf("%v: %s: action %#v", algo, what, a)
				}
				if out == RepairDone && a.Lock != a.Path+".lock" {
					t.Fatalf("%v: %s: lock %q", algo, what, a.Lock)
				}
				area := map[string]string{"ORIG_HEAD": "pseudo-refs", "packed-refs": "packed-refs"}[a.Path]
				if area == "" {
					area = "refs"
				}
				if a.Area != area {
					t.Fatalf("%v: %s: %s in area %s", algo, what, a.Path, a.Area)
				}
				paths = append(paths, a.Path)
			}
			sort.Strings(paths)
			if strings.Join(paths, " ") != wantPaths {
				t.Fatalf("%v: %s: actions on %v", algo, what, paths)
			}
		}
		checkActs("dry run", RepairPlanned)
		if len(left) != 1 || left[0].Header != "parent" || left[0].Class != ClassGit3 || left[0].ObjectType != "commit" {
			t.Fatalf("%v: dry run: left %+v", algo, left)
		}
		if res.Planned != 4 || res.IDs != 4 || res.Done != 0 || res.LeftGit3 != 1 || res.LeftErrors != 0 ||
			res.Algo != algo || res.RefStorage != "files" || filepath.Base(res.GitDir) != ".git" {
			t.Fatalf("%v: dry run: %+v", algo, res)
		}
		if s := acts[0].String(); !strings.Contains(s, ": would lowercase 1 ID") {
			t.Fatalf("%v: %q", algo, s)
		}

		acts, left = nil, nil
		opts.DryRun = false
		res, err = Repair(context.Background(), r.dir, opts)
		if err != nil {
			t.Fatalf("%v: %v", algo, err)
		}
		r.check("lower")
		checkActs("run", RepairDone)
		if len(left) != 1 || left[0].Header != "parent" {
			t.Fatalf("%v: left %+v", algo, left)
		}
		if res.Planned != 4 || res.IDs != 4 || res.Done != 4 || res.Locked+res.Changed+res.Failed+res.Shown != 0 ||
			res.LeftGit3 != 1 || res.Recovered != 0 {
			t.Fatalf("%v: %+v", algo, res)
		}
		if s := acts[0].String(); !strings.Contains(s, ": done: 1 ID lowercased") {
			t.Fatalf("%v: %q", algo, s)
		}

		// Nothing left to do but the commit: nothing planned, nothing changed.
		res, err = Repair(context.Background(), r.dir, nil)
		if err != nil || res.Planned != 0 || res.Done != 0 || res.LeftGit3 != 1 {
			t.Fatalf("%v: again: %+v, %v", algo, res, err)
		}
		r.check("lower")
	}
}

func TestRepairCancel(t *testing.T) {
	r := newRepairRepo(t, SHA1, false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	res, err := Repair(ctx, r.dir, &RepairOptions{OnAction: func(a RepairAction) error {
		calls++
		cancel()
		return nil
	}})
	if !errors.Is(err, context.Canceled) || calls != 1 || res.Done != 1 || res.Planned != 4 {
		t.Fatalf("err %v after %d calls, %+v", err, calls, res)
	}
	r.check("")
	// Cancelled before it starts.
	if _, err := Repair(ctx, r.dir, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}
	// The next run does the rest.
	res, err = Repair(context.Background(), r.dir, nil)
	if err != nil || res.Planned != 3 || res.Done != 3 {
		t.Fatalf("the rest: %+v, %v", res, err)
	}
	r.check("lower")
}

// A context cancelled from another goroutine while many files are repaired stops the
// repair between two of its steps (or it ends first): each file whole, no lock left.
func TestRepairCancelAsync(t *testing.T) {
	r := newRepairRepo(t, SHA1, false)
	head := r.git("", "rev-parse", "HEAD")
	var stdin strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&stdin, "create refs/heads/many/%d %s\n", i, head)
	}
	r.git(stdin.String(), "update-ref", "--stdin")
	for i := 0; i < 300; i++ {
		rel := fmt.Sprintf("refs/heads/many/%d", i)
		b := r.read(rel)
		r.lower[rel], r.upper[rel] = b, bytes.ToUpper(b)
		if err := os.WriteFile(filepath.Join(r.gitDir, rel), r.upper[rel], 0666); err != nil {
			t.Fatal(err)
		}
	}
	r.refs = r.git("", "for-each-ref")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan struct{})
	go func() {
		<-first
		cancel()
	}()
	calls := 0
	res, err := Repair(ctx, r.dir, &RepairOptions{OnAction: func(RepairAction) error {
		if calls++; calls == 1 {
			close(first)
		}
		return nil
	}})
	if err == nil && res.Done != res.Planned || err != nil && !errors.Is(err, context.Canceled) ||
		uint64(calls) != res.Done || res.Planned != 304 {
		t.Fatalf("%v after %d calls, %+v", err, calls, res)
	}
	r.check("")
	t.Logf("%d of %d done before the cancel was seen", res.Done, res.Planned)
}

// A context done before each step of the repair in turn stops it there: nothing is
// left half done, no lock and no journal stay, and a second run finishes.
func TestRepairCancelEachStep(t *testing.T) {
	r := newRepairRepo(t, SHA1, false)
	template := r.dir + ".template"
	if out, err := exec.Command("cp", "-a", r.dir, template).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	var steps []string
	res, err := Repair(context.Background(), r.dir, &RepairOptions{step: func(what, path string) error {
		steps = append(steps, what+" "+path)
		return nil
	}})
	if err != nil || res.Done != 4 || len(steps) < 10 || steps[0] != "journal hexoid-repair.journal" ||
		steps[len(steps)-1] != "done hexoid-repair.journal" {
		t.Fatalf("%+v, %v, steps %q", res, err, steps)
	}
	for k, step := range steps {
		if strings.HasPrefix(step, "unlock ") || strings.HasPrefix(step, "done ") {
			continue // told, not asked: these do not stop the repair
		}
		if err := os.RemoveAll(r.dir); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("cp", "-a", template, r.dir).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v: %s", err, out)
		}
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		_, err := Repair(ctx, r.dir, &RepairOptions{step: func(what, path string) error {
			if n == k {
				cancel()
			} else if n > k && what != "unlock" && what != "done" {
				return fmt.Errorf("step %q after the cancel", what+" "+path)
			}
			n++
			return nil
		}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled before %q: %v", step, err)
		}
		r.check("")
		if res, err := Repair(context.Background(), r.dir, nil); err != nil || res.Done == 0 {
			t.Fatalf("after a cancel before %q: %+v, %v", step, res, err)
		}
		r.check("lower")
	}
}

func TestRepairStops(t *testing.T) {
	r := newRepairRepo(t, SHA256, true)
	stop := errors.New("enough")
	// An error from OnLeft stops the repair before it changes anything.
	_, err := Repair(context.Background(), r.dir, &RepairOptions{OnLeft: func(Finding) error { return stop }})
	if err != stop {
		t.Fatalf("OnLeft: %v", err)
	}
	r.check("upper")
	// An error from OnAction stops it after that action.
	calls := 0
	res, err := Repair(context.Background(), r.dir, &RepairOptions{OnAction: func(RepairAction) error {
		calls++
		return stop
	}})
	if err != stop || calls != 1 || res.Done != 1 {
		t.Fatalf("OnAction: %v after %d calls, %+v", err, calls, res)
	}
	r.check("")

	defer func() {
		if p := recover(); p != "boom" {
			t.Fatalf("recovered %v", p)
		}
		r.check("")
	}()
	Repair(context.Background(), r.dir, &RepairOptions{OnAction: func(RepairAction) error { panic("boom") }})
	t.Fatal("no panic")
}

func TestRepairNotARepository(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "none"), dir} {
		if _, err := Repair(context.Background(), p, nil); !errors.Is(err, ErrNotRepaired) {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if _, err := Repair(context.Background(), dir, &RepairOptions{Jobs: -1}); err == nil {
		t.Fatal("Jobs -1 taken")
	}
}

func TestRepairNames(t *testing.T) {
	if RepairLowercase.String() != "lowercase" || RepairShow.String() != "show" ||
		RepairRename.String() != "rename" || RepairRewrite.String() != "rewrite" ||
		RepairPlanned.String() != "planned" || RepairLocked.String() != "locked" ||
		RepairFailed.String() != "failed" || RepairKind(0).String() != "RepairKind(0)" ||
		RepairOutcome(99).String() != "RepairOutcome(99)" {
		t.Fatal("names")
	}
}

// TestRepairRewrite: a commit whose parent header is uppercase, a branch on it and a
// commit after it; RewriteHistory writes both again, the bad one as its lowercase twin,
// and moves the branches.
func TestRepairRewrite(t *testing.T) {
	for _, algo := range []Algo{SHA1, SHA256} {
		t.Run(algo.String(), func(t *testing.T) {
			r := newRepairRepo(t, algo, false)
			tree, head := r.git("", "rev-parse", "HEAD^{tree}"), r.git("", "rev-parse", "HEAD")
			body := "author t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\n\nbad\n"
			bad := r.git(fmt.Sprintf("tree %s\nparent %s\n%s", tree, strings.ToUpper(head), body),
				"hash-object", "-t", "commit", "-w", "--literally", "--stdin")
			twin := r.git(fmt.Sprintf("tree %s\nparent %s\n%s", tree, head, body),
				"hash-object", "-t", "commit", "--stdin")
			r.git("", "update-ref", "refs/heads/bad", bad)
			r.git("", "update-ref", "refs/heads/after", r.git("", "commit-tree", "-p", bad, "-m", "after", tree))
			var moved []string
			res, err := Repair(context.Background(), r.dir, &RepairOptions{RewriteHistory: true,
				OnAction: func(a RepairAction) error {
					if a.Kind == RepairRewrite && a.Outcome == RepairDone {
						moved = append(moved, a.Path+" "+a.To)
					}
					return nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(moved)
			if res.Commits != 2 || res.Tags != 0 || res.LeftGit3 != 0 || len(moved) != 2 ||
				moved[1] != "refs/heads/bad "+twin || r.git("", "rev-parse", "bad") != twin ||
				r.git("", "rev-parse", "after^") != twin {
				t.Fatalf("rewrite: %+v, moved %v, twin %s", res, moved, twin)
			}
		})
	}
}
