/*
 * A git cat-file --batch client: one kept open for single questions (the tags of each
 * ref), and the reading of its answers for the batches the walk feeds it.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/gate.h"
#include "util/child.h"

static int cat_start(struct hexoid_gate *g)
{
	char *argv[] = { "git", "cat-file", "--batch", NULL };
	int to, from;

	g->cat_pid = hexoid_gate_spawn(g, argv, &to, &from);
	if (g->cat_pid < 0) {
		hexoid_gate_say(g, "cannot run git cat-file: %s", strerror(errno));
		g->cat_pid = 0;
		g->trouble = 1;
		return -1;
	}
	g->cat_in = fdopen(to, "w");
	g->cat_out = fdopen(from, "r");
	if (!g->cat_in || !g->cat_out) {
		hexoid_gate_oom(g);
		if (!g->cat_in)
			close(to);
		if (!g->cat_out)
			close(from);
		hexoid_gate_cat_stop(g);
		return -1;
	}
	return 0;
}

void hexoid_gate_cat_stop(struct hexoid_gate *g)
{
	if (!g->cat_pid)
		return;
	if (g->cat_in)
		fclose(g->cat_in);
	if (g->cat_out)
		fclose(g->cat_out);
	g->cat_in = g->cat_out = NULL;
	if (hexoid_gate_reap(g, g->cat_pid, "git cat-file") != 0)
		g->trouble = 1;
	g->cat_pid = 0;
}

/*
 * Read cat-file --batch's answer for `name` from `out`. Returns 0 with the object's type,
 * its size, its ID in oid, and in *buf the text (malloc'd, NUL after it) of a commit or
 * tag of at most HEXOID_TEXT_MAX bytes, else NULL: the bytes of a tree, a blob or a
 * larger one are read past, never held. 1 if it is missing; -1 (said) when the answer
 * is not what cat-file prints.
 */
int hexoid_gate_cat_read(struct hexoid_gate *g, FILE *out, const char *name,
			 enum hexoid_object_type *type, char **buf, size_t *size, unsigned char *oid)
{
	char line[256], *sp;
	unsigned long long len;

	*buf = NULL;
	if (!fgets(line, sizeof(line), out) || !strchr(line, '\n'))
		goto broken;
	sp = strchr(line, ' ');
	if (sp && !strcmp(sp, " missing\n"))
		return 1;
	if (!sp || (size_t)(sp - line) != g->hexsz ||
	    hexoid_decode(oid, line, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK)
		goto broken;
	sp++;
	if (!strncmp(sp, "commit ", 7))
		*type = HEXOID_OBJ_COMMIT, sp += 7;
	else if (!strncmp(sp, "tag ", 4))
		*type = HEXOID_OBJ_TAG, sp += 4;
	else if (!strncmp(sp, "tree ", 5))
		*type = HEXOID_OBJ_TREE, sp += 5;
	else if (!strncmp(sp, "blob ", 5))
		*type = HEXOID_OBJ_BLOB, sp += 5;
	else
		goto broken;
	len = strtoull(sp, NULL, 10);
	*size = (size_t)len;
	if ((*type != HEXOID_OBJ_COMMIT && *type != HEXOID_OBJ_TAG) || len > HEXOID_TEXT_MAX) {
		char skip[65536];
		while (len) {
			size_t n = len < sizeof(skip) ? (size_t)len : sizeof(skip);
			if (fread(skip, 1, n, out) != n)
				goto broken;
			len -= n;
		}
		if (fgetc(out) != '\n')
			goto broken;
		return 0;
	}
	if (!(*buf = malloc(len + 1))) {
		hexoid_gate_oom(g);
		return -1;
	}
	if (fread(*buf, 1, len, out) != len || fgetc(out) != '\n')
		goto broken;
	(*buf)[len] = 0;
	return 0;
broken:
	free(*buf);
	*buf = NULL;
	hexoid_gate_say(g, "git cat-file --batch: unexpected output or end, reading %s", name);
	g->trouble = 1;
	return -1;
}

/* One object through the cat-file kept open for single questions. */
int hexoid_gate_cat_get(struct hexoid_gate *g, const char *name, enum hexoid_object_type *type,
			char **buf, size_t *size, unsigned char *oid)
{
	struct hexoid_sigpipe sp;
	int failed, err;

	*buf = NULL;
	if (!g->cat_pid && cat_start(g))
		return -1;
	hexoid_sigpipe_block(&sp);
	failed = fprintf(g->cat_in, "%s\n", name) < 0 || fflush(g->cat_in);
	err = errno;
	hexoid_sigpipe_restore(&sp);
	if (failed) {
		hexoid_gate_say(g, "git cat-file --batch: %s", strerror(err));
		g->trouble = 1;
		return -1;
	}
	return hexoid_gate_cat_read(g, g->cat_out, name, type, buf, size, oid);
}
