# make_history DIR COMMITS [OBJECT-FORMAT]: a repository in DIR with COMMITS commits shaped
# like a real project's: a few dozen files under a few folders, each commit changing one
# to three of them, messages of a subject and two to six paragraphs (300 bytes to 2 KiB,
# with trailers) that change a little from one commit to the next, a handful of
# authors, an annotated tag every 200 commits and a merge every 50; then repacked as a
# server keeps it (`git repack -adf --depth=50 --window=250`), so commits sit in delta
# chains against each other. The objects are the same on every run (a fixed seed); the
# pack's delta choices, made by several threads, may differ a little.
# Sourced by tests and benchmarks.
# shellcheck shell=sh
make_history() {
	mh_dir=$1 mh_n=$2 mh_fmt=${3:-sha1}
	git -c init.defaultBranch=main init -q --object-format="$mh_fmt" "$mh_dir" || return 1
	awk -v n="$mh_n" 'BEGIN {
		srand(15)
		split("the object reader|a pack index|delta chains|the refs backend|" \
		      "loose objects|the commit graph|reflog expiry|the config parser|" \
		      "object names|sparse checkout|the index file|merge-ort|" \
		      "the transport layer|promisor remotes|bitmap reachability|hash algorithms", topic, "|")
		split("fix|teach|avoid|document|refactor|speed up|simplify|test", verb, "|")
		split("When the caller passes an empty buffer we used to read one byte past it.|" \
		      "This keeps the behaviour for existing callers and only changes the error path.|" \
		      "The old code walked the whole list for every lookup, which is quadratic.|" \
		      "Reported on the mailing list with a reproduction that needs a large repository.|" \
		      "Nothing else depends on the removed helper, so drop it while we are here.|" \
		      "The test added here fails before this change and passes after it.|" \
		      "We could also cache the result, but measurements show no gain worth the code.|" \
		      "Rename the variable so that it says what it holds, not how it is computed.|" \
		      "Split the function in two so that the second half can be reused by the next patch.|" \
		      "The documentation claimed otherwise since the option was introduced.", sentence, "|")
		split("Ann Author <ann@example.org>|Bo Builder <bo@example.org>|" \
		      "Cy Coder <cy@example.net>|Di Debugger <di@example.com>|Ed Editor <ed@example.com>", who, "|")
		nfile = 0
		for (d = 1; d <= 4; d++) for (f = 1; f <= 10; f++) path[++nfile] = sprintf("dir%d/file%02d.c", d, f)
		for (i = 1; i <= nfile; i++) { content[i] = sprintf("/* %s */\nint f%d(void) { return %d; }\n", path[i], i, i) }
		mark = 0; last = 0
		for (c = 1; c <= n; c++) {
			when = 1600000000 + c * 3607
			a = who[int(rand() * 5) + 1]; m = who[int(rand() * 5) + 1]
			msg = sprintf("%s: %s %s\n\n", topic[int(rand() * 16) + 1], verb[int(rand() * 8) + 1], topic[int(rand() * 16) + 1])
			# A running body of six paragraphs, one rewritten per commit, of which the
			# commit shows the first two to six: neighbours share most of their text,
			# as a series of patches by the same people does.
			para[int(rand() * 6)] = ""
			for (p = 0; p < 6; p++)
				if (para[p] == "") {
					ns = int(rand() * 4) + 2
					for (s = 0; s < ns; s++) para[p] = para[p] sentence[int(rand() * 10) + 1] (s + 1 < ns ? " " : "\n")
				}
			np = int(rand() * 5) + 2
			for (p = 0; p < np; p++) msg = msg para[p] "\n"
			msg = msg "Signed-off-by: " a "\n"
			if (rand() < 0.5) msg = msg "Reviewed-by: " m "\n"
			nch = int(rand() * 3) + 1
			printf "commit refs/heads/main\nmark :%d\n", ++mark
			printf "author %s %d +0000\ncommitter %s %d +0000\n", a, when, m, when + 60
			printf "data %d\n%s", length(msg), msg
			if (last) printf "from :%d\n", last
			if (c % 50 == 0 && c > 100) printf "merge :%d\n", last - 40
			for (k = 0; k < nch; k++) {
				fi = int(rand() * nfile) + 1
				content[fi] = content[fi] sprintf("int g%d_%d(int x) { return x * %d; }\n", c, k, k + 2)
				printf "M 100644 inline %s\ndata %d\n%s\n", path[fi], length(content[fi]), content[fi]
			}
			printf "\n"
			last = mark
			if (c % 200 == 0) {
				t = sprintf("v%d.%d", int(c / 1000), c % 1000)
				msg = "release " t "\n"
				printf "tag %s\nfrom :%d\ntagger %s %d +0000\ndata %d\n%s\n", t, last, m, when, length(msg), msg
			}
		}
	}' | git -C "$mh_dir" fast-import --quiet || return 1
	git -C "$mh_dir" repack -adfq --depth=50 --window=250 || return 1
	git -C "$mh_dir" gc --quiet --prune=now 2>/dev/null
	git -C "$mh_dir" pack-refs --all
}
