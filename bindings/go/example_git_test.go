//go:build cgo

package hexoid_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"hexoid.dev/go/hexoid"
)

// exampleRepo makes a SHA-1 repository with git, its IDs the same on every run: main
// at a good commit, and a commit whose tree header is uppercase hex (as Git 2.x writes
// it with hash-object --literally) on nothing. It returns the git directory, main's
// commit and the bad one; the caller removes dir.
func exampleRepo() (dir, gitDir, good, bad string) {
	dir, err := os.MkdirTemp("", "hexoid-example")
	if err != nil {
		panic(err)
	}
	gitDir = filepath.Join(dir, "repo.git")
	git := func(stdin string, args ...string) string {
		cmd := exec.Command("git", append([]string{"--git-dir", gitDir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com",
			"GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com",
			"GIT_AUTHOR_DATE=1700000000 +0000", "GIT_COMMITTER_DATE=1700000000 +0000")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			panic(fmt.Sprint("git ", args, ": ", err))
		}
		return strings.TrimSpace(string(out))
	}
	git("", "init", "-q", "--bare", "--object-format=sha1")
	tree := git("", "mktree")
	good = git("", "commit-tree", "-m", "good", tree)
	git("", "update-ref", "refs/heads/main", good)
	bad = git(fmt.Sprintf("tree %s\nparent %s\nauthor A <a@example.com> 1700000000 +0000\n"+
		"committer A <a@example.com> 1700000000 +0000\n\nbad\n", strings.ToUpper(tree), good),
		"hash-object", "--literally", "-t", "commit", "-w", "--stdin")
	return dir, gitDir, good, bad
}

// A push of main from its commit to one Git 3.0 cannot read, checked as a
// pre-receive hook would check it (in a hook, repo is "" and the quarantine is
// $GIT_QUARANTINE_PATH); the hook's exit status is the Verdict.
func ExampleCheckPush() {
	dir, gitDir, good, bad := exampleRepo()
	defer os.RemoveAll(dir)

	updates := []hexoid.RefUpdate{{Old: good, New: bad, Ref: "refs/heads/main"}}
	res, err := hexoid.CheckPush(context.Background(), gitDir, "", updates, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, int(res.Verdict), res.Complete)
	for _, f := range res.Findings {
		fmt.Printf("%s: %s %.12s: %s header, column %d: %s (%s)\n", f.Ref, f.ObjectType, f.Object, f.Header,
			f.Column, f.Code, f.Class)
	}
	// Output:
	// reject 1 true
	// refs/heads/main: commit bf6978b93aaf: tree header, column 7: uppercase-id (git3)
}

// The audit of the same repository once the bad commit is on a branch, stopped after a
// minute at most; the summary counts each area.
func ExampleAudit() {
	dir, gitDir, _, bad := exampleRepo()
	defer os.RemoveAll(dir)
	exec.Command("git", "--git-dir", gitDir, "update-ref", "refs/heads/topic", bad).Run()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sum, err := hexoid.Audit(ctx, gitDir, nil, func(f hexoid.Finding) error {
		fmt.Printf("[%s] %s %.12s: %s header, column %d: %s (%s)\n", f.Area, f.ObjectType, f.Object, f.Header,
			f.Column, f.Code, f.Class)
		return nil
	})
	if err != nil {
		fmt.Println(err) // errors.Is(err, fs.ErrNotExist), hexoid.ErrNotAudited, context.DeadlineExceeded, ...
		return
	}
	fmt.Println(sum.Algo, sum.RefStorage, sum.Total.Git3, sum.Total.Errs)
	// Output:
	// [loose-objects] commit bf6978b93aaf: tree header, column 7: uppercase-id (git3)
	// sha1 files 1 0
}
