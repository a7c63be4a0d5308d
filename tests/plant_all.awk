# tests/plant_all.awk -v hexsz=40 CONTROL...: plants bad digits in many listings in one
# run. Each CONTROL line is FIRST<TAB>IN<TAB>OUT<TAB>MODES: IN is read once, and for each
# of the space-separated MODES, OUT.MODE is written, a copy of IN with one object ID
# changed in each of its first, middle and last records that hold one (the middle among
# those with several IDs, when there are): the ID's first letter digit made uppercase
# (upper; another ID of the line when it has none), or its sixth digit made 'G' (nonhex)
# or '-' (punct); the first record's first ID, the others' last one. OUT.MODE.want gets
# the "LINE:COL" of each change, in line order (empty when nothing could be planted).
# With FIRST 1, only the first ID of each line counts (what follows it is a path); a
# line ending in ": ok" is no record (verify-pack's "<pack>: ok", whose name is a
# checksum, not an ID). So a listing costs no process of its own.
function ids(s, starts,    i, n, run, c) {
	n = 0; run = 0
	for (i = 1; i <= length(s) + 1; i++) {
		c = i <= length(s) ? substr(s, i, 1) : " "
		if (index("0123456789abcdef", c)) { run++; continue }
		if (run == hexsz && !(first && n)) starts[++n] = i - run
		run = 0
	}
	return n
}
BEGIN { FS = "\t"; skip = ": ok$" }
{
	first = $1 + 0; in_ = $2; out = $3; nm = split($4, modes, " ")
	split("", line); split("", rec); split("", multi); split("", pick)
	nl = 0; nrec = 0; nmulti = 0
	while ((getline s < in_) > 0) {
		line[++nl] = s
		if ((skip == "" || s !~ skip) && (k = ids(s, tmp)) > 0) {
			rec[++nrec] = nl
			if (k > 1)
				multi[++nmulti] = nl
		}
	}
	close(in_)
	# The middle record: the middle one of those with several IDs, if any.
	mid = nmulti ? multi[int((nmulti + 1) / 2)] : rec[int((nrec + 1) / 2)]
	pick[mid] = "last"
	pick[rec[nrec]] = "last"
	pick[rec[1]] = "first"
	for (q = 1; q <= nm; q++) {
		mode = modes[q]
		f = out "." mode; want = f ".want"
		printf "" >want
		for (i = 1; i <= nl; i++) {
			s = line[i]
			if (i in pick) {
				n = ids(s, st)
				at = pick[i] == "first" ? st[1] : st[n]
				col = 0
				if (mode == "nonhex" || mode == "punct") col = at + 5
				else for (j = at; j < at + hexsz; j++) if (index("abcdef", substr(s, j, 1))) { col = j; break }
				if (col == 0) for (m = 1; m <= n && !col; m++) for (j = st[m]; j < st[m] + hexsz; j++) if (index("abcdef", substr(s, j, 1))) { col = j; break }
				if (col) {
					ch = substr(s, col, 1)
					s = substr(s, 1, col - 1) (mode == "nonhex" ? "G" : mode == "punct" ? "-" : toupper(ch)) substr(s, col + 1)
					print i ":" col >want
				}
			}
			print s >f
		}
		if (nl == 0) printf "" >f
		close(f); close(want)
	}
}
