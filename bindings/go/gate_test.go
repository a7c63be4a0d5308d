//go:build cgo

package hexoid

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// pushRepos is a client repository with three good commits on main and a commit whose
// tree header is uppercase hex (written by git hash-object --literally) on bad, and an
// empty bare server of the same hash.
type pushRepos struct {
	client, server string
	head, bad      string
	badColumn      int // where the bad commit's first uppercase digit is, from 1
	t              *testing.T
}

func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

func newPushRepos(t *testing.T, algo Algo) *pushRepos {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	p := &pushRepos{client: filepath.Join(dir, "client"), server: filepath.Join(dir, "server.git"), t: t}
	for _, args := range [][]string{
		{"init", "-q", "--object-format=" + algo.String(), p.client},
		{"init", "-q", "--bare", "--object-format=" + algo.String(), p.server},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for i := 0; i < 3; i++ {
		gitIn(t, p.client, "", "commit", "-q", "--allow-empty", "-m", fmt.Sprint("commit ", i))
	}
	gitIn(t, p.client, "", "branch", "-M", "main")
	tree, head := gitIn(t, p.client, "", "rev-parse", "HEAD^{tree}"), gitIn(t, p.client, "", "rev-parse", "HEAD")
	text := fmt.Sprintf("tree %s\nparent %s\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\n\nbad\n",
		strings.ToUpper(tree), head)
	p.bad = gitIn(t, p.client, text, "hash-object", "--literally", "-t", "commit", "-w", "--stdin")
	gitIn(t, p.client, "", "update-ref", "refs/heads/bad", p.bad)
	p.head = head
	p.badColumn = len("tree ") + 1 + strings.IndexAny(tree, "abcdef")
	return p
}

const hookSource = `package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"hexoid.dev/go/hexoid"
)

func main() {
	var updates []hexoid.RefUpdate
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			fmt.Fprintf(os.Stderr, "hook: bad input line %q\n", sc.Text())
			os.Exit(3)
		}
		updates = append(updates, hexoid.RefUpdate{Old: f[0], New: f[1], Ref: f[2]})
	}
	res, err := hexoid.CheckPush(context.Background(), "", os.Getenv("GIT_QUARANTINE_PATH"), updates, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hook:", err)
		os.Exit(3)
	}
	for _, f := range res.Findings {
		fmt.Fprintf(os.Stderr, "hook-finding %s %s %v %s %s %s %d %d\n", f.Code, f.Class, f.Rejects, f.Ref,
			f.Object, f.Header, f.Line, f.Column)
	}
	for _, e := range res.Errors {
		fmt.Fprintln(os.Stderr, "hook-error", e)
	}
	fmt.Fprintln(os.Stderr, "hook-verdict", res.Verdict, res.Complete)
	os.Exit(int(res.Verdict))
}
`

// buildHook builds hookSource as a module of its own that requires this package
// through a replace directive, with this test's build tags, into dir.
func buildHook(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	self, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	mod := "module hexoidhook\n\ngo 1.19\n\nrequire hexoid.dev/go/hexoid v0.0.0\n\nreplace hexoid.dev/go/hexoid => " + self + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(hookSource), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "pre-receive")
	args := []string{"build", "-o", bin}
	if linkedStatically {
		args = append(args, "-tags", "hexoid_static")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of the hook: %v\n%s", err, out)
	}
	return bin
}

// The hook program's bytes, built once for the test binary: TestCheckPushHook and
// TestHookServers install the same program, and each go build of it is a link.
var hookBuilt struct {
	sync.Mutex
	data []byte
}

func hookProgram(t *testing.T) []byte {
	t.Helper()
	hookBuilt.Lock()
	defer hookBuilt.Unlock()
	if hookBuilt.data == nil {
		data, err := os.ReadFile(buildHook(t, t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		hookBuilt.data = data
	}
	return hookBuilt.data
}

func (p *pushRepos) push(refspec string) (string, error) {
	cmd := exec.Command("git", "-C", p.client, "push", "--porcelain", p.server, refspec)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (p *pushRepos) serverRef(ref string) string {
	out, _ := exec.Command("git", "-C", p.server, "rev-parse", "-q", "--verify", ref).Output()
	return strings.TrimSpace(string(out))
}

// A Go pre-receive hook calling CheckPush, installed in a bare repository and driven by
// real pushes: the good one lands, the bad one is rejected and names its finding.
func TestCheckPushHook(t *testing.T) {
	data := hookProgram(t)
	for _, algo := range algos {
		t.Run(algo.String(), func(t *testing.T) {
			p := newPushRepos(t, algo)
			if err := os.WriteFile(filepath.Join(p.server, "hooks", "pre-receive"), data, 0o755); err != nil {
				t.Fatal(err)
			}
			out, err := p.push("main:refs/heads/main")
			if err != nil || p.serverRef("refs/heads/main") != p.head || !strings.Contains(out, "hook-verdict accept true") {
				t.Fatalf("good push: %v\n%s", err, out)
			}
			out, err = p.push("bad:refs/heads/bad")
			if err == nil || p.serverRef("refs/heads/bad") != "" {
				t.Fatalf("bad push landed: %v\n%s", err, out)
			}
			want := fmt.Sprintf("hook-finding uppercase-id git3 true refs/heads/bad %s tree 1 %d", p.bad, p.badColumn)
			if !strings.Contains(out, want) || !strings.Contains(out, "hook-verdict reject true") ||
				!strings.Contains(out, "pre-receive hook declined") {
				t.Fatalf("bad push: want %q in\n%s", want, out)
			}
			// A good commit on top of main still lands after the rejection.
			gitIn(t, p.client, "", "commit", "-q", "--allow-empty", "-m", "more")
			next := gitIn(t, p.client, "", "rev-parse", "HEAD")
			if out, err := p.push("main:refs/heads/main"); err != nil || p.serverRef("refs/heads/main") != next {
				t.Fatalf("second good push: %v\n%s", err, out)
			}
		})
	}
}

var zeroIDs = map[Algo]string{SHA1: strings.Repeat("0", 40), SHA256: strings.Repeat("0", 64)}

// Direct calls on the client repository, where the bad commit is stored and no ref
// reaches it (as in a repository a push was rejected from): the walk from main's new
// value finds it, git's connectivity walk and the full one alike; Mixed and ReportOnly
// turn it into a warning.
func TestCheckPushDirect(t *testing.T) {
	for _, algo := range algos {
		t.Run(algo.String(), func(t *testing.T) {
			p := newPushRepos(t, algo)
			gitIn(t, p.client, "", "update-ref", "-d", "refs/heads/bad")
			gitDir := filepath.Join(p.client, ".git")
			up := []RefUpdate{{Old: p.head, New: p.bad, Ref: "refs/heads/main"}}
			for _, full := range []bool{false, true} {
				res, err := CheckPush(context.Background(), gitDir, "", up, &PushOptions{FullWalk: full})
				if err != nil || res.Verdict != Reject || !res.Complete || res.Rejecting != 1 || len(res.Findings) != 1 {
					t.Fatalf("full walk %v: %+v, %v", full, res, err)
				}
			}
			res, err := CheckPush(context.Background(), gitDir, "", up, nil)
			if err != nil || len(res.Findings) != 1 {
				t.Fatalf("nil options: %+v, %v", res, err)
			}
			f := res.Findings[0]
			want := PushFinding{Code: CodeUppercaseID, Class: ClassGit3, Rejects: true, Update: 0, Ref: "refs/heads/main",
				Object: p.bad, ObjectType: "commit", Header: "tree", Line: 1, Column: p.badColumn, Offset: -1,
				Message: f.Message}
			if f != want || f.Message == "" {
				t.Fatalf("finding:\n got %+v\nwant %+v", f, want)
			}
			for _, o := range []PushOptions{{FullWalk: true, Mixed: true}, {FullWalk: true, ReportOnly: true}} {
				res, err = CheckPush(nil, "", "", up, &PushOptions{FullWalk: o.FullWalk, Mixed: o.Mixed,
					ReportOnly: o.ReportOnly, GitDir: gitDir})
				if err != nil || res.Verdict != Accept || res.Warnings != 1 || len(res.Findings) != 1 || res.Findings[0].Rejects {
					t.Fatalf("%+v: %+v, %v", o, res, err)
				}
			}
			// A new ref at the bad commit, by its old value of zeros.
			res, err = CheckPush(context.Background(), gitDir, "",
				[]RefUpdate{{Old: zeroIDs[algo], New: p.bad, Ref: "refs/heads/other"}}, &PushOptions{FullWalk: true})
			if err != nil || res.Verdict != Reject || len(res.Findings) != 1 || res.Findings[0].Ref != "refs/heads/other" {
				t.Fatalf("new ref: %+v, %v", res, err)
			}
			// Bad arguments: errors, and a result that fails closed.
			for _, c := range []struct {
				up   []RefUpdate
				opts *PushOptions
			}{
				{nil, nil},
				{[]RefUpdate{{Old: "x", New: p.bad, Ref: "refs/heads/main"}}, nil},
				{[]RefUpdate{{Old: p.head, New: p.bad, Ref: ""}}, nil},
				{up, &PushOptions{Jobs: -1}},
				{up, &PushOptions{Timeout: -time.Second}},
			} {
				if res, err := CheckPush(context.Background(), gitDir, "", c.up, c.opts); !errors.Is(err, ErrPushArgs) ||
					res == nil || res.Verdict != Unchecked || len(res.Findings) != 0 {
					t.Fatalf("%+v %+v: %+v, %v", c.up, c.opts, res, err)
				}
			}
			// A git that fails: the check could not be done, the push is not let in.
			res, err = CheckPush(context.Background(), gitDir, "", up, &PushOptions{FullWalk: true, Git: "false"})
			if err != nil || res.Verdict != Unchecked || res.Complete || len(res.Errors) == 0 {
				t.Fatalf("failing git: %+v, %v", res, err)
			}
		})
	}
}

// slowGit is a git that never answers, as a hung git would.
func slowGit(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "git")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// Cancelling the context stops a run that would otherwise wait a minute, promptly,
// with ctx's error; several runs at once, each cancelled from its own goroutine.
func TestCheckPushCancel(t *testing.T) {
	p := newPushRepos(t, SHA1)
	gitDir := filepath.Join(p.client, ".git")
	up := []RefUpdate{{Old: p.head, New: p.bad, Ref: "refs/heads/main"}}
	git := slowGit(t)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := CheckPush(ctx, gitDir, "", up, nil); !errors.Is(err, context.Canceled) || res == nil || res.Verdict != Unchecked {
		t.Fatalf("cancelled before: %+v, %v", res, err)
	}

	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			res, err := CheckPush(ctx, gitDir, "", up, &PushOptions{Git: git})
			if !errors.Is(err, context.DeadlineExceeded) || res == nil || res.Verdict != Unchecked || res.Complete {
				t.Errorf("cancelled: %+v, %v", res, err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("cancel took %v", d)
			}
		}()
	}
	wg.Wait()

	// The time limit, both ways.
	for _, accepts := range []bool{false, true} {
		start := time.Now()
		res, err := CheckPush(context.Background(), gitDir, "", up,
			&PushOptions{Git: git, Timeout: 200 * time.Millisecond, TimeoutAccepts: accepts})
		want := Unchecked
		if accepts {
			want = Accept
		}
		if err != nil || !res.TimedOut || res.Complete || res.Verdict != want || time.Since(start) > 10*time.Second {
			t.Fatalf("time limit (accepts %v): %+v, %v", accepts, res, err)
		}
	}
}

// FullWalk changes what is walked: git's connectivity walk leaves out what an existing
// ref already reaches, the full walk does not. A bad commit already on a branch, pushed
// again as a new branch or as main's new value: accepted by the default walk (its
// findings are the audit's business), rejected by the full one.
func TestCheckPushFullWalk(t *testing.T) {
	for _, algo := range algos {
		t.Run(algo.String(), func(t *testing.T) {
			p := newPushRepos(t, algo)
			gitDir := filepath.Join(p.client, ".git")
			for _, up := range []RefUpdate{
				{Old: zeroIDs[algo], New: p.bad, Ref: "refs/heads/other"},
				{Old: p.head, New: p.bad, Ref: "refs/heads/main"},
			} {
				res, err := CheckPush(context.Background(), gitDir, "", []RefUpdate{up}, nil)
				if err != nil || res.Verdict != Accept || !res.Complete || len(res.Findings) != 0 {
					t.Fatalf("%s, git's walk: %+v, %v", up.Ref, res, err)
				}
				res, err = CheckPush(context.Background(), gitDir, "", []RefUpdate{up}, &PushOptions{FullWalk: true})
				if err != nil || res.Verdict != Reject || !res.Complete || len(res.Findings) != 1 ||
					res.Findings[0].Object != p.bad || res.Findings[0].Ref != up.Ref {
					t.Fatalf("%s, full walk: %+v, %v", up.Ref, res, err)
				}
			}
			// Once no ref reaches it, both walks find it.
			gitIn(t, p.client, "", "update-ref", "-d", "refs/heads/bad")
			up := []RefUpdate{{Old: zeroIDs[algo], New: p.bad, Ref: "refs/heads/other"}}
			for _, full := range []bool{false, true} {
				res, err := CheckPush(context.Background(), gitDir, "", up, &PushOptions{FullWalk: full})
				if err != nil || res.Verdict != Reject || len(res.Findings) != 1 {
					t.Fatalf("unreached, full walk %v: %+v, %v", full, res, err)
				}
			}
		})
	}
}

// git3 is the Git 3.0 candidate (HEXOID_GIT3, else the shared tools' build beside this
// checkout), or "" when there is none.
func git3() string {
	g := os.Getenv("HEXOID_GIT3")
	if g == "" {
		g = filepath.Join("..", "..", "..", "shared", "tools", "git3", "git")
	}
	if abs, err := filepath.Abs(g); err == nil {
		if fi, err := os.Stat(abs); err == nil && fi.Mode()&0o111 != 0 {
			return abs
		}
	}
	return ""
}

// The Go hook in bare repositories served by the installed git and by the Git 3.0
// candidate (its repositories are reftable; its receive-pack runs the hook, whose
// check must run that git, not the one on PATH), both hashes: 8 pushes at once, each
// to a branch of its own, the 4 good ones land through the hook, the 4 bad ones do not
// (the Git 3.0 candidate may refuse them itself before the hook runs).
func TestHookServers(t *testing.T) {
	hook := hookProgram(t)
	for _, server := range []string{"git", "git3"} {
		for _, algo := range algos {
			t.Run(server+"/"+algo.String(), func(t *testing.T) {
				sgit := "git"
				if server == "git3" {
					if sgit = git3(); sgit == "" {
						t.Skip("skipped: no Git 3.0 candidate (HEXOID_GIT3)")
					}
				}
				p := newPushRepos(t, algo)
				os.RemoveAll(p.server)
				if out, err := exec.Command(sgit, "init", "-q", "--bare", "--object-format="+algo.String(), p.server).CombinedOutput(); err != nil {
					t.Fatalf("%s init: %v\n%s", server, err, out)
				}
				if _, err := os.Stat(filepath.Join(p.server, "reftable")); (err == nil) != (server == "git3") {
					t.Fatalf("%s: reftable: %v", server, err)
				}
				os.MkdirAll(filepath.Join(p.server, "hooks"), 0o755) // the candidate has no templates
				if err := os.WriteFile(filepath.Join(p.server, "hooks", "pre-receive"), hook, 0o755); err != nil {
					t.Fatal(err)
				}
				push := func(refspec string) (string, error) {
					args := []string{"-C", p.client, "push", "--porcelain"}
					if server == "git3" {
						args = append(args, "--receive-pack="+sgit+" receive-pack")
					}
					out, err := exec.Command("git", append(args, p.server, refspec)...).CombinedOutput()
					return string(out), err
				}
				ref := func(name string) string {
					// --git-dir: the candidate takes a bare repository only when named so.
					out, _ := exec.Command(sgit, "--git-dir", p.server, "rev-parse", "-q", "--verify", name).Output()
					return strings.TrimSpace(string(out))
				}
				if out, err := push("main:refs/heads/main"); err != nil || ref("refs/heads/main") != p.head ||
					!strings.Contains(out, "hook-verdict accept true") {
					t.Fatalf("first push: %v\n%s", err, out)
				}
				tree := gitIn(t, p.client, "", "rev-parse", "HEAD^{tree}")
				want := make([]string, 8)
				for i := range want {
					text := fmt.Sprintf("tree %s\nparent %s\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\n\nclient %d\n",
						tree, p.head, i)
					if i%2 == 1 {
						text = strings.Replace(text, tree, strings.ToUpper(tree), 1)
					}
					want[i] = gitIn(t, p.client, text, "hash-object", "--literally", "-t", "commit", "-w", "--stdin")
				}
				outs, errs := make([]string, len(want)), make([]error, len(want))
				var wg sync.WaitGroup
				for i := range want {
					wg.Add(1)
					go func(i int) {
						defer wg.Done()
						outs[i], errs[i] = push(fmt.Sprintf("%s:refs/heads/c%d", want[i], i))
					}(i)
				}
				wg.Wait()
				for i := range want {
					got := ref(fmt.Sprintf("refs/heads/c%d", i))
					switch {
					case i%2 == 0 && (errs[i] != nil || got != want[i] || !strings.Contains(outs[i], "hook-verdict accept true")):
						t.Errorf("good push %d: %v, ref %q\n%s", i, errs[i], got, outs[i])
					case i%2 == 1 && (errs[i] == nil || got != ""):
						t.Errorf("bad push %d landed: %v, ref %q\n%s", i, errs[i], got, outs[i])
					case i%2 == 1 && server == "git" && (!strings.Contains(outs[i], "hook-verdict reject true") ||
						!strings.Contains(outs[i], fmt.Sprintf("hook-finding uppercase-id git3 true refs/heads/c%d %s tree", i, want[i]))):
						t.Errorf("bad push %d: not rejected by the hook\n%s", i, outs[i])
					}
				}
			})
		}
	}
}
