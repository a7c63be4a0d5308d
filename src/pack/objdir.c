/*
 * An objects folder listed as git lists it (objdir.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hexoid_idx.h"
#include "pack/common.h"
#include "pack/objdir.h"
#include "util/str.h"

static int is_idx(const char *name, void *ctx)
{
	(void)ctx;
	return hexoid_ends_with(name, ".idx");
}

int hexoid_objdir_packs(const char *objects, struct hexoid_names *packs)
{
	char *packdir = hexoid_join(objects, "pack");
	size_t i, kept = 0;
	int err = 0;

	packs->v = NULL;
	packs->n = 0;
	if (!packdir) {
		errno = ENOMEM;
		return -1;
	}
	/* Listed by their .idx, as git finds them; each name becomes its .pack's path. */
	if (hexoid_dir_names(packdir, HEXOID_DIR_ANY, is_idx, NULL, packs)) {
		free(packdir);
		return -1;
	}
	for (i = 0; i < packs->n; i++) {
		char *idx = packs->v[i], *pack = NULL;
		size_t stem = strlen(idx) - 4;
		struct stat st;

		if (!err && !(pack = malloc(strlen(packdir) + stem + 7)))
			err = ENOMEM;
		if (pack)
			sprintf(pack, "%s/%.*s.pack", packdir, (int)stem, idx);
		free(idx);
		/* stat(), not lstat(): git follows a link to the pack. */
		if (pack && (stat(pack, &st) || !S_ISREG(st.st_mode))) {
			free(pack);
			pack = NULL;
		}
		if (pack)
			packs->v[kept++] = pack;
	}
	packs->n = kept;
	free(packdir);
	if (err) {
		hexoid_names_free(packs);
		errno = err;
		return -1;
	}
	/* By the .pack's name, as the scans have always gone through them. */
	if (packs->n > 1)
		qsort(packs->v, packs->n, sizeof(*packs->v), hexoid_cmp_str);
	return 0;
}

char *hexoid_objdir_idx_of(const char *pack)
{
	size_t len = strlen(pack);
	size_t stem = hexoid_ends_with(pack, ".pack") ? len - 5 : len;
	char *idx = malloc(stem + 5);

	if (idx) {
		memcpy(idx, pack, stem);
		memcpy(idx + stem, ".idx", 5);
	}
	return idx;
}

/* A name of hex digits in either case, as git's loose object iteration reads them, of
 * the length asked. */
static int is_hex_name(const char *name, void *want_len)
{
	size_t len = strlen(name);

	return len == *(size_t *)want_len && hexoid_all_hex(name, len);
}

int hexoid_objdir_loose_folders(const char *objects, struct hexoid_names *folders)
{
	size_t two = 2;

	return hexoid_dir_names(objects, HEXOID_DIR_ANY, is_hex_name, &two, folders);
}

int hexoid_objdir_loose_names(const char *folder, size_t hexsz, struct hexoid_names *names)
{
	size_t want = hexsz - 2;

	return hexoid_dir_names(folder, HEXOID_DIR_ANY, is_hex_name, &want, names);
}

int hexoid_objdir_loose_ids(const char *objects, enum hexoid_algo algo, struct hexoid_oidset *ids)
{
	size_t hexsz = hexoid_hexsz(algo), rawsz = hexoid_rawsz(algo), i, k;
	struct hexoid_names folders;
	int rc = 0;

	if (hexoid_objdir_loose_folders(objects, &folders))
		return errno == ENOMEM ? -1 : 0;
	for (i = 0; i < folders.n && !rc; i++) {
		char *folder = hexoid_join(objects, folders.v[i]);
		struct hexoid_names names;
		unsigned char oid[HEXOID_MAX_RAWSZ];

		if (!folder) {
			rc = -1;
			break;
		}
		if (hexoid_objdir_loose_names(folder, hexsz, &names))
			rc = errno == ENOMEM ? -1 : 0;
		free(folder);
		/* The names are hex of the right lengths: they decode. */
		hexoid_hex_to_bytes(oid, folders.v[i], 1, HEXOID_MIXED);
		for (k = 0; k < names.n && !rc; k++) {
			hexoid_hex_to_bytes(oid + 1, names.v[k], rawsz - 1, HEXOID_MIXED);
			if (hexoid_oidset_add(ids, oid, rawsz))
				rc = -1;
		}
		hexoid_names_free(&names);
	}
	hexoid_names_free(&folders);
	return rc;
}

/* --- an object that vanished from the loose folders ------------------------------- */

struct hexoid_objdir_pidx {
	char *pack;                /* the .pack's path */
	struct pk_map map;         /* its .idx; stays readable after git deletes the file */
	struct hexoid_idx idx;
};

/* How often the pack folder is listed again for one object: each listing that meets a
 * pack deleted since (repack -a -d) may have missed the pack that replaced it. */
#define PACKED_LISTINGS 5

static int packed_has(const struct hexoid_objdir_packed *p, size_t from,
		      const unsigned char *oid, const char **pack)
{
	size_t i;

	for (i = from; i < p->n; i++)
		if (hexoid_idx_find(&p->v[i].idx, oid) >= 0) {
			if (pack)
				*pack = p->v[i].pack;
			return 1;
		}
	return 0;
}

int hexoid_objdir_packed_find(struct hexoid_objdir_packed *p, const char *objects,
			      enum hexoid_algo algo, const unsigned char *oid, const char **pack)
{
	int round;

	if (packed_has(p, 0, oid, pack))
		return 1;
	for (round = 0; round < PACKED_LISTINGS; round++) {
		struct hexoid_names packs;
		size_t i, from = p->n, k;
		int vanished = 0;

		if (hexoid_objdir_packs(objects, &packs))
			return errno == ENOMEM ? -1 : 0;
		for (i = 0; i < packs.n; i++) {
			struct hexoid_objdir_pidx *x;
			struct hexoid_idx_error ie;
			char err[8], *idx;

			for (k = 0; k < p->n && strcmp(p->v[k].pack, packs.v[i]); k++)
				;
			if (k < p->n)
				continue; /* looked in already */
			if (hexoid_grow(&p->v, &p->cap, p->n, sizeof(*p->v))) {
				hexoid_names_free(&packs);
				return -1;
			}
			x = &p->v[p->n];
			memset(x, 0, sizeof(*x));
			if (!(idx = hexoid_objdir_idx_of(packs.v[i]))) {
				hexoid_names_free(&packs);
				return -1;
			}
			if (hexoid_pk_map_file(&x->map, idx, err, sizeof(err))) {
				vanished |= errno == ENOENT;
			} else if (hexoid_idx_open(&x->idx, x->map.data, x->map.size, algo, &ie) !=
				   HEXOID_IDX_OK) {
				/* Not usable: the pack scan says so; no object is found in it. */
				hexoid_pk_unmap(&x->map);
			} else {
				x->pack = packs.v[i];
				packs.v[i] = NULL;
				p->n++;
			}
			free(idx);
		}
		hexoid_names_free(&packs);
		if (packed_has(p, from, oid, pack))
			return 1;
		if (!vanished)
			break;
	}
	return 0;
}

void hexoid_objdir_packed_free(struct hexoid_objdir_packed *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		hexoid_pk_unmap(&p->v[i].map);
		free(p->v[i].pack);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}
