# tests/plant.awk -v hexsz=40 -v mode=upper|nonhex|punct -v want=FILE: copies a listing,
# changing one object ID in each of its first, middle and last records that hold one
# (the middle among those with several IDs, when there are): the ID's first letter digit
# made uppercase (mode=upper; another ID of the line when it has none), or its sixth
# digit made 'G' (mode=nonhex) or '-' (mode=punct). The first record's first ID, the others' last one.
# Writes "LINE:COL" of each change to `want`, in line order. With -v first=1, only the
# first ID of each line counts (what follows it is a path); lines that match -v skip=RE
# are no records (verify-pack's "<pack>: ok", whose name is a checksum, not an ID).
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
{
	line[NR] = $0
	if ((skip == "" || $0 !~ skip) && (k = ids($0, tmp)) > 0) {
		rec[++nrec] = NR
		if (k > 1)
			multi[++nmulti] = NR
	}
}
END {
	# The middle record: the middle one of those with several IDs, if any.
	mid = nmulti ? multi[int((nmulti + 1) / 2)] : rec[int((nrec + 1) / 2)]
	pick[mid] = "last"
	pick[rec[nrec]] = "last"
	pick[rec[1]] = "first"
	for (i = 1; i <= NR; i++) {
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
		print s
	}
}
