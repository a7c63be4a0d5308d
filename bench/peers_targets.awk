# The speed targets, from one peers-bench run (its --tsv file): each ratio is of two rows
# of the same run. Columns: case, contender, IDs/s, GB/s, x git, of memchr, check.
#   awk -v AUTO=avx512zen4 -f bench/peers_targets.awk bench.tsv
# "best crate" is the fastest of faster-hex, hex-simd and const-hex in the row's shape:
# per ID, or once over the contiguous digits (what the crates are built for).
BEGIN { FS = "\t" }
{
	rate[$1, $2] = $3
	cases[$1] = 1
	if ($2 ~ /^(faster-hex|hex-simd|const-hex)( check)?, contiguous$/ && $3 > contig[$1]) {
		contig[$1] = $3; contig_who[$1] = $2
	}
	if ($2 ~ /^(faster-hex|hex-simd|const-hex)( check)? \(per ID\)$/ && $3 > perid[$1]) {
		perid[$1] = $3; perid_who[$1] = $2
	}
	if ($2 ~ /^hexoid (sse|avx2|avx512bw|avx512|avx512zen4|neon|neonwide)$/ && $3 > kbest[$1]) {
		kbest[$1] = $3; kbest_who[$1] = $2
	}
}
function show(what, num, den, goal,   r) {
	if (num == "" || den == "" || den == 0) return
	r = num / den
	printf "| %s | %.2fx | %s | %s |\n", what, r, goal, (r >= goal ? "met" : "not met")
}
END {
	print "| target (one run) | ratio | goal | |"
	print "|---|---:|---:|---|"
	# 8K SHA-1 lines (in L2) and 64K SHA-256 lines: the cases the targets name
	split("c1s c3", lc, " ")
	for (i = 1; i <= 2; i++) {
		c = lc[i]
		if (!(c in cases)) continue
		show(c ": best hexoid kernel on lines (" kbest_who[c] ") / best crate contiguous (" contig_who[c] ")", kbest[c], contig[c], 1.5)
		show(c ": hexoid avx2 on lines / best crate contiguous", rate[c, "hexoid avx2"], contig[c], 1.0)
		show(c ": hexoid_decode n = 1 / best crate per ID (" perid_who[c] ")", rate[c, "hexoid auto, n=1 per ID"], perid[c], 1.2)
		show(c ": hexoid_hex_to_bytes / best crate per ID", rate[c, "hexoid_hex_to_bytes per ID"], perid[c], 1.2)
	}
	# the automatic choice (AUTO, the harness's "best kernel") against every kernel of
	# the machine, in each case that runs them all: "never slower", within the 5% that
	# separates two runs of one kernel here
	if (AUTO == "") exit
	for (c in cases) {
		if (!((c, "hexoid " AUTO) in rate) || kbest[c] == "") continue
		show(c ": the automatic choice (" AUTO ") / the fastest kernel (" kbest_who[c] ")", rate[c, "hexoid " AUTO], kbest[c], 0.95)
	}
}
