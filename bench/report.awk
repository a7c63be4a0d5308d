# Turn hexoid-bench's JSON (Google Benchmark's layout, one field per line, which the
# fallback harness writes too) into a Markdown table of ratios, or into gnuplot data.
#
#   awk -f bench/report.awk -v mode=md RESULTS.json > RESULTS.md
#   awk -f bench/report.awk -v mode=plot -v dir=DIR -v svg=OUT.svg RESULTS.json
#       (writes DIR/*.dat and DIR/plot.gp; then gnuplot DIR/plot.gp)
#
# Every ratio divides two figures of the same run: on a shared machine absolute figures
# drift between runs far more than ratios do. With --benchmark_repetitions the median is
# used. Case names are op/.../impl (see bench/cases.c): everything before the last '/'
# is the case, the last part the kernel or baseline.

function strval(line) {
	sub(/^[^:]*: */, "", line)
	sub(/,$/, "", line)
	gsub(/^"|"$/, "", line)
	gsub(/\\"/, "\"", line)
	return line
}

function emit(    key, cfg, impl, op, i) {
	key = run_name != "" ? run_name : name
	if (run_type == "aggregate" && aggregate != "median")
		return
	if (run_type != "aggregate" && (key in median))
		return
	if (run_type == "aggregate")
		median[key] = 1
	cfg = key; sub(/\/[^\/]*$/, "", cfg)
	impl = key; sub(/^.*\//, "", impl)
	op = key; sub(/\/.*$/, "", op)
	if (!(cfg in cfg_seen)) {
		cfg_seen[cfg] = 1
		cfgs[ncfg++] = cfg
		cfg_op[cfg] = op
	}
	if (!((op, impl) in impl_seen)) {
		impl_seen[op, impl] = 1
		impls[op, nimpl[op]++] = impl
	}
	if (error != "") {
		err[cfg, impl] = error
		if (!((impl, error) in why_seen)) {
			why_seen[impl, error] = 1
			if (impl in why)
				why[impl] = why[impl] "; " error
			else
				why[impl] = error
		}
	} else if (ips > 0) {
		ips_of[cfg, impl] = ips
		ran[op, impl] = 1
		ran_any[impl] = 1
	}
}

BEGIN {
	in_bench = 0
	baseline["git-loop"] = baseline["libgit2"] = baseline["memcpy"] = 1
	baseline["memchr"] = baseline["hex_to_bytes"] = 1
	limit["decode"] = limit["validate"] = "memchr"
	limit["encode"] = "memcpy"
	title["latency"] = "Single-ID latency: one ID per call, each call waiting on the last"
	title["decode"] = "Bulk decode"
	title["validate"] = "Validate only (out = NULL)"
	title["encode"] = "Encode"
	# The cases the peers harness (../shared/tools/peers, `make bench-peers`) runs too,
	# by its ids: the rows are labelled with them, so a figure in either report can be
	# found in the other.
	peer["decode/sha1/stride=41/lower/n=64K"] = "c1"
	peer["decode/sha1/stride=41/lower/n=8K"] = "c1s"
	peer["decode/sha1/stride=41/mixed/n=64K"] = "c2m"
	peer["validate/sha1/stride=41/lower/n=64K"] = "c2v"
	peer["validate/sha1/stride=41/mixed/n=64K"] = "c2vm"
	peer["decode/sha256/stride=65/lower/n=64K"] = "c3"
	peer["decode/sha1/stride=41/lower/n=16M"] = "c4"
	peer["validate/sha1/stride=41/lower/n=16M"] = "c4v"
	peer["encode/sha1/stride=41/n=64K"] = "c5"
}

/"benchmarks": *\[/ { in_bench = 1; next }

!in_bench && /^ *"[a-z0-9_]+": / {
	k = $0; sub(/^ *"/, "", k); sub(/".*$/, "", k)
	ctx[k] = strval($0)
	next
}

in_bench && /^ *"name": / { name = strval($0); run_name = run_type = aggregate = error = ""; ips = 0 }
in_bench && /^ *"run_name": / { run_name = strval($0) }
in_bench && /^ *"run_type": / { run_type = strval($0) }
in_bench && /^ *"aggregate_name": / { aggregate = strval($0) }
in_bench && /^ *"error_message": / { error = strval($0) }
in_bench && /^ *"items_per_second": / { ips = strval($0) + 0 }
in_bench && /^ *},?$/ { if (name != "") emit(); name = "" }

# Columns for one op: the kernels that ran (the table lists them best first: show the
# scalar reference first), then the baselines.
function columns(op,    i, n, impl) {
	n = 0
	for (i = nimpl[op] - 1; i >= 0; i--) {
		impl = impls[op, i]
		if (!(impl in baseline) && ((op, impl) in ran))
			cols[n++] = impl
	}
	for (i = 0; i < nimpl[op]; i++) {
		impl = impls[op, i]
		if ((impl in baseline) && impl != "git-loop" && impl != limit[op])
			cols[n++] = impl
	}
	return n
}

function label(cfg,    id) {
	id = (cfg in peer) ? "`" peer[cfg] "` " : ""
	sub(/^[^\/]*\//, "", cfg)
	gsub(/stride=/, "s", cfg)
	gsub(/n=/, "", cfg)
	gsub(/\//, " ", cfg)
	return id cfg
}

function fmt(x) {
	return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
}

function md_table(op,    ncol, i, c, cfg, git, lim, v, row, hdr, sep) {
	ncol = columns(op)
	print ""
	print "### " title[op]
	print ""
	if (op == "latency") {
		print "Nanoseconds per ID, and in brackets how many times faster than git's loop."
		hdr = "| case | git-loop ns |"; sep = "|---|---:|"
	} else {
		print "Millions of IDs per second for git's loop and for " limit[op] " over the same input;"
		print "for each kernel, how many times git's loop (×) and what share of " limit[op] "'s rate (%)."
		hdr = "| case | git-loop M/s | " limit[op] " M/s |"; sep = "|---|---:|---:|"
	}
	print ""
	for (i = 0; i < ncol; i++) {
		hdr = hdr " " cols[i] " |"
		sep = sep "---:|"
	}
	print hdr
	print sep
	for (c = 0; c < ncfg; c++) {
		cfg = cfgs[c]
		if (cfg_op[cfg] != op)
			continue
		git = ((cfg, "git-loop") in ips_of) ? ips_of[cfg, "git-loop"] : 0
		lim = ((cfg, limit[op]) in ips_of) ? ips_of[cfg, limit[op]] : 0
		if (op == "latency")
			row = "| " label(cfg) " | " (git ? fmt(1e9 / git) : "—") " |"
		else
			row = "| " label(cfg) " | " (git ? fmt(git / 1e6) : "—") " | " \
			      (lim ? fmt(lim / 1e6) : "—") " |"
		for (i = 0; i < ncol; i++) {
			if (!((cfg, cols[i]) in ips_of)) {
				row = row " — |"
				continue
			}
			v = ips_of[cfg, cols[i]]
			if (op == "latency")
				row = row " " fmt(1e9 / v) (git ? " (" fmt(v / git) "×)" : "") " |"
			else if (cols[i] in baseline)
				row = row " " (git ? fmt(v / git) "×" : fmt(v / 1e6) " M/s") " |"
			else
				row = row " " (git ? fmt(v / git) "×" : "") \
				      (lim ? " (" sprintf("%.0f", 100 * v / lim) "%)" : "") " |"
		}
		print row
	}
}

function md(    ops, o, k, notrun) {
	print "# hexoid benchmarks: " ctx["cpu_model"]
	print ""
	print "- date: " ctx["date"] "; host CPUs: " ctx["num_cpus"] ", " ctx["mhz_per_cpu"] " MHz"
	print "- hexoid " ctx["hexoid_version"] ", usable kernels (best first): " ctx["hexoid_kernels"]
	print "- CPU features seen: " ctx["hexoid_cpu_features"]
	print "- harness: " ctx["harness"] "; libgit2: " ctx["libgit2"]
	print "- one run; every ratio compares figures of that same run (CPU time)"
	print "- `c1`, `c1s`, ...: the same case in the peers harness (`make bench-peers`)"
	notrun = ""
	for (k in why)
		if (!(k in ran_any))
			notrun = notrun "\n  - " k ": " why[k]
	if (notrun != "")
		print "- not run on this machine:" notrun
	split("latency decode validate encode", ops, " ")
	for (o = 1; o <= 4; o++)
		if (nimpl[ops[o]])
			md_table(ops[o])
	for (k in why)
		if ((k in ran_any) && (k in baseline))
			skipped_note = skipped_note "\n- " k " shows — where it did not run: " why[k]
	if (skipped_note != "")
		print "\n" substr(skipped_note, 2)
}

function size_of(cfg,    s, m) {
	s = cfg; sub(/^.*\/n=/, "", s)
	m = 1
	if (s ~ /K$/) m = 1024
	if (s ~ /M$/) m = 1048576
	return (s + 0) * m
}

# Every impl's place in the charts, the same in every panel (so its colour is too):
# kernels from the scalar reference up, then the baselines.
function chart_order(    o, ops, i, impl, n) {
	n = 0
	split("decode validate encode", ops, " ")
	for (o = 1; o <= 3; o++)
		for (i = nimpl[ops[o]] - 1; i >= 0; i--) {
			impl = impls[ops[o], i]
			if (!(impl in baseline) && !(impl in order))
				order[impl] = ++n
		}
	for (o = 1; o <= 3; o++)
		for (i = 0; i < nimpl[ops[o]]; i++) {
			impl = impls[ops[o], i]
			if (!(impl in order))
				order[impl] = ++n
		}
	for (impl in order)
		by_order[order[impl]] = impl
	return n
}

# One panel: the cases whose name, without its n=, is `prefix`; one line per impl.
function panel(p, prefix, heading,    c, cfg, i, impl, file, line, ncol, have, plot_cmd) {
	file = dir "/p" p ".dat"
	ncol = 0
	split("", have)
	for (c = 0; c < ncfg; c++) {
		cfg = cfgs[c]
		if (substr(cfg, 1, length(prefix) + 3) != prefix "/n=")
			continue
		for (impl in order)
			if ((cfg, impl) in ips_of)
				have[impl] = 1
	}
	for (i = 1; i <= norder; i++)
		if (by_order[i] in have)
			pcols[ncol++] = by_order[i]
	if (!ncol)
		return 0
	line = "n"
	for (i = 0; i < ncol; i++)
		line = line " " pcols[i]
	print line > file
	for (c = 0; c < ncfg; c++) {
		cfg = cfgs[c]
		if (substr(cfg, 1, length(prefix) + 3) != prefix "/n=")
			continue
		line = size_of(cfg)
		for (i = 0; i < ncol; i++)
			line = line " " (((cfg, pcols[i]) in ips_of) ? ips_of[cfg, pcols[i]] / 1e6 : "?")
		print line > file
	}
	close(file)
	printf "set title \"%s\"\n", heading > gp
	plot_cmd = "plot"
	for (i = 0; i < ncol; i++)
		plot_cmd = plot_cmd sprintf("%s \"%s\" using 1:%d with linespoints lw 2 lc %d pt %d dt %d title \"%s\"", \
			i ? "," : "", file, i + 2, order[pcols[i]], order[pcols[i]], \
			(pcols[i] in baseline) ? 2 : 1, pcols[i])
	print plot_cmd > gp
	return 1
}

function plot(    np, ncolors, colors, i) {
	norder = chart_order()
	gp = dir "/plot.gp"
	print "set terminal svg size 1280,960 dynamic noenhanced font \"sans,12\"" > gp
	printf "set output \"%s\"\n", svg > gp
	print "set datafile missing \"?\"" > gp
	# Kernels in colour, from the scalar reference up; baselines in greys and dashed.
	ncolors = split("#e6ab02 #66a61e #1f78b4 #e7298a #d95f02 #7570b3 #000000 #a6761d #999999 #555555 #17becf #8c564b", colors, " ")
	for (i = 1; i <= ncolors; i++)
		printf "set linetype %d lc rgb \"%s\"\n", i, colors[i] > gp
	print "set logscale xy" > gp
	print "set xrange [0.7:2.4e7]" > gp
	print "set grid xtics ytics mytics" > gp
	print "set xtics (\"1\" 1, \"16\" 16, \"1K\" 1024, \"64K\" 65536, \"1M\" 1048576, \"16M\" 16777216)" > gp
	print "set xlabel \"IDs per call\"" > gp
	print "set ylabel \"million IDs per second\"" > gp
	print "set key outside right top font \",10\" spacing 0.9" > gp
	printf "set multiplot layout 2,2 title \"hexoid on %s, %s (one run; git-loop = git's table loop)\"\n", \
		ctx["cpu_model"], substr(ctx["date"], 1, 10) > gp
	np = panel(1, "decode/sha1/stride=41/lower", "decode SHA-1 lines (40 hex + LF), lowercase-only")
	np += panel(2, "decode/sha256/stride=65/lower", "decode SHA-256 lines (64 hex + LF), lowercase-only")
	np += panel(3, "validate/sha1/stride=41/mixed", "validate only, SHA-1 lines, mixed case accepted")
	np += panel(4, "encode/sha1/stride=41", "encode SHA-1 to lines")
	print "unset multiplot" > gp
	close(gp)
	if (!np)
		print "report.awk: nothing to plot" > "/dev/stderr"
}

END {
	if (mode == "md")
		md()
	else if (mode == "plot")
		plot()
	else {
		print "report.awk: mode must be md or plot" > "/dev/stderr"
		exit 2
	}
}
