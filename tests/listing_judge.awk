# tests/listing_judge.awk RUNS CASES: judges the cases of tests/git_listings.sh from runs
# of hexoid verify over many files at once, and prints "ok NAME", "not ok NAME" and "#"
# lines in the order of CASES.
#
# RUNS has a line "K<TAB>EXIT<TAB>ERR" for each run: its key, its exit status and the
# file that holds its stderr. A run's reports name their file ("FILE:LINE:COL: error: ..."
# or "hexoid: FILE: ..."), so each file's status is told apart: 2 when hexoid said it
# could not read it ("hexoid: FILE: ..."), else 1 when a report names it, else 0. The
# run's own exit status must be the highest of its files' (no file exits 1 or 2 without
# saying why), else every case of the run fails.
#
# CASES, a line each, fields split by tabs (W in a name is the case's WANT as "L:C L:C "):
#   fail NAME                                  fails, as it is
#   clean NAME K FILE                          FILE exits 0 in run K
#   pass NAME                                  passes, as it is
#   found NAME K FILE WANT MODE NOTHING        exits 1, reported at exactly WANT's
#                                              LINE:COLs, each report of MODE's kind;
#                                              when nothing was planted, fails as NOTHING
#                                              (or says nothing when NOTHING is empty)
#   rule NAME K FILE KTEXT                     what auto (run K) made of an output no
#                                              format describes: takes it, or says once
#                                              it cannot tell and then --format=text (run
#                                              KTEXT) takes it (unless a path looks like a
#                                              broken ID); then FILE.upper and FILE.nonhex
#                                              (when planted) are reported at exactly
#                                              their LINE:COLs by the one that took it
#   abbrev NAME K FILE COL FORMAT              every line reported once, as abbreviated,
#                                              the first at COL
BEGIN { FS = "\t" }
FILENAME == ARGV[1] {
	k = $1; runexit[k] = $2
	while ((getline s < $3) > 0) {
		if (substr(s, 1, 8) == "hexoid: ") {
			rest = substr(s, 9)
			p = index(rest, ": ")
			if (p == 0) continue
			f = substr(rest, 1, p - 1)
			fatal[k, f] = 1
		} else if ((p = index(s, ": error: ")) && index(s, ":") < p) {
			# FILE:LINE:COL: error: (what follows FILE: up to ": error: ")
			f = substr(s, 1, index(s, ":") - 1)
			pos = substr(s, length(f) + 2, p - length(f) - 2)
			got[k, f] = got[k, f] pos " "
			nerr[k, f]++
			errs[k, f, nerr[k, f]] = s
		} else continue
		nlines[k, f]++
		lines[k, f, nlines[k, f]] = s
		st = fatal[k, f] ? 2 : 1
		if (st > runmax[k]) runmax[k] = st
	}
	close($3)
	next
}
function status(k, f) { return fatal[k, f] ? 2 : nerr[k, f] ? 1 : 0 }
function runbad(k) {
	if (runexit[k] > 128) return "killed by signal " (runexit[k] - 128)
	if (runexit[k] != runmax[k] + 0) return "the run's exit " runexit[k] " is not its reports' " (runmax[k] + 0)
	return ""
}
function ok(name) { print "ok " name }
function notok(name, k, f,    i) {
	print "not ok " name
	for (i = 1; i <= nlines[k, f] && i <= 5; i++) print "#   " lines[k, f, i]
}
function readwant(file,    s, w) {
	w = ""
	while ((getline s < file) > 0) w = w s " "
	close(file)
	return w
}
function count(k, f, str,    i, c) {
	c = 0
	for (i = 1; i <= nerr[k, f]; i++) if (index(errs[k, f, i], str)) c++
	return c
}
function nonempty(file,    s, c) {
	c = 0
	while ((getline s < file) > 0) if (s != "") c++
	close(file)
	return c
}
{
	kind = $1; name = $2; k = $3; f = $4
	if (kind == "fail") { print "not ok " name; next }
	if (kind == "pass") { print "ok " name; next }
	if ((b = runbad(k)) != "") { notok(name ": " b, k, f); next }
	st = status(k, f)
	if (kind == "clean") {
		if (st == 0) ok(name); else notok(name ": exit " st ", expected 0", k, f)
	} else if (kind == "found") {
		w = readwant($5); mode = $6
		if (w == "") { if ($7 != "") print "not ok " $7; next }
		sub(/%W/, w, name)
		nw = split(w, tmpa, " ")
		word = mode == "upper" ? "uppercase hex digit" : mode == "nonhex" ? "invalid hex digit 'G'" : "invalid hex digit '-'"
		if (st != 1) notok(name ": exit " st ", expected 1", k, f)
		else if (got[k, f] != w) notok(name ": reported at " got[k, f] "instead of " w, k, f)
		else if (count(k, f, word) != nw) print "not ok " name ": not every report " (mode == "upper" ? "says uppercase" : mode == "nonhex" ? "names the 'G'" : "names the '-'")
		else ok(name)
	} else if (kind == "rule") {
		kt = $5
		if (st == 2) {
			if (nlines[k, f] == 1 && lines[k, f, 1] == "hexoid: " f ": cannot tell which git output this is: name it with --format=..., or --format=text")
				ok(name ": auto says once it cannot tell")
			else notok(name ": exit 2, but not the one line", k, f)
			# --format=text, where no path is named like a broken ID (the heuristic
			# would take the file named hexsz-1 digits and a 'g' for one).
			if (idish(f)) next
			if ((b = runbad(kt)) != "") notok(name ": clean as --format=text: " b, kt, f)
			else if ((s2 = status(kt, f)) == 0) ok(name ": clean as --format=text")
			else notok(name ": clean as --format=text: exit " s2 ", expected 0", kt, f)
			kk = kt; opts = "--format=text"
		} else if (st != 0) { notok(name ": valid output, exit " st " with auto", k, f); next }
		else { ok(name ": auto takes it (" nonempty(f) " lines)"); kk = k; opts = "auto" }
		for (q = 1; q <= 2; q++) {
			mode = q == 1 ? "upper" : "nonhex"
			ff = f "." mode
			w = readwant(ff ".want")
			if (w == "") continue
			if ((b = runbad(kk)) != "") { notok(name ": " mode " at " w b, kk, ff); continue }
			s2 = status(kk, ff)
			if (s2 == 1 && got[kk, ff] == w) ok(name ": " mode " at " w "found by " opts)
			else notok(name ": " mode " at " w "exit " s2 ", reported at " got[kk, ff], kk, ff)
		}
	} else if (kind == "abbrev") {
		col = $5; fm = $6; n = nonempty(f)
		if (st == 1 && count(k, f, "") == n && nabbrev(k, f) == n && has(k, f, f ":1:" col ": error: abbreviated"))
			ok(name ": abbreviated, each of " n " lines at column " col ", --format=" fm)
		else notok(name ": --format=" fm ", exit " st, k, f)
	}
}
function nabbrev(k, f,    i, c) {
	c = 0
	for (i = 1; i <= nerr[k, f]; i++)
		if (errs[k, f, i] ~ /: error: abbreviated object ID: [0-9]* hex digits, expected .*: run git with --no-abbrev to print whole IDs$/) c++
	return c
}
function has(k, f, pre,    i) {
	for (i = 1; i <= nerr[k, f]; i++) if (index(errs[k, f, i], pre) == 1) return 1
	return 0
}
function idish(f,    re, i, s, r) {
	re = ""
	for (i = 1; i < hexsz; i++) re = re "[0-9a-f]"
	re = re "g"
	r = 0
	while ((getline s < f) > 0) if (s ~ re) r = 1
	close(f)
	return r
}
