/*
 * A git cat-file client: one --batch-command kept open for single questions (the tags of
 * each ref: "info" first, "contents" only for a tag or commit worth reading, so that a
 * ref pointing at a blob of gigabytes costs its header), and the reading of --batch's
 * answers for the batches the walk feeds it.
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
	char *argv[] = { "git", "cat-file", "--batch-command", NULL };
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

/* cat-file's header line for `name`: 0 with type, size and ID; 1 when it says the object
 * is missing; -1 (said) when it is not what cat-file prints. */
static int cat_header(struct hexoid_gate *g, FILE *out, const char *name,
		      enum hexoid_object_type *type, unsigned long long *len, unsigned char *oid)
{
	char line[256], *sp;

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
	*len = strtoull(sp, NULL, 10);
	return 0;
broken:
	hexoid_gate_say(g, "git cat-file: unexpected output or end, reading %s", name);
	g->trouble = 1;
	return -1;
}

/* Whether the text of a `type` object of `len` bytes is read: a commit's or tag's up to
 * HEXOID_TEXT_MAX, nothing else. */
static int worth_reading(enum hexoid_object_type type, unsigned long long len)
{
	return (type == HEXOID_OBJ_COMMIT || type == HEXOID_OBJ_TAG) && len <= HEXOID_TEXT_MAX;
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
	unsigned long long len;
	int rc;

	*buf = NULL;
	if ((rc = cat_header(g, out, name, type, &len, oid)))
		return rc;
	*size = (size_t)len;
	if (!worth_reading(*type, len)) {
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

/* Send one command to the cat-file kept open: 0, or -1 (said). */
static int cat_ask(struct hexoid_gate *g, const char *command, const char *name)
{
	struct hexoid_sigpipe sp;
	int failed, err;

	hexoid_sigpipe_block(&sp);
	failed = fprintf(g->cat_in, "%s %s\n", command, name) < 0 || fflush(g->cat_in);
	err = errno;
	hexoid_sigpipe_restore(&sp);
	if (failed) {
		hexoid_gate_say(g, "git cat-file --batch-command: %s", strerror(err));
		g->trouble = 1;
		return -1;
	}
	return 0;
}

/* One object through the cat-file kept open for single questions (the chain of tags
 * from a ref's new value), as hexoid_gate_cat_read() returns it but with the text of a
 * tag only: its type and size asked first, its text only for a tag worth reading. */
int hexoid_gate_cat_get(struct hexoid_gate *g, const char *name, enum hexoid_object_type *type,
			char **buf, size_t *size, unsigned char *oid)
{
	unsigned long long len;
	int rc;

	*buf = NULL;
	if (!g->cat_pid && cat_start(g))
		return -1;
	if (cat_ask(g, "info", name))
		return -1;
	if ((rc = cat_header(g, g->cat_out, name, type, &len, oid)))
		return rc;
	*size = (size_t)len;
	if (*type != HEXOID_OBJ_TAG || !worth_reading(*type, len))
		return 0;
	if (cat_ask(g, "contents", name))
		return -1;
	return hexoid_gate_cat_read(g, g->cat_out, name, type, buf, size, oid);
}
