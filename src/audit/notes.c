/*
 * The notes (notes.h). A notes ref (refs/notes/...) names a commit whose tree holds a note for each
 * annotated object, at a path that is the object's ID in hex, perhaps fanned out into
 * folders of two digits ("ab/cdef..."), as git writes it once there are many. Git reads
 * those names as IDs (notes.c, load_subtree): the Git 3.0 build no longer finds a note
 * under a fanout folder named in uppercase (git3), but still finds one whose own name,
 * fanned out or not, is uppercase (warn). Other names are not notes, and git keeps them
 * as they are.
 *
 * SPDX-License-Identifier: MIT
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/notes.h"
#include "audit/reftable.h"
#include "hexoid_pack.h"
#include "util/dir.h"
#include "util/file.h"
#include "util/str.h"

/* A notes folder walked: its tree, at how many hex digits of the ID. */
struct walked {
	unsigned char oid[HEXOID_MAX_RAWSZ];
	size_t have;
	int used;
};

struct notes {
	struct run *r;
	const struct repo *rp;
	struct hexoid_odb *odb;
	const char *ref;
	char hex[HEXOID_MAX_HEXSZ + 1]; /* the ID so far, without the slashes */
	char path[3 * HEXOID_MAX_HEXSZ];
	int depth;
	/* The folders walked, a hash set: a notes tree is a tree of distinct folders as git
	 * writes it, but one made by hand can hold one folder under every name of every
	 * level, 256^19 paths from 19 trees. */
	struct walked *seen;
	size_t nseen, capseen;
};

/* Whether the folder (oid, have) was walked before; if not, it is now. -1: no memory. */
static int seen_before(struct notes *n, const unsigned char *oid, size_t have)
{
	size_t rawsz = hexoid_rawsz(n->rp->algo), i, h;

	if (2 * (n->nseen + 1) > n->capseen) {
		size_t cap = n->capseen ? 2 * n->capseen : 1024;
		struct walked *v = calloc(cap, sizeof(*v));
		if (!v)
			return -1;
		for (i = 0; i < n->capseen; i++) {
			if (!n->seen[i].used)
				continue;
			memcpy(&h, n->seen[i].oid, sizeof(h));
			for (h = (h ^ n->seen[i].have) & (cap - 1); v[h].used; h = (h + 1) & (cap - 1))
				;
			v[h] = n->seen[i];
		}
		free(n->seen);
		n->seen = v;
		n->capseen = cap;
	}
	memcpy(&h, oid, sizeof(h));
	for (h = (h ^ have) & (n->capseen - 1); n->seen[h].used; h = (h + 1) & (n->capseen - 1))
		if (n->seen[h].have == have && !memcmp(n->seen[h].oid, oid, rawsz))
			return 1;
	memcpy(n->seen[h].oid, oid, rawsz);
	n->seen[h].have = have;
	n->seen[h].used = 1;
	n->nseen++;
	return 0;
}

__attribute__((format(printf, 4, 5)))
static void notes_finding(struct notes *n, enum hexoid_code code, const char *path,
			  const char *fmt, ...)
{
	struct hexoid_audit_finding f;
	char msg[512], *shown;
	size_t len = strlen(n->rp->prefix) + strlen(n->ref) + strlen(path) + 2;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!(shown = malloc(len)))
		return;
	snprintf(shown, len, "%s%s%s%s", n->rp->prefix, n->ref, *path ? ":" : "", path);
	memset(&f, 0, sizeof(f));
	f.code = code;
	f.area = HEXOID_AREA_NOTES;
	f.path = shown;
	f.offset = HEXOID_NO_OFFSET;
	f.algo = n->rp->algo;
	f.message = msg;
	hexoid_audit_report(n->r, &f);
	free(shown);
}

static void notes_tree(struct notes *n, const unsigned char *oid, size_t have)
{
	struct hexoid_object obj;
	size_t hexsz = hexoid_hexsz(n->rp->algo), rawsz = hexoid_rawsz(n->rp->algo);
	size_t plen = strlen(n->path), at = 0;
	char err[256];

	if (n->r->stopped)
		return;
	if (hexoid_odb_read(n->odb, oid, &obj, err, sizeof(err)) != HEXOID_ODB_OK ||
	    obj.type != HEXOID_OBJ_TREE) {
		notes_finding(n, HEXOID_CODE_DELTA_BASE, n->path, "cannot read the notes tree: %s",
			      obj.data ? "not a tree" : err);
		hexoid_object_free(&obj);
		return;
	}
	while (at < obj.size && !n->r->stopped) {
		const char *e = (const char *)obj.data + at, *sp, *name;
		const unsigned char *entry_oid;
		size_t rest = obj.size - at, nlen;
		int is_tree;
		sp = memchr(e, ' ', rest);
		name = sp ? sp + 1 : NULL;
		if (!name || !memchr(name, 0, rest - (size_t)(name - e)))
			break;
		nlen = strlen(name);
		if ((size_t)(name - e) + nlen + 1 + rawsz > rest)
			break;
		entry_oid = (const unsigned char *)name + nlen + 1;
		at += (size_t)(name - e) + nlen + 1 + rawsz;
		is_tree = sp - e == 5 && !memcmp(e, "40000", 5);
		if (!is_tree && have + nlen == hexsz && !hexoid_all_hex(name, nlen)) {
			/* A note's shape, not a note's name: both gits keep it as some other
			 * file and show no note for it. */
			snprintf(n->path + plen, sizeof(n->path) - plen, "%s%.*s", plen ? "/" : "",
				 (int)nlen, name);
			notes_finding(n, HEXOID_CODE_BAD_ID, n->path,
				      "not hex, at a note's path: git keeps it, but as no note");
			n->path[plen] = 0;
			continue;
		}
		if (!hexoid_all_hex(name, nlen) || have + nlen > hexsz)
			continue;
		snprintf(n->path + plen, sizeof(n->path) - plen, "%s%.*s", plen ? "/" : "",
			 (int)nlen, name);
		memcpy(n->hex + have, name, nlen);
		if (have + nlen == hexsz && !is_tree) {
			struct hexoid_error he;
			n->r->audit->count[HEXOID_AREA_NOTES].scanned++;
			if (hexoid_decode(NULL, n->hex, 1, hexsz, n->rp->algo, HEXOID_LOWER, &he) !=
			    HEXOID_OK) {
				if (he.column < have)
					notes_finding(n, HEXOID_CODE_UPPERCASE_ID, n->path,
						      "uppercase hex digit '%c' in a fanout folder's name: "
						      "Git 2.x finds the note, Git 3.0 does not",
						      n->hex[he.column]);
				else
					notes_finding(n, HEXOID_CODE_UPPERCASE_ID_ACCEPTED, n->path,
						      "uppercase hex digit '%c' in the note's name: git "
						      "writes it in lowercase, the Git 3.0 build still "
						      "finds the note",
						      n->hex[he.column]);
			}
		} else if (nlen == 2 && is_tree && have + 2 < hexsz) {
			int again = seen_before(n, entry_oid, have + 2);
			if (again < 0) {
				/* The run ends as failed, saying so. */
				snprintf(n->r->err, sizeof(n->r->err), "out of memory");
				n->r->stopped = 1;
			} else if (again) {
				notes_finding(n, HEXOID_CODE_REPEATED_TREE, n->path,
					      "the same tree as a notes folder walked before: git never "
					      "writes one twice; not walked again");
			} else {
				n->depth++;
				notes_tree(n, entry_oid, have + 2);
				n->depth--;
			}
		}
		n->path[plen] = 0;
	}
	hexoid_object_free(&obj);
}

/* The notes refs: loose under refs/notes/, and in packed-refs. */
struct notes_ref {
	char *name;
	unsigned char oid[HEXOID_MAX_RAWSZ];
};

static void notes_ref_add(struct notes_ref **v, size_t *n, size_t *cap, const char *name,
			  size_t nlen, const char *hex, enum hexoid_algo algo)
{
	size_t i, hexsz = hexoid_hexsz(algo);

	for (i = 0; i < *n; i++)
		if (strlen((*v)[i].name) == nlen && !memcmp((*v)[i].name, name, nlen))
			return; /* a loose ref hides its packed one */
	if (hexoid_grow(v, cap, *n, sizeof(**v)))
		return;
	if (hexoid_decode((*v)[*n].oid, hex, 1, hexsz, algo, HEXOID_MIXED, NULL) != HEXOID_OK)
		return; /* the refs areas report it */
	if (((*v)[*n].name = strndup(name, nlen)))
		(*n)++;
}

/* Not a hidden file, nor git's work in progress. */
static int is_loose_ref(const char *name, void *ctx)
{
	(void)ctx;
	return name[0] != '.' && !hexoid_ends_with(name, ".lock");
}

static void notes_loose(const char *dir, const char *rel, struct notes_ref **v, size_t *n,
			size_t *cap, enum hexoid_algo algo)
{
	char *full = hexoid_join(dir, rel);
	struct hexoid_names list = { NULL, 0 };
	size_t i;

	if (full)
		hexoid_dir_names(full, HEXOID_DIR_ANY, is_loose_ref, NULL, &list);
	for (i = 0; i < list.n; i++) {
		char *name = hexoid_join(rel, list.v[i]), *path = name ? hexoid_join(dir, name) : NULL;
		char *line;
		struct stat st;
		if (path && lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			notes_loose(dir, name, v, n, cap, algo);
		} else if (path && S_ISREG(st.st_mode) && (line = hexoid_file_first_line(path))) {
			if (strlen(line) >= hexoid_hexsz(algo))
				notes_ref_add(v, n, cap, name, strlen(name), line, algo);
			free(line);
		}
		free(path);
		free(name);
	}
	hexoid_names_free(&list);
	free(full);
}

static int cmp_notes_ref(const void *x, const void *y)
{
	return strcmp(((const struct notes_ref *)x)->name, ((const struct notes_ref *)y)->name);
}

void hexoid_audit_notes(struct run *r, const struct repo *rp)
{
	struct hexoid_odb_options oo = HEXOID_ODB_OPTIONS_INIT;
	struct notes_ref *v = NULL;
	size_t n = 0, cap = 0, i, hexsz = hexoid_hexsz(rp->algo);
	char *packed = hexoid_join(rp->dir, "packed-refs"), *objects = hexoid_join(rp->dir, "objects");
	char err[512];
	struct notes nt;
	int fd;

	if (!packed || !objects)
		goto out;
	if (rp->reftable) {
		struct rt_ref *t;
		size_t nrt;
		if (hexoid_reftable_refs(rp->dir, "refs/notes/", rp->algo, &t, &nrt, err, sizeof(err))) {
			hexoid_audit_reftable_error(r, HEXOID_AREA_NOTES, &rp->wheres[0], err);
			goto out;
		}
		for (i = 0; i < nrt; i++) {
			if ((t[i].type == 1 || t[i].type == 2) && !hexoid_grow(&v, &cap, n, sizeof(*v))) {
				memcpy(v[n].oid, t[i].oid, sizeof(v[n].oid));
				v[n].name = t[i].name;
				t[i].name = NULL;
				n++;
			}
		}
		hexoid_reftable_free(t, nrt);
	}
	fd = rp->reftable ? -1 : open(packed, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (!rp->reftable)
		notes_loose(rp->dir, "refs/notes", &v, &n, &cap, rp->algo);
	if (fd >= 0) {
		struct stat st;
		char *data;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (data = malloc((size_t)st.st_size + 1))) {
			ssize_t got = read(fd, data, (size_t)st.st_size);
			struct hexoid_lines it = { data, got > 0 ? (size_t)got : 0, 0, 0, '\n' };
			const char *p;
			size_t len;
			while (hexoid_next_line(&it, &p, &len))
				if (len > hexsz + 12 && p[hexsz] == ' ' &&
				    !memcmp(p + hexsz + 1, "refs/notes/", 11))
					notes_ref_add(&v, &n, &cap, p + hexsz + 1, len - hexsz - 1, p,
						      rp->algo);
			free(data);
		}
		close(fd);
	}
	if (!n)
		goto out;
	qsort(v, n, sizeof(*v), cmp_notes_ref);
	oo.algo = rp->algo;
	/* A fork's notes (clone --shared, a forge's fork network) live in the objects git
	 * borrows through objects/info/alternates: read there as git reads them. */
	oo.flags = HEXOID_ODB_ALTERNATES;
	memset(&nt, 0, sizeof(nt));
	nt.r = r;
	nt.rp = rp;
	nt.odb = hexoid_odb_open(objects, &oo, err, sizeof(err));
	if (!nt.odb) {
		nt.ref = v[0].name;
		notes_finding(&nt, HEXOID_CODE_UNREADABLE, "", "notes not read: %s", err);
		goto out;
	}
	for (i = 0; i < n && !hexoid_audit_stop(r); i++) {
		struct hexoid_object c;
		unsigned char tree[HEXOID_MAX_RAWSZ];
		nt.ref = v[i].name;
		if (hexoid_odb_read(nt.odb, v[i].oid, &c, err, sizeof(err)) != HEXOID_ODB_OK ||
		    c.type != HEXOID_OBJ_COMMIT || c.size < 5 + hexsz ||
		    memcmp(c.data, "tree ", 5) ||
		    hexoid_decode(tree, (const char *)c.data + 5, 1, hexsz, rp->algo, HEXOID_MIXED,
				  NULL) != HEXOID_OK) {
			notes_finding(&nt, HEXOID_CODE_DELTA_BASE, "", "cannot read the notes commit: %s",
				      c.data ? "not a commit with a tree" : err);
			hexoid_object_free(&c);
			continue;
		}
		hexoid_object_free(&c);
		nt.path[0] = 0;
		nt.depth = 0;
		nt.nseen = 0;
		if (nt.seen)
			memset(nt.seen, 0, nt.capseen * sizeof(*nt.seen));
		notes_tree(&nt, tree, 0);
	}
	free(nt.seen);
	hexoid_odb_close(nt.odb);
out:
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(packed);
	free(objects);
}

