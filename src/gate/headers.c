/*
 * The header checks of commits and tags read through git cat-file: each problem
 * hexoid_object_check() finds becomes a finding of the ref that reaches the object.
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"

struct checking {
	struct hexoid_gate *g;
	int ref;
	const unsigned char *oid;
	enum hexoid_object_type type;
};

static int on_header(void *ctx, const struct hexoid_header_problem *p)
{
	struct checking *c = ctx;
	struct gate_rec *r = hexoid_gate_rec_add(&c->g->walk);

	if (!r) {
		hexoid_gate_oom(c->g);
		return 1;
	}
	r->ref = c->ref;
	r->code = p->code;
	r->cls = hexoid_code_class(p->code);
	r->has_oid = 1;
	memcpy(r->oid, c->oid, c->g->rawsz);
	r->type = c->type;
	snprintf(r->header, sizeof(r->header), "%s", p->header);
	r->line = p->line;
	r->column = p->column;
	snprintf(r->message, sizeof(r->message), "%s", p->message);
	return 0;
}

/* A commit or tag read as text (NULL: larger than HEXOID_TEXT_MAX, so not read). */
void hexoid_gate_check_text(struct hexoid_gate *g, int ref, const unsigned char *oid,
			    enum hexoid_object_type type, const char *text, size_t len)
{
	struct checking c = { g, ref, oid, type };
	struct hexoid_header_problem p;

	if (text) {
		hexoid_object_check(type, text, len, g->algo, on_header, &c);
		return;
	}
	memset(&p, 0, sizeof(p));
	p.code = HEXOID_CODE_TOO_LARGE;
	p.header = "";
	snprintf(p.message, sizeof(p.message), "a %s of %zu bytes: more than the %llu MiB read of one; not checked",
		 hexoid_object_type_name(type), len, (unsigned long long)(HEXOID_TEXT_MAX >> 20));
	on_header(&c, &p);
}

/*
 * The chain of tags from a ref's new value: each tag is checked and its object followed
 * (in lowercase, so that an uppercase object header is followed as Git 2.x follows it).
 * *walk says whether git rev-list has anything to walk from there: not when the chain
 * ends at a blob or a tree (rev-list would only read it, a blob of gigabytes whole to
 * hash it), at a tag too large to read, or at a pushed commit too large to read (the scan
 * names it; git would hold all of it). Returns 0 when the chain ends, -1 when it cannot
 * be followed (said).
 */
int hexoid_gate_check_tags(struct hexoid_gate *g, int ref, const char *start, int *walk)
{
	char name[HEXOID_MAX_HEXSZ + 1];
	unsigned depth;

	*walk = 1;
	snprintf(name, sizeof(name), "%s", start);
	for (depth = 0; depth < 64; depth++) {
		enum hexoid_object_type type;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		char *text;
		size_t len, i;
		int rc = hexoid_gate_cat_get(g, name, &type, &text, &len, oid);

		if (rc > 0) {
			hexoid_gate_say(g, "%s: object %s is missing", g->u[ref].ref, name);
			g->trouble = 1;
		}
		if (rc)
			return -1;
		if (type != HEXOID_OBJ_TAG) {
			*walk = type == HEXOID_OBJ_COMMIT &&
				!(len > HEXOID_TEXT_MAX && hexoid_gate_pushed(g, oid));
			free(text);
			return 0;
		}
		hexoid_gate_check_text(g, ref, oid, type, text, len);
		if (!text)
			*walk = 0; /* too large: a finding now */
		/* A tag's text starts with "object <hex>\n". */
		if (!text || len < 7 + g->hexsz || memcmp(text, "object ", 7)) {
			free(text);
			return 0;
		}
		for (i = 0; i < g->hexsz; i++)
			name[i] = (char)(text[7 + i] | (text[7 + i] >= 'A' && text[7 + i] <= 'F' ? 0x20 : 0));
		name[g->hexsz] = 0;
		free(text);
		if (hexoid_decode(NULL, name, 1, g->hexsz, g->algo, HEXOID_LOWER, NULL) != HEXOID_OK)
			return 0; /* not an ID: already a finding, and nothing to follow */
	}
	hexoid_gate_say(g, "%s: more than 64 tags in a chain from %s", g->u[ref].ref, start);
	g->trouble = 1;
	return -1;
}

/* Check the commits of `ids`, none of them pushed: each read through cat-file --batch
 * (fed from a thread, so the questions never wait for the answers; --buffer, so that
 * its answers come in large writes rather than a write or two each). */
void hexoid_gate_check_stored(struct hexoid_gate *g, int who, const struct hexoid_oidset *ids)
{
	char *argv[] = { "git", "cat-file", "--batch", "--buffer", NULL };
	struct gate_feeder f = { g, NULL, ids, NULL, 0, 0, 0 };
	FILE *out;
	pid_t pid;

	if (!ids->n)
		return;
	if ((pid = hexoid_gate_start_fed(g, argv, &f, &out)) < 0)
		return;
	for (size_t i = 0; i < ids->n; i++) {
		enum hexoid_object_type type;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		char *text, hex[HEXOID_MAX_HEXSZ + 1];
		size_t len;
		int rc;

		hexoid_encode(hex, g->hexsz, hexoid_oidset_at(ids, i), 1, g->algo);
		hex[g->hexsz] = 0;
		rc = hexoid_gate_cat_read(g, out, hex, &type, &text, &len, oid);
		if (rc > 0) {
			hexoid_gate_say(g, "commit %s is missing", hex);
			g->trouble = 1;
		}
		if (rc)
			break;
		if (type == HEXOID_OBJ_COMMIT)
			hexoid_gate_check_text(g, who, oid, type, text, len);
		free(text);
	}
	if (hexoid_gate_end_fed(g, pid, &f, out, "git cat-file") != 0) {
		hexoid_gate_say(g, "git cat-file --batch failed");
		g->trouble = 1;
	}
}
