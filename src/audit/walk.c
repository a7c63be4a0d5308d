/*
 * The places of an area in a git directory (walk.h): each place's files found as
 * places.c says (one file, a folder's tree, names in a folder, files the config names,
 * names in reftable) and fed, each to its feed.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/config.h"
#include "audit/feed.h"
#include "audit/notes.h"
#include "audit/places.h"
#include "audit/reftable.h"
#include "audit/tokens.h"
#include "audit/walk.h"
#include "util/dir.h"
#include "util/str.h"

/* One file of a place into its feed. `rel` is its path in the git directory. */
static void place_file(struct run *r, const struct place *pl, const struct where *w,
		       struct feed *fd, int dirfd, const char *name, const char *rel, int checked)
{
	char *data, *path;
	size_t size;

	if (hexoid_audit_read_at(r, pl->area, w, dirfd, name, rel, checked, &data, &size,
				 !(pl->flags & PLACE_READ_AGAIN)))
		return;
	path = hexoid_concat(w->prefix, rel);
	if (!path || hexoid_audit_feed_file(fd, path)) {
		fd->oom = 1;
	} else if (pl->format == FMT_LISTING) {
		fd->nfiles--;
		free(fd->files[fd->nfiles].path);
		hexoid_audit_feed_lines(fd, path, data, size);
	} else {
		/* Files of one ID count as files, others by lines, at the end. */
		if (size || !(pl->flags & PLACE_MAY_BE_EMPTY))
			hexoid_audit_feed_tokens(fd, (enum place_format)pl->format, data, size);
		r->audit->count[pl->area].scanned++;
	}
	free(path);
	free(data);
}

/*
 * Every file under the folder `rel` of the git directory, in the order of their whole
 * paths as strings (as git sorts refs: refs/heads/a-b before refs/heads/a/b), so folders
 * sort as if their names ended in '/'. Lock files are git's work in progress: left out.
 * Files are opened relative to their folder, and readdir's d_type saves a stat where it
 * can: a repository may hold many thousands of loose refs. Symbolic links to folders are
 * not followed (a loop would never end); a link git would take as a symbolic ref
 * ("refs/..."), holds no ID.
 */
static void walk(struct run *r, const struct place *pl, const struct where *w,
		 const struct repo *rp, struct feed *fd, const char *rel)
{
	char *full = hexoid_join(w->dir, rel);
	DIR *d = full ? opendir(full) : NULL;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i, rlen = strlen(rel);
	struct errtext et;

	if (!d) {
		if (full && errno != ENOENT && errno != ENOTDIR)
			hexoid_audit_file_finding(r, pl->area, w, rel, HEXOID_CODE_UNREADABLE,
						  "cannot read the folder: %s",
						  hexoid_audit_errtext(errno, &et));
		free(full);
		return;
	}
	while ((de = readdir(d))) {
		char *path;
		int is_dir = de->d_type == DT_DIR;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;
			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
				is_dir = S_ISDIR(st.st_mode);
		}
		if (!is_dir && hexoid_ends_with(de->d_name, ".lock"))
			continue;
		if (n == cap) {
			char **v = realloc(names, (cap = cap ? 2 * cap : 32) * sizeof(*v));
			if (!v) {
				fd->oom = 1;
				break;
			}
			names = v;
		}
		/* "rel/name/" for a folder: it sorts as its files will; a type tag after
		 * the terminating NUL keeps what readdir said. */
		path = malloc(rlen + strlen(de->d_name) + 4);
		if (!path) {
			fd->oom = 1;
			break;
		}
		sprintf(path, "%s/%s%s", rel, de->d_name, is_dir ? "/" : "");
		path[strlen(path) + 1] = de->d_type == DT_REG ? 'r' : '?';
		names[n++] = path;
	}
	if (n)
		qsort(names, n, sizeof(*names), hexoid_cmp_str);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		char type = names[i][len + 1];
		if (!hexoid_audit_stop(r)) {
			if (names[i][len - 1] == '/') {
				names[i][len - 1] = 0;
				walk(r, pl, w, rp, fd, names[i]);
			} else {
				const char *name = names[i] + rlen + 1;
				struct stat st;
				char target[6];
				ssize_t tl;
				if (pl->format == FMT_ID_NAME) {
					char *shown = hexoid_concat(w->prefix, names[i]);
					if (shown && !hexoid_audit_feed_file(fd, shown))
						hexoid_audit_id_name(
							fd,
							pl->area == HEXOID_AREA_NOTES ? NAME_NOTES_MERGE
										      : NAME_REPLACE,
							names[i] + strlen(pl->path) + 1,
							len - strlen(pl->path) - 1, 0, 0);
					free(shown);
					r->audit->count[pl->area].scanned++;
				} else if (type != 'r' && fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISLNK(st.st_mode) &&
				    (tl = readlinkat(dirfd(d), name, target, sizeof(target))) >= 5 &&
				    !memcmp(target, "refs/", 5) && pl->format == FMT_REF) {
					r->audit->count[pl->area].scanned++;
				} else if (type != 'r' && fstatat(dirfd(d), name, &st, 0) == 0 &&
					   S_ISDIR(st.st_mode)) {
					/* a link to a folder: not followed */
				} else {
					place_file(r, pl, w, fd, dirfd(d), name, names[i], type == 'r');
				}
			}
		}
		free(names[i]);
	}
	closedir(d);
	free(names);
	free(full);
}

/* Each file the config names for `pl` (fsck.skipList, ...), as git opens it: a relative
 * path from where git runs its commands (the work tree's top), ~/ from $HOME. */
static void config_files(struct run *r, const struct place *pl, const struct repo *rp,
			 struct feed *fd)
{
	size_t n, i;
	char **v = hexoid_audit_config_values(rp->dir, pl->path, &n);
	struct where shown = { rp->dir, (char *)"", 0 };

	for (i = 0; i < n; i++) {
		const char *home = getenv("HOME");
		char *full;
		if (!strncmp(v[i], "~/", 2) && home)
			full = hexoid_join(home, v[i] + 2);
		else
			full = hexoid_resolve(rp->top, v[i]);
		if (full && !hexoid_audit_stop(r))
			place_file(r, pl, &shown, fd, AT_FDCWD, full, v[i], 0);
		free(full);
		free(v[i]);
	}
	free(v);
}

static int is_promisor(const char *name, void *ctx)
{
	(void)ctx;
	return hexoid_ends_with(name, ".promisor");
}

/*
 * The .promisor files beside packs: git never parses their lines (they are copied as
 * text), but their names are pack names, pack-<id>.promisor, which git writes in
 * lowercase and the Git 3.0 build still takes in uppercase: warn.
 */
static void promisor_names(struct run *r, const struct place *pl, const struct where *w,
			   const struct repo *rp, struct feed *fd)
{
	char *full = hexoid_join(w->dir, pl->path), **names;
	struct hexoid_names list = { NULL, 0 };
	size_t i, hexsz = hexoid_hexsz(rp->algo);

	if (full)
		hexoid_dir_names(full, HEXOID_DIR_ANY, is_promisor, NULL, &list);
	names = list.v;
	for (i = 0; i < list.n; i++) {
		char *rel = hexoid_join(pl->path, names[i]), *shown = rel ? hexoid_concat(w->prefix, rel) : NULL;
		struct hexoid_error e;
		struct found *f;
		r->audit->count[pl->area].scanned++;
		if (shown && !hexoid_audit_feed_file(fd, shown) && strlen(names[i]) == hexsz + 14 &&
		    !memcmp(names[i], "pack-", 5) &&
		    hexoid_decode(NULL, names[i] + 5, 1, hexsz, rp->algo, HEXOID_MIXED, NULL) ==
			    HEXOID_OK &&
		    hexoid_decode(NULL, names[i] + 5, 1, hexsz, rp->algo, HEXOID_LOWER, &e) !=
			    HEXOID_OK &&
		    (f = hexoid_audit_feed_extra(fd))) {
			f->file = fd->nfiles - 1;
			f->line = 0;
			f->column = 0;
			f->code = HEXOID_CODE_UPPERCASE_ID_ACCEPTED;
			snprintf(f->message, sizeof(f->message),
				 "uppercase hex digit '%c' in the pack's name: git writes it in "
				 "lowercase, the Git 3.0 build still opens it",
				 names[i][5 + e.column]);
		}
		free(rel);
		free(shown);
	}
	hexoid_names_free(&list);
	free(full);
}

/* The names of the folders in a place's folder, each an ID (rr-cache/<id>). */
static void folder_names(struct run *r, const struct place *pl, const struct where *w,
			 struct feed *fd)
{
	char *full = hexoid_join(w->dir, pl->path), **names;
	struct hexoid_names list = { NULL, 0 };
	size_t i;

	if (full)
		hexoid_dir_names(full, HEXOID_DIR_FOLDERS, NULL, NULL, &list);
	names = list.v;
	for (i = 0; i < list.n; i++) {
		char *rel = hexoid_join(pl->path, names[i]), *shown = rel ? hexoid_concat(w->prefix, rel) : NULL;
		if (shown && !hexoid_audit_feed_file(fd, shown))
			hexoid_audit_id_name(fd, NAME_RERERE, names[i], strlen(names[i]), 0, 0);
		r->audit->count[pl->area].scanned++;
		free(rel);
		free(shown);
	}
	hexoid_names_free(&list);
	free(full);
}

static int is_mail(const char *name, void *ctx)
{
	(void)ctx;
	return strspn(name, "0123456789") == strlen(name);
}

/* The mails of `git am` or `git rebase --apply` (rebase-apply/0001, ...), read for the
 * commit they came from only when rebasing. */
static void mails(struct run *r, const struct place *pl, const struct where *w, struct feed *fd)
{
	char *full = hexoid_join(w->dir, pl->path), *flag = full ? hexoid_join(full, "rebasing") : NULL;
	struct hexoid_names list = { NULL, 0 };
	size_t i;
	struct stat st;

	if (flag && stat(flag, &st) == 0 &&
	    !hexoid_dir_names(full, HEXOID_DIR_ANY, is_mail, NULL, &list) && list.n) {
		int dirfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (i = 0; i < list.n && dirfd >= 0 && !hexoid_audit_stop(r); i++) {
			char *rel = hexoid_join(pl->path, list.v[i]);
			if (rel)
				place_file(r, pl, w, fd, dirfd, rel, rel, 0);
			free(rel);
		}
		if (dirfd >= 0)
			close(dirfd);
	}
	hexoid_names_free(&list);
	free(flag);
	free(full);
}

/* The names of refs in reftable that are IDs (refs/replace/<id>), shown as the refs'
 * names, as git for-each-ref shows them and as the files backend's files are named. */
static void reftable_names(struct run *r, const struct place *pl, const struct where *w,
			   const struct repo *rp, struct feed *fd)
{
	struct rt_ref *v;
	size_t n, i, plen = strlen(pl->path);
	char err[512];

	if (hexoid_reftable_refs(w->dir, pl->path, rp->algo, &v, &n, err, sizeof(err))) {
		hexoid_audit_reftable_error(r, pl->area, w, err);
		return;
	}
	for (i = 0; i < n; i++) {
		char *shown = hexoid_concat(w->prefix, v[i].name);
		if (shown && !hexoid_audit_feed_file(fd, shown))
			hexoid_audit_id_name(fd, NAME_REPLACE, v[i].name + plen, strlen(v[i].name) - plen, 0, 0);
		free(shown);
		r->audit->count[pl->area].scanned++;
	}
	hexoid_reftable_free(v, n);
}

/* Every place of one area in one git directory. */
void hexoid_audit_area_in(struct run *r, enum hexoid_audit_area area, const struct repo *rp,
			  const struct where *w)
{
	size_t i;

	for (i = 0; i < hexoid_audit_nplaces && !hexoid_audit_stop(r); i++) {
		const struct place *pl = &hexoid_audit_places[i];
		struct feed fd;
		unsigned long long lines;
		if (pl->area != area || (w->worktree && pl->scope != SCOPE_WORKTREE) ||
		    (rp->reftable && (pl->flags & PLACE_FILES_REFS)) ||
		    (!rp->reftable && (pl->flags & PLACE_REFTABLE)))
			continue;
		if (pl->how == HOW_NOTES) {
			hexoid_audit_notes(r, rp);
			continue;
		}
		if (hexoid_audit_feed_start(r, &fd, area,
					    pl->format == FMT_LISTING ? (enum hexoid_format)pl->listing
								      : HEXOID_FORMAT_OIDS,
					    rp->algo)) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			r->stopped = 1;
			return;
		}
		if (pl->how == HOW_TREE) {
			walk(r, pl, w, rp, &fd, pl->path);
		} else if (pl->how == HOW_CONFIG) {
			config_files(r, pl, rp, &fd);
		} else if (pl->how == HOW_PROMISOR_NAMES) {
			promisor_names(r, pl, w, rp, &fd);
		} else if (pl->how == HOW_MAILS) {
			mails(r, pl, w, &fd);
		} else if (pl->how == HOW_FOLDER_NAMES) {
			folder_names(r, pl, w, &fd);
		} else if (pl->how == HOW_REFTABLE_NAMES) {
			reftable_names(r, pl, w, rp, &fd);
		} else {
			int dirfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (dirfd >= 0) {
				place_file(r, pl, w, &fd, dirfd, pl->path, pl->path, 0);
				close(dirfd);
			}
		}
		lines = hexoid_audit_feed_finish(&fd);
		if (pl->format == FMT_LISTING)
			r->audit->count[area].scanned += lines;
	}
}

