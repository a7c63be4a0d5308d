/*
 * Which objects the push brought: the IDs in the indexes of the quarantine's packs,
 * mapped, and its loose objects' names, both as git lists them (pack/objdir.h) and as
 * the scan of the pushed objects (pushed.c) goes through them. A commit among them is
 * checked by that scan, so the two must agree: an ID counted here that the scan never
 * saw would be a commit nobody checks. The walk only notes which ref reaches it.
 *
 * hexoid_odb_open() (hexoid_pack.h) is not used for this: it answers "read this
 * object", not "is it here" (a read inflates what is found), it fails whole on one
 * unusable pack where here a bad index is said and the others kept, and it looks loose
 * objects up by their lowercase names only, where the scan reads (and reports) loose
 * names in either case, as Git 2.x lists them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/gate.h"
#include "pack/common.h"
#include "pack/objdir.h"
#include "util/str.h"

/* The indexes of the quarantine's packs, the packs git reads (pack/objdir.h). One that
 * cannot be used is said, and the others kept. */
static void load_indexes(struct hexoid_gate *g)
{
	struct gate_quarantine *q = &g->q;
	struct hexoid_names packs;
	size_t i;

	/* A pack folder that cannot be read is said by the scan (pushed.c). */
	if (hexoid_objdir_packs(g->quarantine, &packs)) {
		if (errno == ENOMEM)
			hexoid_gate_oom(g);
		return;
	}
	if (packs.n && (!(q->maps = malloc(packs.n * sizeof(*q->maps))) ||
			!(q->idx = malloc(packs.n * sizeof(*q->idx))))) {
		hexoid_gate_oom(g);
		packs.n = 0;
	}
	for (i = 0; i < packs.n; i++) {
		char *path = hexoid_objdir_idx_of(packs.v[i]);
		struct pk_map *m = &q->maps[q->n];
		struct hexoid_idx_error e;
		char err[512];

		if (!path) {
			hexoid_gate_oom(g);
			break;
		}
		if (hexoid_pk_map_file(m, path, err, sizeof(err))) {
			int why = errno;
			hexoid_gate_say(g, "pushed %s: %s", strrchr(path, '/') + 1,
					why == EINVAL ? "not a regular file" : strerror(why));
			g->trouble = 1;
		} else if (hexoid_idx_open(&q->idx[q->n], m->data, m->size, g->algo, &e) != HEXOID_IDX_OK) {
			hexoid_gate_say(g, "pushed %s: %s", strrchr(path, '/') + 1, e.message);
			hexoid_pk_unmap(m);
			g->trouble = 1;
		} else {
			q->n++;
		}
		free(path);
	}
	hexoid_names_free(&packs);
}

void hexoid_gate_quarantine_load(struct hexoid_gate *g)
{
	load_indexes(g);
	/* Loose objects: xx/yyyy..., in either case as Git 2.x reads them. */
	if (hexoid_objdir_loose_ids(g->quarantine, g->algo, &g->q.loose))
		hexoid_gate_oom(g);
	hexoid_oidset_sort(&g->q.loose);
	/* A FIFO (or a device) where a loose object should be: git would wait on it, or
	 * read it forever. The scan names it; no git is run on this quarantine. */
	for (size_t i = 0; i < g->q.loose.n && !g->q.blocking; i++) {
		char hex[HEXOID_MAX_HEXSZ + 2], *path;
		struct stat st;

		hexoid_encode(hex, g->hexsz, hexoid_oidset_at(&g->q.loose, i), 1, g->algo);
		hex[g->hexsz] = 0;
		memmove(hex + 3, hex + 2, g->hexsz - 1);
		hex[2] = '/';
		if (!(path = hexoid_join(g->quarantine, hex))) {
			hexoid_gate_oom(g);
			break;
		}
		if (!stat(path, &st) && !S_ISREG(st.st_mode))
			g->q.blocking = 1;
		free(path);
	}
}

int hexoid_gate_pushed(const struct hexoid_gate *g, const unsigned char *oid)
{
	for (size_t i = 0; i < g->q.n; i++)
		if (hexoid_idx_find(&g->q.idx[i], oid) >= 0)
			return 1;
	return hexoid_oidset_find(&g->q.loose, oid, g->rawsz) != (size_t)-1;
}

void hexoid_gate_quarantine_free(struct gate_quarantine *q)
{
	for (size_t i = 0; i < q->n; i++)
		hexoid_pk_unmap(&q->maps[i]);
	free(q->maps);
	free(q->idx);
	hexoid_oidset_free(&q->loose);
	memset(q, 0, sizeof(*q));
}
