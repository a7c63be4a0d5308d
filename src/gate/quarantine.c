/*
 * Which objects the push brought: the IDs in the quarantine's pack indexes, mapped, and
 * its loose objects' names. A commit among them is checked by the scan of the pushed
 * objects; the walk only notes which ref reaches it.
 *
 * hexoid_odb_open() (hexoid_pack.h) is not used for this: it answers "read this
 * object", not "is it here" (a read inflates what is found), it skips an index
 * without its pack and fails whole on one unusable pack, and it looks loose objects up
 * by their lowercase names only. Here every index counts, a bad one is said and the
 * others kept, and loose names count in either case, as Git 2.x lists them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/gate.h"

/* Map the whole file at path. 0, or -1 with errno. */
static int map_file(const char *path, struct gate_map *m)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	m->data = NULL;
	m->size = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? EISDIR : errno;
		close(fd);
		errno = err;
		return -1;
	}
	if (st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p == MAP_FAILED) {
			err = errno;
			close(fd);
			errno = err;
			return -1;
		}
		m->data = p;
		m->size = (size_t)st.st_size;
	}
	close(fd);
	return 0;
}

static void load_indexes(struct hexoid_gate *g, char *path, size_t qlen)
{
	struct gate_quarantine *q = &g->q;
	DIR *d;
	struct dirent *de;

	sprintf(path + qlen, "/pack");
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct hexoid_idx_error e;
		struct gate_map *m;
		if (len < 4 || len > 250 || strcmp(de->d_name + len - 4, ".idx"))
			continue;
		if (!(q->n & (q->n - 1))) {
			size_t cap = q->n ? 2 * q->n : 1;
			struct gate_map *maps = realloc(q->maps, cap * sizeof(*maps));
			struct hexoid_idx *idx = maps ? realloc(q->idx, cap * sizeof(*idx)) : NULL;
			if (maps)
				q->maps = maps;
			if (idx)
				q->idx = idx;
			if (!maps || !idx) {
				hexoid_gate_oom(g);
				break;
			}
		}
		sprintf(path + qlen, "/pack/%s", de->d_name);
		m = &q->maps[q->n];
		if (map_file(path, m)) {
			hexoid_gate_say(g, "%s: %s", path, strerror(errno));
			g->trouble = 1;
			continue;
		}
		if (hexoid_idx_open(&q->idx[q->n], m->data, m->size, g->algo, &e) != HEXOID_IDX_OK) {
			hexoid_gate_say(g, "pushed %s: %s", de->d_name, e.message);
			if (m->data)
				munmap(m->data, m->size);
			g->trouble = 1;
			continue;
		}
		q->n++;
	}
	closedir(d);
}

/* Loose objects: xx/yyyy..., in either case as Git 2.x reads them. */
static void load_loose(struct hexoid_gate *g, char *path, size_t qlen)
{
	DIR *d;
	struct dirent *de;

	path[qlen] = 0;
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		unsigned char oid[HEXOID_MAX_RAWSZ];
		DIR *sub;
		struct dirent *se;
		if (strlen(de->d_name) != 2 || hexoid_hex_to_bytes(oid, de->d_name, 1, HEXOID_MIXED))
			continue;
		sprintf(path + qlen, "/%s", de->d_name);
		if (!(sub = opendir(path)))
			continue;
		while ((se = readdir(sub)))
			if (strlen(se->d_name) == g->hexsz - 2 &&
			    !hexoid_hex_to_bytes(oid + 1, se->d_name, g->rawsz - 1, HEXOID_MIXED) &&
			    hexoid_oidset_add(&g->q.loose, oid, g->rawsz))
				hexoid_gate_oom(g);
		closedir(sub);
	}
	closedir(d);
	hexoid_oidset_sort(&g->q.loose);
}

void hexoid_gate_quarantine_load(struct hexoid_gate *g)
{
	size_t qlen = strlen(g->quarantine);
	char *path = malloc(qlen + 300);

	if (!path) {
		hexoid_gate_oom(g);
		return;
	}
	memcpy(path, g->quarantine, qlen + 1);
	load_indexes(g, path, qlen);
	load_loose(g, path, qlen);
	free(path);
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
		if (q->maps[i].data)
			munmap(q->maps[i].data, q->maps[i].size);
	free(q->maps);
	free(q->idx);
	hexoid_oidset_free(&q->loose);
	memset(q, 0, sizeof(*q));
}
