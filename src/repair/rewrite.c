/*
 * The history rewrite (rewrite.h).
 *
 * The walk starts at every ref, HEAD and each linked worktree's HEAD, as git names them,
 * and goes through parents (and a tag's object) in post-order with a stack of its own:
 * a history is as deep as it is long. An object is written again when one of its
 * headers' IDs has an uppercase digit, or when something it names was written again;
 * then its tree and parent lines (a tag's object line, a mergetag's object line) are
 * lowercased or given the new IDs, and every other byte kept. So a commit whose only
 * change is its lowercased headers gets exactly the ID of its lowercase twin, and a
 * history rewritten twice comes out the same. Trees and blobs never change: their IDs
 * are binary.
 *
 * A signature signs the bytes it came with: a commit's gpgsig header, a tag's signature
 * at the end of its message. Written again, they would be wrong; so they are dropped
 * when the caller asks, and otherwise the rewrite is not done at all.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "hexoid_pack.h"
#include "pack/common.h"
#include "repair/rewrite.h"
#include "util/child.h"
#include "util/oidset.h"
#include "util/str.h"

enum { N_NEW = 1, N_EXPANDED, N_DONE };

struct node {
	unsigned char oid[HEXOID_MAX_RAWSZ];
	unsigned char new_oid[HEXOID_MAX_RAWSZ];
	unsigned char state, type, rewritten, bad;
	uint32_t dep, ndeps;       /* its parents (or a tag's object) in rw->deps */
	unsigned char *data;       /* its content, between expanding and writing */
	size_t size;
};

struct rewrite {
	char *gitdir, *git;
	enum hexoid_algo algo;
	size_t rawsz, hexsz;
	int drop;
	struct hexoid_odb *odb;
	struct node *nodes;
	size_t nnodes, capnodes;
	uint32_t *table;            /* open addressing: node index + 1, 0 empty */
	size_t tsize;
	uint32_t *deps;
	size_t ndeps, capdeps;
	/* The pack being built: 12 bytes of header kept for the end. */
	unsigned char *pack;
	size_t packlen, packcap;
	uint32_t count;
	struct rewrite_plan plan;
	size_t caprefs, capsigned;
	/* The notes refs, for copying notes. */
	char **notes;
	size_t nnotes;
};

/* --- running git ------------------------------------------------------------------ */

/* The command line "git --git-dir=DIR args..." into argv (16 entries), the --git-dir
 * argument written into dirarg. */
#define GIT_ARGV_MAX 16
static void git_argv(const struct rewrite *rw, const char *const *args, const char **argv,
		     char *dirarg, size_t dirlen)
{
	size_t n = 0;

	argv[n++] = rw->git;
	snprintf(dirarg, dirlen, "--git-dir=%s", rw->gitdir);
	argv[n++] = dirarg;
	while (*args && n < GIT_ARGV_MAX - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
}

/* git --git-dir=DIR args...: its whole stdout (NULL when it could not run or failed,
 * with err). */
static char *git_out(struct rewrite *rw, const char *const *args, char *err, size_t errlen)
{
	const char *argv[GIT_ARGV_MAX];
	char dirarg[4200];
	int status, sig;
	char *out;

	git_argv(rw, args, argv, dirarg, sizeof(dirarg));
	out = hexoid_child_capture((char *const *)argv, NULL, &status, &sig);
	if (!out || status != 0) {
		snprintf(err, errlen, "%s %s failed%s", rw->git, argv[2],
			 !out ? ": cannot run it" : "");
		free(out);
		return NULL;
	}
	return out;
}

/* Feed `in` to git --git-dir=DIR args... and wait: 0, or -1 with err. */
static int git_in(struct rewrite *rw, const char *const *args, char *const *envp, const void *in,
		  size_t len, char *err, size_t errlen)
{
	const char *argv[GIT_ARGV_MAX];
	char dirarg[4200];
	struct hexoid_sigpipe sp;
	const unsigned char *p = in;
	int to, from, status, sig, werr = 0;
	char sink[4096];
	pid_t pid;

	git_argv(rw, args, argv, dirarg, sizeof(dirarg));
	if ((pid = hexoid_child_spawn((char *const *)argv, envp, &to, &from)) < 0) {
		snprintf(err, errlen, "cannot run %s: %s", rw->git, strerror(errno));
		return -1;
	}
	hexoid_sigpipe_block(&sp);
	while (len) {
		ssize_t w = write(to, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			werr = errno;
			break;
		}
		p += w;
		len -= (size_t)w;
	}
	close(to);
	hexoid_sigpipe_restore(&sp);
	/* What git says on stdout (index-pack's pack name) is not ours to print. */
	while (read(from, sink, sizeof(sink)) > 0 || errno == EINTR)
		;
	close(from);
	status = hexoid_child_wait(pid, &sig);
	if (status != 0 || werr) {
		snprintf(err, errlen, "%s %s failed", rw->git, argv[2]);
		return -1;
	}
	return 0;
}

/* --- the nodes -------------------------------------------------------------------- */

static size_t slot_of(const struct rewrite *rw, const unsigned char *oid)
{
	uint64_t h;
	memcpy(&h, oid, sizeof(h));
	return (size_t)(h & (rw->tsize - 1));
}

static int grow_table(struct rewrite *rw)
{
	size_t size = rw->tsize ? 2 * rw->tsize : 1024, i;
	uint32_t *t = calloc(size, sizeof(*t));

	if (!t)
		return -1;
	free(rw->table);
	rw->table = t;
	rw->tsize = size;
	for (i = 0; i < rw->nnodes; i++) {
		size_t s = slot_of(rw, rw->nodes[i].oid);
		while (t[s])
			s = (s + 1) & (size - 1);
		t[s] = (uint32_t)i + 1;
	}
	return 0;
}

/* The node of oid; with `add`, made when there is none. -1 when there is none (or no
 * memory). */
static long node_of(struct rewrite *rw, const unsigned char *oid, int add)
{
	size_t s;
	struct node *nd;

	if (rw->tsize) {
		for (s = slot_of(rw, oid); rw->table[s]; s = (s + 1) & (rw->tsize - 1))
			if (!memcmp(rw->nodes[rw->table[s] - 1].oid, oid, rw->rawsz))
				return (long)rw->table[s] - 1;
	}
	if (!add)
		return -1;
	if ((2 * (rw->nnodes + 1) > rw->tsize && grow_table(rw)) ||
	    hexoid_grow(&rw->nodes, &rw->capnodes, rw->nnodes, sizeof(*rw->nodes)))
		return -1;
	nd = &rw->nodes[rw->nnodes];
	memset(nd, 0, sizeof(*nd));
	memcpy(nd->oid, oid, rw->rawsz);
	nd->state = N_NEW;
	for (s = slot_of(rw, oid); rw->table[s]; s = (s + 1) & (rw->tsize - 1))
		;
	rw->table[s] = (uint32_t)rw->nnodes + 1;
	return (long)rw->nnodes++;
}

int hexoid_rewrite_has(const struct rewrite *rw, const unsigned char *oid)
{
	long i = node_of((struct rewrite *)rw, oid, 0);
	return i >= 0 && rw->nodes[i].rewritten;
}

/* --- reading headers ---------------------------------------------------------------- */

/* The header line starting at p (up to end): its length without the newline. */
static size_t line_len(const unsigned char *p, const unsigned char *end)
{
	const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

static int has_upper(const unsigned char *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (p[i] >= 'A' && p[i] <= 'F')
			return 1;
	return 0;
}

/* Whether line (len bytes) is "<key> <id>" with an ID of this hash, in either case;
 * the ID's start in *id. */
static int id_line(const struct rewrite *rw, const unsigned char *line, size_t len, const char *key,
		   const unsigned char **id)
{
	size_t k = strlen(key);

	if (len != k + 1 + rw->hexsz || memcmp(line, key, k) || line[k] != ' ' ||
	    !hexoid_all_hex((const char *)line + k + 1, rw->hexsz))
		return 0;
	*id = line + k + 1;
	return 1;
}

/* Where a tag's message has its signature, or NULL. */
static const unsigned char *tag_signature(const unsigned char *msg, const unsigned char *end)
{
	static const char *const heads[] = { "-----BEGIN PGP SIGNATURE-----",
					     "-----BEGIN PGP MESSAGE-----",
					     "-----BEGIN SSH SIGNATURE-----",
					     "-----BEGIN SIGNED MESSAGE-----" };
	const unsigned char *p;
	size_t i;

	for (p = msg; p < end; p += line_len(p, end) + 1)
		for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
			if ((size_t)(end - p) >= strlen(heads[i]) && !memcmp(p, heads[i], strlen(heads[i])))
				return p;
	return NULL;
}

/* The end of the headers (the blank line's start), or the end of the object. */
static const unsigned char *headers_end(const unsigned char *p, const unsigned char *end)
{
	while (p < end && *p != '\n')
		p += line_len(p, end) + 1;
	return p < end ? p : end;
}

/* Read the node's object and list what it names: a commit's parents, a tag's object
 * when it is a commit or tag. 0, or -1 with err. */
static int expand(struct rewrite *rw, long i, char *err, size_t errlen)
{
	struct hexoid_object obj;
	const unsigned char *p, *end, *hend, *id;
	enum hexoid_odb_status st;
	char why[256];

	st = hexoid_odb_read(rw->odb, rw->nodes[i].oid, &obj, why, sizeof(why));
	if (st != HEXOID_ODB_OK) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	rw->nodes[i].type = (unsigned char)obj.type;
	rw->nodes[i].state = N_EXPANDED;
	rw->nodes[i].dep = (uint32_t)rw->ndeps;
	if (obj.type != HEXOID_OBJ_COMMIT && obj.type != HEXOID_OBJ_TAG) {
		hexoid_object_free(&obj);
		return 0;
	}
	rw->nodes[i].data = obj.data;
	rw->nodes[i].size = obj.size;
	end = obj.data + obj.size;
	hend = headers_end(obj.data, end);
	for (p = obj.data; p < hend; p += line_len(p, hend) + 1) {
		size_t len = line_len(p, hend);
		int dep = 0;
		unsigned char oid[HEXOID_MAX_RAWSZ];
		if (id_line(rw, p, len, "tree", &id)) {
			rw->nodes[i].bad |= has_upper(id, rw->hexsz);
		} else if (id_line(rw, p, len, "parent", &id) && obj.type == HEXOID_OBJ_COMMIT) {
			rw->nodes[i].bad |= has_upper(id, rw->hexsz);
			dep = 1;
		} else if (id_line(rw, p, len, "object", &id) && obj.type == HEXOID_OBJ_TAG) {
			const unsigned char *t = p + len + 1;
			rw->nodes[i].bad |= has_upper(id, rw->hexsz);
			/* Only a commit or tag can change: the type line says which. */
			dep = t < hend && (!strncmp((const char *)t, "type commit\n", 12) ||
					   !strncmp((const char *)t, "type tag\n", 9));
		} else if (id_line(rw, p, len, "mergetag object", &id)) {
			rw->nodes[i].bad |= has_upper(id, rw->hexsz);
		}
		if (dep) {
			long d;
			if (hexoid_decode(oid, (const char *)id, 1, rw->hexsz, rw->algo, HEXOID_MIXED, NULL) != HEXOID_OK ||
			    (d = node_of(rw, oid, 1)) < 0 ||
			    hexoid_grow(&rw->deps, &rw->capdeps, rw->ndeps, sizeof(*rw->deps))) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			rw->deps[rw->ndeps++] = (uint32_t)d;
			rw->nodes[i].ndeps++;
		}
	}
	return 0;
}

/* --- writing objects ----------------------------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t len, cap;
	int oom;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		unsigned char *np;
		while (cap < b->len + n)
			cap *= 2;
		if (!(np = realloc(b->p, cap))) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* An ID's text for the new object: the new ID of what it names, if that was written
 * again; else the same ID in lowercase. */
static void put_id(struct rewrite *rw, struct buf *b, const unsigned char *id)
{
	unsigned char oid[HEXOID_MAX_RAWSZ];
	char hex[HEXOID_MAX_HEXSZ];
	long d;
	size_t k;

	if (hexoid_decode(oid, (const char *)id, 1, rw->hexsz, rw->algo, HEXOID_MIXED, NULL) == HEXOID_OK &&
	    (d = node_of(rw, oid, 0)) >= 0 && rw->nodes[d].rewritten) {
		hexoid_encode(hex, rw->hexsz, rw->nodes[d].new_oid, 1, rw->algo);
	} else {
		for (k = 0; k < rw->hexsz; k++)
			hex[k] = (char)(id[k] >= 'A' && id[k] <= 'F' ? id[k] + ('a' - 'A') : id[k]);
	}
	put(b, hex, rw->hexsz);
}

/* The node's new content into b: every byte kept but the IDs of its headers (and, when
 * dropping them, its signature). */
static void new_content(struct rewrite *rw, const struct node *nd, struct buf *b)
{
	const unsigned char *p = nd->data, *end = nd->data + nd->size, *hend = headers_end(p, end), *id;
	const unsigned char *msg_end = end;
	int in_sig = 0;

	while (p < hend) {
		size_t len = line_len(p, hend);
		/* A gpgsig header and its continuation lines (starting with a space). */
		if (in_sig && len && *p == ' ') {
			p += len + 1;
			continue;
		}
		in_sig = 0;
		if (rw->drop && nd->type == HEXOID_OBJ_COMMIT &&
		    ((len > 7 && !memcmp(p, "gpgsig ", 7)) || (len > 14 && !memcmp(p, "gpgsig-sha256 ", 14)))) {
			in_sig = 1;
			p += len + 1;
			continue;
		}
		if (id_line(rw, p, len, "tree", &id) || (nd->type == HEXOID_OBJ_COMMIT && id_line(rw, p, len, "parent", &id)) ||
		    (nd->type == HEXOID_OBJ_TAG && id_line(rw, p, len, "object", &id)) ||
		    id_line(rw, p, len, "mergetag object", &id)) {
			put(b, p, (size_t)(id - p));
			put_id(rw, b, id);
			put(b, id + rw->hexsz, (size_t)(p + len - id - rw->hexsz));
		} else {
			put(b, p, len);
		}
		if (p + len < end)
			put(b, "\n", 1);
		p += len + 1;
	}
	if (p > end)
		return;
	if (rw->drop && nd->type == HEXOID_OBJ_TAG) {
		const unsigned char *sig = tag_signature(p, end);
		if (sig)
			msg_end = sig;
	}
	put(b, p, (size_t)(msg_end - p));
}

/* Whether the node carries a signature its new bytes would break. */
static int is_signed(const struct rewrite *rw, const struct node *nd)
{
	const unsigned char *p = nd->data, *end = nd->data + nd->size, *hend = headers_end(p, end);

	if (nd->type == HEXOID_OBJ_TAG)
		return hend < end && tag_signature(hend, end) != NULL;
	for (; p < hend; p += line_len(p, hend) + 1)
		if ((size_t)(hend - p) > 7 && (!memcmp(p, "gpgsig ", 7) || !memcmp(p, "gpgsig-sha256 ", 14)))
			return 1;
	(void)rw;
	return 0;
}

/* One object into the pack: its type and size, then its content deflated. */
static int pack_add(struct rewrite *rw, enum hexoid_object_type type, const unsigned char *data,
		    size_t size)
{
	struct buf b = { rw->pack, rw->packlen, rw->packcap, 0 };
	unsigned char head[16];
	size_t n = 0, s = size;
	uLongf zlen = compressBound((uLong)size);

	head[n] = (unsigned char)((type << 4) | (s & 15));
	s >>= 4;
	while (s) {
		head[n++] |= 0x80;
		head[n] = (unsigned char)(s & 127);
		s >>= 7;
	}
	n++;
	put(&b, head, n);
	if (!b.oom && b.len + zlen > b.cap) {
		size_t need = b.len + zlen;
		unsigned char *np = realloc(b.p, need * 2);
		if (!np)
			b.oom = 1;
		else
			b.p = np, b.cap = need * 2;
	}
	if (!b.oom && compress2(b.p + b.len, &zlen, data, (uLong)size, Z_DEFAULT_COMPRESSION) != Z_OK)
		b.oom = 1;
	if (!b.oom)
		b.len += zlen;
	rw->pack = b.p;
	rw->packlen = b.len;
	rw->packcap = b.cap;
	rw->count++;
	return b.oom ? -1 : 0;
}

/* The node, all it names done: written again when needed. */
static int finish(struct rewrite *rw, long i, char *err, size_t errlen)
{
	struct node *nd = &rw->nodes[i];
	uint32_t k;
	int needed = nd->bad;
	struct buf b = { NULL, 0, 0, 0 };

	for (k = 0; k < nd->ndeps; k++)
		needed |= rw->nodes[rw->deps[nd->dep + k]].rewritten;
	nd = &rw->nodes[i];
	nd->state = N_DONE;
	if (!needed || !nd->data)
		goto out;
	nd->rewritten = 1;
	if (is_signed(rw, nd) && !rw->drop) {
		struct rewrite_signed *sg;
		if (hexoid_grow(&rw->plan.signed_objs, &rw->capsigned, rw->plan.nsigned, sizeof(*sg)))
			goto oom;
		sg = &rw->plan.signed_objs[rw->plan.nsigned++];
		memcpy(sg->oid, nd->oid, sizeof(sg->oid));
		sg->tag = nd->type == HEXOID_OBJ_TAG;
	}
	new_content(rw, nd, &b);
	if (b.oom || hexoid_pk_object_id(rw->algo, (enum hexoid_object_type)nd->type, b.p, b.len, nd->new_oid) ||
	    pack_add(rw, (enum hexoid_object_type)nd->type, b.p, b.len))
		goto oom;
	if (nd->type == HEXOID_OBJ_COMMIT)
		rw->plan.commits++;
	else
		rw->plan.tags++;
out:
	free(b.p);
	free(nd->data);
	nd->data = NULL;
	return 0;
oom:
	free(b.p);
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Everything tip reaches, in post-order. */
static int walk(struct rewrite *rw, const unsigned char *tip, char *err, size_t errlen)
{
	uint32_t *stack = NULL;
	size_t n = 0, cap = 0;
	long t = node_of(rw, tip, 1);
	int ret = 0;

	if (t < 0 || hexoid_grow(&stack, &cap, 0, sizeof(*stack)))
		goto oom;
	stack[n++] = (uint32_t)t;
	while (n && !ret) {
		long i = stack[n - 1];
		if (rw->nodes[i].state == N_DONE) {
			n--;
		} else if (rw->nodes[i].state == N_NEW) {
			uint32_t k;
			if (expand(rw, i, err, errlen)) {
				ret = -1;
				break;
			}
			for (k = 0; k < rw->nodes[i].ndeps; k++) {
				uint32_t d = rw->deps[rw->nodes[i].dep + k];
				if (rw->nodes[d].state == N_EXPANDED) {
					/* Only a hash collision or a damaged repository makes a cycle. */
					snprintf(err, errlen, "a cycle in the history");
					ret = -1;
					break;
				}
				if (rw->nodes[d].state == N_NEW) {
					if (hexoid_grow(&stack, &cap, n, sizeof(*stack)))
						goto oom;
					stack[n++] = d;
				}
			}
		} else {
			ret = finish(rw, i, err, errlen);
			n--;
		}
	}
	free(stack);
	return ret;
oom:
	free(stack);
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* --- the refs ----------------------------------------------------------------------- */

static int add_ref(struct rewrite *rw, const char *name, const char *worktree,
		   const unsigned char *oid)
{
	struct rewrite_ref *r;
	long i = node_of(rw, oid, 0);

	if (i < 0 || !rw->nodes[i].rewritten)
		return 0;
	if (hexoid_grow(&rw->plan.refs, &rw->caprefs, rw->plan.nrefs, sizeof(*r)))
		return -1;
	r = &rw->plan.refs[rw->plan.nrefs];
	memset(r, 0, sizeof(*r));
	if (!(r->name = strdup(name)) || (worktree && !(r->worktree = strdup(worktree)))) {
		free(r->name);
		return -1;
	}
	memcpy(r->old_oid, oid, rw->rawsz);
	memcpy(r->new_oid, rw->nodes[i].new_oid, rw->rawsz);
	rw->plan.nrefs++;
	return 0;
}

/* Each "<hex> <rest>" line of text: its ID decoded, walked, and the rest handed on. */
struct tip {
	unsigned char oid[HEXOID_MAX_RAWSZ];
	char *name, *worktree;
};

struct rewrite *hexoid_rewrite_plan(const char *gitdir, enum hexoid_algo algo, const char *git,
				    int drop_signatures, struct rewrite_plan **plan, char *err,
				    size_t errlen)
{
	static const char *const refs_args[] = { "for-each-ref", "--format=%(objectname) %(refname)", NULL };
	static const char *const head_args[] = { "rev-parse", "-q", "--verify", "HEAD", NULL };
	static const char *const sym_args[] = { "symbolic-ref", "-q", "HEAD", NULL };
	static const char *const wt_args[] = { "worktree", "list", "--porcelain", NULL };
	struct hexoid_odb_options oo = HEXOID_ODB_OPTIONS_INIT;
	struct rewrite *rw = calloc(1, sizeof(*rw));
	struct tip *tips = NULL;
	size_t ntips = 0, captips = 0, i;
	char *refs = NULL, *head = NULL, *sym, *wts = NULL, *objects = NULL, *line, *save = NULL;

	if (!rw || !(rw->gitdir = strdup(gitdir)) || !(rw->git = strdup(git ? git : "git")) ||
	    !(objects = hexoid_join(gitdir, "objects")))
		goto oom;
	rw->algo = algo;
	rw->rawsz = hexoid_rawsz(algo);
	rw->hexsz = hexoid_hexsz(algo);
	rw->drop = drop_signatures;
	oo.algo = algo;
	oo.flags = HEXOID_ODB_ALTERNATES;
	if (!(rw->odb = hexoid_odb_open(objects, &oo, err, errlen)))
		goto fail;
	if (!(refs = git_out(rw, refs_args, err, errlen)))
		goto fail;
	/* HEAD when it is detached: a symbolic HEAD moves with its branch. */
	sym = git_out(rw, sym_args, err, errlen);
	if (!sym && (head = git_out(rw, head_args, err, errlen))) {
		size_t len = strlen(head);
		while (len && head[len - 1] == '\n')
			head[--len] = 0;
		if (hexoid_grow(&tips, &captips, ntips, sizeof(*tips)))
			goto oom;
		memset(&tips[ntips], 0, sizeof(*tips));
		if (len != rw->hexsz || hexoid_decode(tips[ntips].oid, head, 1, rw->hexsz, algo, HEXOID_MIXED, NULL) ||
		    !(tips[ntips].name = strdup("HEAD")))
			goto oom;
		ntips++;
	}
	free(sym);
	for (line = strtok_r(refs, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) < rw->hexsz + 2 || line[rw->hexsz] != ' ')
			continue;
		if (hexoid_grow(&tips, &captips, ntips, sizeof(*tips)))
			goto oom;
		memset(&tips[ntips], 0, sizeof(*tips));
		if (hexoid_decode(tips[ntips].oid, line, 1, rw->hexsz, algo, HEXOID_MIXED, NULL) ||
		    !(tips[ntips].name = strdup(line + rw->hexsz + 1)))
			continue;
		if (!strncmp(tips[ntips].name, "refs/notes/", 11)) {
			char **v = realloc(rw->notes, (rw->nnotes + 1) * sizeof(*v));
			if (!v || !(v[rw->nnotes] = strdup(tips[ntips].name)))
				goto oom;
			rw->notes = v;
			rw->nnotes++;
		}
		ntips++;
	}
	/* Each linked worktree's detached HEAD. */
	if ((wts = git_out(rw, wt_args, err, errlen))) {
		char *path = NULL, *hd = NULL;
		unsigned block = 0;
		save = NULL;
		for (line = strtok_r(wts, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(line, "worktree ", 9)) {
				path = line + 9;
				hd = NULL;
				block++;
			} else if (!strncmp(line, "HEAD ", 5)) {
				hd = line + 5;
			} else if (!strcmp(line, "detached") && path && hd && block > 1) {
				/* The first block is the main worktree: its HEAD is done above. */
				if (hexoid_grow(&tips, &captips, ntips, sizeof(*tips)))
					goto oom;
				memset(&tips[ntips], 0, sizeof(*tips));
				if (strlen(hd) != rw->hexsz ||
				    hexoid_decode(tips[ntips].oid, hd, 1, rw->hexsz, algo, HEXOID_MIXED, NULL) ||
				    !(tips[ntips].name = strdup("HEAD")) || !(tips[ntips].worktree = strdup(path)))
					continue;
				ntips++;
			}
		}
	}
	err[0] = 0;
	for (i = 0; i < ntips; i++)
		if (walk(rw, tips[i].oid, err, errlen))
			goto fail;
	for (i = 0; i < ntips; i++)
		if (add_ref(rw, tips[i].name, tips[i].worktree, tips[i].oid))
			goto oom;
	*plan = &rw->plan;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	hexoid_rewrite_free(rw);
	rw = NULL;
out:
	for (i = 0; i < ntips; i++) {
		free(tips[i].name);
		free(tips[i].worktree);
	}
	free(tips);
	free(refs);
	free(head);
	free(wts);
	free(objects);
	return rw;
}

/* --- doing it ----------------------------------------------------------------------- */

int hexoid_rewrite_write_objects(struct rewrite *rw, char *err, size_t errlen)
{
	static const char *const args[] = { "index-pack", "--stdin", NULL };
	unsigned char *pack, sum[HEXOID_MAX_RAWSZ];
	size_t len = 12 + rw->packlen + rw->rawsz;
	int ret;

	if (!rw->count)
		return 0;
	if (!(pack = malloc(len))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(pack, "PACK", 4);
	pack[4] = 0, pack[5] = 0, pack[6] = 0, pack[7] = 2;
	pack[8] = (unsigned char)(rw->count >> 24);
	pack[9] = (unsigned char)(rw->count >> 16);
	pack[10] = (unsigned char)(rw->count >> 8);
	pack[11] = (unsigned char)rw->count;
	memcpy(pack + 12, rw->pack, rw->packlen);
	if (hexoid_pk_digest(rw->algo, pack, 12 + rw->packlen, sum)) {
		free(pack);
		snprintf(err, errlen, "cannot hash the pack");
		return -1;
	}
	memcpy(pack + 12 + rw->packlen, sum, rw->rawsz);
	ret = git_in(rw, args, NULL, pack, len, err, errlen);
	free(pack);
	return ret;
}

int hexoid_rewrite_map_text(const struct rewrite *rw, char **text, size_t *len)
{
	size_t i, n = 0;
	char *t = malloc(rw->count * (2 * rw->hexsz + 2) + 1);

	if (!t)
		return -1;
	for (i = 0; i < rw->nnodes; i++) {
		const struct node *nd = &rw->nodes[i];
		if (!nd->rewritten)
			continue;
		hexoid_encode(t + n, rw->hexsz, nd->oid, 1, rw->algo);
		t[n + rw->hexsz] = ' ';
		hexoid_encode(t + n + rw->hexsz + 1, rw->hexsz, nd->new_oid, 1, rw->algo);
		t[n + 2 * rw->hexsz + 1] = '\n';
		n += 2 * rw->hexsz + 2;
	}
	t[n] = 0;
	*text = t;
	*len = n;
	return 0;
}

int hexoid_rewrite_move_refs(struct rewrite *rw, int replace_refs, char *err, size_t errlen)
{
	static const char *const args[] = { "update-ref", "-m", "hexoid repair --rewrite-history", "--stdin",
					    NULL };
	struct buf b = { NULL, 0, 0, 0 };
	char o[HEXOID_MAX_HEXSZ + 1], nw[HEXOID_MAX_HEXSZ + 1];
	size_t i;
	int ret = 0;

	o[rw->hexsz] = nw[rw->hexsz] = 0;
	for (i = 0; i < rw->plan.nrefs; i++) {
		const struct rewrite_ref *r = &rw->plan.refs[i];
		if (r->worktree)
			continue;
		hexoid_encode(o, rw->hexsz, r->old_oid, 1, rw->algo);
		hexoid_encode(nw, rw->hexsz, r->new_oid, 1, rw->algo);
		if (!strcmp(r->name, "HEAD"))
			put(&b, "option no-deref\n", 16);
		put(&b, "update ", 7);
		put(&b, r->name, strlen(r->name));
		put(&b, " ", 1);
		put(&b, nw, rw->hexsz);
		put(&b, " ", 1);
		put(&b, o, rw->hexsz);
		put(&b, "\n", 1);
	}
	if (replace_refs) {
		for (i = 0; i < rw->nnodes; i++) {
			if (!rw->nodes[i].rewritten)
				continue;
			hexoid_encode(o, rw->hexsz, rw->nodes[i].oid, 1, rw->algo);
			hexoid_encode(nw, rw->hexsz, rw->nodes[i].new_oid, 1, rw->algo);
			put(&b, "create refs/replace/", 20);
			put(&b, o, rw->hexsz);
			put(&b, " ", 1);
			put(&b, nw, rw->hexsz);
			put(&b, "\n", 1);
		}
	}
	if (b.oom) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	} else if (b.len) {
		ret = git_in(rw, args, NULL, b.p, b.len, err, errlen);
	}
	free(b.p);
	/* A linked worktree's detached HEAD: its own, in its own git directory. */
	for (i = 0; !ret && i < rw->plan.nrefs; i++) {
		const struct rewrite_ref *r = &rw->plan.refs[i];
		const char *argv[12];
		int status, sig;
		char *out;
		if (!r->worktree)
			continue;
		hexoid_encode(o, rw->hexsz, r->old_oid, 1, rw->algo);
		hexoid_encode(nw, rw->hexsz, r->new_oid, 1, rw->algo);
		argv[0] = rw->git, argv[1] = "-C", argv[2] = r->worktree, argv[3] = "update-ref";
		argv[4] = "--no-deref", argv[5] = "-m", argv[6] = "hexoid repair --rewrite-history";
		argv[7] = "HEAD", argv[8] = nw, argv[9] = o, argv[10] = NULL;
		out = hexoid_child_capture((char *const *)argv, NULL, &status, &sig);
		free(out);
		if (!out || status) {
			snprintf(err, errlen, "%s: git update-ref HEAD failed", r->worktree);
			ret = -1;
		}
	}
	return ret;
}

/* qsort_r() of map lines by their new ID, then their old one; ctx: the hex length. */
static int by_new_id(const void *a, const void *b, void *ctx)
{
	size_t hexsz = *(const size_t *)ctx;
	int c = memcmp((const char *)a + hexsz + 1, (const char *)b + hexsz + 1, hexsz);
	return c ? c : memcmp(a, b, hexsz);
}

int hexoid_rewrite_copy_notes(struct rewrite *rw, char *err, size_t errlen)
{
	char *text;
	size_t len, i;
	int ret = 0;

	/* A notes commit needs an author and committer: where git knows of none (a
	 * server's account often has no user.name), it is tried again named for what
	 * made it. */
	static const char *const ident[] = { "GIT_AUTHOR_NAME=hexoid repair",
					     "GIT_AUTHOR_EMAIL=hexoid-repair@localhost",
					     "GIT_COMMITTER_NAME=hexoid repair",
					     "GIT_COMMITTER_EMAIL=hexoid-repair@localhost", NULL };
	char **envp = NULL;

	if (!rw->nnotes)
		return 0;
	if (hexoid_rewrite_map_text(rw, &text, &len)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Two old objects can become one (the same commit, signed and not): git notes copy
	 * refuses a second note for it, so one pair for each new ID is kept: the lines
	 * sorted by their new ID, the smallest old ID's kept. */
	{
		size_t step = 2 * rw->hexsz + 2, n = len / step, k, out = 0;
		char *sorted = malloc(len ? len : 1);
		if (!sorted) {
			free(text);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memcpy(sorted, text, len);
		qsort_r(sorted, n, step, by_new_id, &rw->hexsz);
		for (k = 0; k < n; k++) {
			if (k && !memcmp(sorted + k * step + rw->hexsz + 1, sorted + (k - 1) * step + rw->hexsz + 1, rw->hexsz))
				continue;
			memcpy(text + out, sorted + k * step, step);
			out += step;
		}
		free(sorted);
		len = out;
	}
	for (i = 0; i < rw->nnotes && !ret; i++) {
		char refarg[4200];
		const char *args[] = { "notes", refarg, "copy", "--stdin", NULL };
		snprintf(refarg, sizeof(refarg), "--ref=%s", rw->notes[i]);
		ret = git_in(rw, args, envp, text, len, err, errlen);
		if (ret && !envp && (envp = hexoid_child_env(ident)))
			ret = git_in(rw, args, envp, text, len, err, errlen);
	}
	free(envp);
	free(text);
	return ret;
}

int hexoid_rewrite_notes_tree(const char *gitdir, enum hexoid_algo algo, const char *git,
			      const char *ref, char *newhex, char *err, size_t errlen)
{
	static const char *const ident_args[] = { "var", "GIT_COMMITTER_IDENT", NULL };
	static const char *const import_args[] = { "fast-import", "--quiet", NULL };
	static const char msg[] = "Notes named in lowercase, for Git 3.0 (hexoid repair)\n";
	struct rewrite rw;
	char refarg[4200], tiparg[4300], *tip = NULL, *list = NULL, *who = NULL, *line, *save = NULL;
	const char *list_args[] = { "notes", refarg, "list", NULL };
	const char *tip_args[] = { "rev-parse", "--verify", tiparg, NULL };
	struct buf b = { NULL, 0, 0, 0 };
	size_t hexsz = hexoid_hexsz(algo);
	int ret = -1;

	memset(&rw, 0, sizeof(rw));
	rw.gitdir = (char *)gitdir;
	rw.git = (char *)(git ? git : "git");
	snprintf(refarg, sizeof(refarg), "--ref=%s", ref);
	snprintf(tiparg, sizeof(tiparg), "%s^{commit}", ref);
	if (!(tip = git_out(&rw, tip_args, err, errlen)) || !(list = git_out(&rw, list_args, err, errlen)))
		goto out;
	tip[strcspn(tip, "\n")] = 0;
	/* The committer git would name; where it knows none, what made the commit. */
	if ((who = git_out(&rw, ident_args, err, errlen))) {
		who[strcspn(who, "\n")] = 0;
	} else {
		char now[64];
		snprintf(now, sizeof(now), " %lld +0000", (long long)time(NULL));
		if (!(who = malloc(strlen(now) + 64)))
			goto oom;
		sprintf(who, "hexoid repair <hexoid-repair@localhost>%s", now);
	}
	{
		char head[8400];
		snprintf(head, sizeof(head), "commit %s\ncommitter %s\ndata %zu\n%sfrom %s\ndeleteall\n", ref, who,
			 sizeof(msg) - 1, msg, tip);
		put(&b, head, strlen(head));
	}
	for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* "<note blob> <annotated object>", both lowercase as git prints them. */
		if (strlen(line) != 2 * hexsz + 1 || line[hexsz] != ' ')
			continue;
		put(&b, "N ", 2);
		put(&b, line, 2 * hexsz + 1);
		put(&b, "\n", 1);
	}
	put(&b, "\n", 1);
	if (b.oom)
		goto oom;
	if (git_in(&rw, import_args, NULL, b.p, b.len, err, errlen))
		goto out;
	free(tip);
	snprintf(tiparg, sizeof(tiparg), "%s", ref);
	if (!(tip = git_out(&rw, tip_args, err, errlen)))
		goto out;
	tip[strcspn(tip, "\n")] = 0;
	snprintf(newhex, HEXOID_MAX_HEXSZ + 1, "%s", tip);
	ret = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	free(b.p);
	free(tip);
	free(list);
	free(who);
	return ret;
}

int hexoid_rewrite_rename_ref(const char *gitdir, const char *git, const char *from, const char *to,
			      char *err, size_t errlen)
{
	static const char *const ur_args[] = { "update-ref", "-m", "hexoid repair: the name in lowercase",
					       "--stdin", NULL };
	struct rewrite rw;
	const char *rp_args[] = { "rev-parse", "--verify", "--quiet", from, NULL };
	char *val, *in;
	int ret;

	memset(&rw, 0, sizeof(rw));
	rw.gitdir = (char *)gitdir;
	rw.git = (char *)(git ? git : "git");
	if (!(val = git_out(&rw, rp_args, err, errlen)))
		return -1;
	val[strcspn(val, "\n")] = 0;
	if (!(in = malloc(2 * strlen(val) + strlen(from) + strlen(to) + 32))) {
		free(val);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* create fails when `to` exists: the two are then left for a person. */
	sprintf(in, "create %s %s\ndelete %s %s\n", to, val, from, val);
	ret = git_in(&rw, ur_args, NULL, in, strlen(in), err, errlen);
	free(in);
	free(val);
	return ret;
}

void hexoid_rewrite_free(struct rewrite *rw)
{
	size_t i;

	if (!rw)
		return;
	for (i = 0; i < rw->nnodes; i++)
		free(rw->nodes[i].data);
	for (i = 0; i < rw->plan.nrefs; i++) {
		free(rw->plan.refs[i].name);
		free(rw->plan.refs[i].worktree);
	}
	for (i = 0; i < rw->nnotes; i++)
		free(rw->notes[i]);
	free(rw->notes);
	free(rw->plan.refs);
	free(rw->plan.signed_objs);
	hexoid_odb_close(rw->odb);
	free(rw->nodes);
	free(rw->table);
	free(rw->deps);
	free(rw->pack);
	free(rw->gitdir);
	free(rw->git);
	free(rw);
}
