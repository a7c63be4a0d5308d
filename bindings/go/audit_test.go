//go:build cgo

package hexoid

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// plantedRepo makes a repository with the installed git: a few commits, then n commits
// whose tree header is uppercase hex (written with hash-object --literally, as git 2.x
// takes them), each on a branch; packed when pack is set. It returns the path and the
// bad commits' IDs, in the order the audit reports loose objects (by path) or as packed.
func plantedRepo(t *testing.T, algo Algo, n int, pack bool) (string, map[string]bool) {
	repo, bad, _ := planted(t, algo, n, pack)
	return repo, bad
}

// planted is plantedRepo, with the column of the tree header's first uppercase digit.
func planted(t *testing.T, algo Algo, n int, pack bool) (string, map[string]bool, int) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := filepath.Join(t.TempDir(), "r")
	git := func(stdin string, args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	if err := exec.Command("git", "init", "-q", "--object-format="+algo.String(), repo).Run(); err != nil {
		t.Fatalf("git init: %v", err)
	}
	for i := 0; i < 3; i++ {
		git("", "commit", "-q", "--allow-empty", "-m", fmt.Sprint("commit ", i))
	}
	tree, head := git("", "rev-parse", "HEAD^{tree}"), git("", "rev-parse", "HEAD")
	bad := map[string]bool{}
	for i := 0; i < n; i++ {
		text := fmt.Sprintf("tree %s\nparent %s\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\n\nbad %d\n",
			strings.ToUpper(tree), head, i)
		id := git(text, "hash-object", "--literally", "-t", "commit", "-w", "--stdin")
		git("", "update-ref", fmt.Sprint("refs/heads/bad", i), id)
		bad[id] = true
	}
	if pack {
		git("", "repack", "-adq")
	}
	return repo, bad, len("tree ") + 1 + strings.IndexAny(tree, "abcdef")
}

func TestAudit(t *testing.T) {
	for _, algo := range algos {
		for _, pack := range []bool{false, true} {
			repo, bad, col := planted(t, algo, 3, pack)
			var got []Finding
			sum, err := Audit(context.Background(), repo, nil, func(f Finding) error {
				got = append(got, f)
				return nil
			})
			if err != nil {
				t.Fatalf("%v: %v", algo, err)
			}
			area := "loose-objects"
			if pack {
				area = "pack-objects"
			}
			if len(got) != 3 || sum.Total.Git3 != 3 || sum.Total.Errs != 0 || sum.Algo != algo || sum.RefStorage != "files" {
				t.Fatalf("%v pack=%v: %d findings, summary %+v", algo, pack, len(got), sum.Total)
			}
			for _, f := range got {
				if !bad[f.Object] || f.Code != "uppercase-id" || f.Class != ClassGit3 || f.Area != area ||
					f.Header != "tree" || f.Line != 1 || f.Column != col || f.ObjectType != "commit" ||
					(pack != (f.Offset >= 0)) || !strings.Contains(f.Message, "Git 3.0") {
					t.Fatalf("%v pack=%v: finding %+v", algo, pack, f)
				}
				delete(bad, f.Object)
			}
			var n uint64
			for _, a := range sum.Areas {
				n += a.Git3
				if a.Area == area && a.Git3 != 3 {
					t.Fatalf("%s: %+v", area, a)
				}
			}
			if n != 3 || len(sum.Areas) != 20 || sum.Areas[0].Area != "refs" {
				t.Fatalf("areas %+v", sum.Areas)
			}
		}
	}
}

func TestAuditClean(t *testing.T) {
	for _, algo := range algos {
		repo, _ := plantedRepo(t, algo, 0, true)
		var last, total uint64
		progress := func(what string, done, all uint64) error {
			if !strings.HasSuffix(what, ".pack") || done > all {
				return fmt.Errorf("progress %q %d/%d", what, done, all)
			}
			last, total = done, all
			return nil
		}
		sum, err := Audit(context.Background(), repo, &AuditOptions{Jobs: 2, VerifyIDs: true, Progress: progress},
			func(f Finding) error {
				return fmt.Errorf("finding %v", f)
			})
		if err != nil || sum.Total.Scanned == 0 || sum.Total.Git3+sum.Total.Errs+sum.Total.Warn != 0 {
			t.Fatalf("%v: %+v %v", algo, sum.Total, err)
		}
		if total == 0 || last != total {
			t.Fatalf("%v: progress ended at %d/%d", algo, last, total)
		}
		// An error from Progress stops the audit and comes back.
		stop := errors.New("stop")
		if _, err := Audit(context.Background(), repo, &AuditOptions{Progress: func(string, uint64, uint64) error { return stop }}, nil); err != stop {
			t.Fatalf("%v: progress error: %v", algo, err)
		}
	}
}

func TestAuditObjectsDir(t *testing.T) {
	repo, bad := plantedRepo(t, SHA256, 2, false)
	n := 0
	sum, err := Audit(context.Background(), filepath.Join(repo, ".git", "objects"), &AuditOptions{ObjectsDir: true},
		func(f Finding) error {
			if !bad[f.Object] || strings.HasPrefix(f.Path, "objects/") {
				return fmt.Errorf("finding %+v", f)
			}
			n++
			return nil
		})
	if err != nil || n != 2 || sum.Algo != SHA256 || sum.RefStorage != "" {
		t.Fatalf("%d findings, %+v, %v", n, sum, err)
	}
}

func TestAuditStops(t *testing.T) {
	repo, _ := plantedRepo(t, SHA1, 5, false)
	stop := errors.New("enough")
	calls := 0
	// Stopped by fn at its second finding: the summary so far counts both.
	sum, err := Audit(context.Background(), repo, nil, func(f Finding) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 2 || sum.Total.Git3 != 2 || sum.GitDir == "" || sum.Algo != SHA1 || len(sum.Areas) != 20 {
		t.Fatalf("err %v after %d calls, summary %+v", err, calls, sum)
	}

	// Cancelled while it runs: no finding after the cancel reaches fn, and the summary
	// counts those that did.
	ctx, cancel := context.WithCancel(context.Background())
	calls = 0
	sum, err = Audit(ctx, repo, nil, func(f Finding) error {
		calls++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || calls != 1 || sum.Total.Git3 != 1 || sum.RefStorage != "files" ||
		sum.Total.Scanned == 0 {
		t.Fatalf("cancelled: err %v after %d calls, summary %+v", err, calls, sum)
	}
	// Cancelled from another goroutine at the first finding, fn still running: the
	// finding fn is given and the summary agree, however the race goes.
	for i := 0; i < 20; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		calls = 0
		sum, err = Audit(ctx, repo, nil, func(f Finding) error {
			calls++
			if calls == 1 {
				go cancel()
			}
			return nil
		})
		cancel()
		if err == nil && calls != 5 || sum.Total.Git3 != uint64(calls) {
			t.Fatalf("cancelled aside: err %v after %d calls, summary %+v", err, calls, sum.Total)
		}
	}
	// Cancelled before it starts.
	if _, err := Audit(ctx, repo, nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}

	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v", r)
		}
	}()
	Audit(context.Background(), repo, nil, func(Finding) error { panic("boom") })
	t.Fatal("no panic")
}

func TestAuditChannel(t *testing.T) {
	repo, bad := plantedRepo(t, SHA1, 4, true)
	findings, done := AuditFindings(context.Background(), repo, &AuditOptions{Jobs: 2})
	n := 0
	for f := range findings {
		if !bad[f.Object] {
			t.Fatalf("finding %+v", f)
		}
		n++
	}
	if r := <-done; r.Err != nil || n != 4 || r.Summary.Total.Git3 != 4 || r.Summary.Total.Scanned == 0 {
		t.Fatalf("%d findings, %+v", n, r)
	}
	// A reader that leaves early cancels: the audit ends, with more findings left than
	// the channel holds.
	repo, _ = plantedRepo(t, SHA1, 40, false)
	ctx, cancel := context.WithCancel(context.Background())
	findings, done = AuditFindings(ctx, repo, nil)
	<-findings
	cancel()
	n = 1
	for range findings {
		n++
	}
	// The summary counts what was sent, the finding left unsent not included.
	if r := <-done; !errors.Is(r.Err, context.Canceled) || r.Summary.Total.Git3 != uint64(n) || n >= 40 {
		t.Fatalf("left early: %d sent, %v, %+v", n, r.Err, r.Summary.Total)
	}
}

func TestAuditConcurrent(t *testing.T) {
	var repos []string
	for i := 0; i < 4; i++ {
		r, _ := plantedRepo(t, algos[i%2], i+1, i%2 == 0)
		repos = append(repos, r)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(repos))
	for i, r := range repos {
		wg.Add(1)
		go func(i int, r string) {
			defer wg.Done()
			n := 0
			sum, err := Audit(context.Background(), r, nil, func(Finding) error { n++; return nil })
			if err == nil && (n != i+1 || sum.Total.Git3 != uint64(i+1)) {
				err = fmt.Errorf("%s: %d findings, %+v", r, n, sum.Total)
			}
			errs[i] = err
		}(i, r)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestAuditNotARepository(t *testing.T) {
	dir := t.TempDir()
	if _, err := Audit(context.Background(), filepath.Join(dir, "none"), nil, nil); !errors.Is(err, ErrNotAudited) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := Audit(context.Background(), dir, &AuditOptions{Jobs: 300}, nil); err == nil {
		t.Fatal("Jobs 300 taken")
	}
}
