# Print every loop of function FN in a GCC assembly (.s) file, AArch64 or x86-64 (ISA=x86):
# for each branch back to a label of the same function, the instructions from the label to
# the branch, as "loop N: <count> instructions, <lookups> lookups, <st> stores, <orr> orr"
# (lookups: TBL and TBX on AArch64, two-source VPERMT2B/VPERMI2B on x86; stores: AArch64 stores, x86
# vector moves to or from memory), then ", <m> marked": lines matching the regex MARK; and
# when N == PICK, that loop's instructions into the file OUT.
BEGIN {
	infn = 0; n = 0
	if (ISA == "x86") {
		branch = "^j[a-z]+$"; lookup = "\\tvperm[it]2b\\t"; store = "\\tvmovdq[au](8|64)?\\t"
	} else {
		branch = "^(b\\.?(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?|cbz|cbnz|tbz|tbnz)$"
		lookup = "\\t(tbl|tbx)\\t"; store = "\\t(st1|str|stp)\\t"
	}
}
$0 ~ "^" FN ":" { infn = 1; next }
infn && $0 ~ "^\t\\.size\t" FN "," { infn = 0 }
!infn { next }
/^\.L[0-9A-Za-z_]+:/ { lab = $0; sub(":.*", "", lab); at[lab] = n; line[n++] = $0; next }
/^\t[a-z]/ {
	line[n++] = $0
	op = $1; tgt = $NF
	if (op ~ branch && (tgt in at)) {
		from = at[tgt]; cnt = 0; tb = 0; st = 0; orr = 0; mk = 0
		for (k = from + 1; k < n; k++) {
			if (line[k] !~ /^\t[a-z]/) continue
			cnt++
			if (line[k] ~ lookup) tb++
			if (line[k] ~ store) st++
			if (line[k] ~ /\torr\t/) orr++
			if (MARK != "" && line[k] ~ MARK) mk++
		}
		loops++
		printf "loop %d: %d instructions, %d lookups, %d stores, %d orr, %d marked\n", loops, cnt, tb, st, orr, mk
		if (loops == PICK)
			for (k = from + 1; k < n; k++)
				if (line[k] ~ /^\t[a-z]/) print line[k] > OUT
	}
}
