/*
 * The audit's handle (hexoid_audit.h): opened on a repository found as git finds it, or
 * on an objects folder alone; what it found; its counts; closed.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit/audit.h"
#include "audit/discover.h"
#include "util/dir.h"
#include "util/str.h"

struct hexoid_audit *hexoid_audit_open_with(const char *path, unsigned flags,
					    enum hexoid_audit_open_error *why, char *err,
					    size_t errlen)
{
	struct hexoid_audit *a = calloc(1, sizeof(*a));
	struct repo_config c;
	int w = HEXOID_OPEN_NO_MEMORY;

	if (!a) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (!path)
		path = ".";
	if (!(a->gitdir = hexoid_audit_discover(path, (flags & HEXOID_AUDIT_OPEN_EXACT) != 0, &a->top,
						&w, err, errlen)))
		goto fail;
	if (!(a->common = hexoid_audit_common_of(a->gitdir))) {
		w = HEXOID_OPEN_NO_MEMORY;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	hexoid_audit_repo_format(a->common, &c);
	if (c.algo < 0 || c.reftable < 0) {
		w = HEXOID_OPEN_UNKNOWN_FORMAT;
		snprintf(err, errlen, "%s: unknown %s in its config", path, c.unknown);
		goto fail;
	}
	a->algo = (enum hexoid_algo)c.algo;
	a->refs = c.reftable ? HEXOID_REFS_REFTABLE : HEXOID_REFS_FILES;
	if (why)
		*why = 0;
	return a;
fail:
	if (why)
		*why = (enum hexoid_audit_open_error)w;
	hexoid_audit_close(a);
	return NULL;
}

struct hexoid_audit *hexoid_audit_open(const char *path, char *err, size_t errlen)
{
	return hexoid_audit_open_with(path, 0, NULL, err, errlen);
}

struct hexoid_audit *hexoid_audit_open_exact(const char *path, char *err, size_t errlen)
{
	return hexoid_audit_open_with(path, HEXOID_AUDIT_OPEN_EXACT, NULL, err, errlen);
}

const char *hexoid_audit_open_error_name(enum hexoid_audit_open_error why)
{
	switch (why) {
	case HEXOID_OPEN_NOT_FOUND: return "not-found";
	case HEXOID_OPEN_UNREADABLE: return "unreadable";
	case HEXOID_OPEN_NOT_A_FOLDER: return "not-a-folder";
	case HEXOID_OPEN_NOT_A_REPOSITORY: return "not-a-repository";
	case HEXOID_OPEN_BROKEN_GITDIR: return "broken-gitdir";
	case HEXOID_OPEN_UNKNOWN_FORMAT: return "unknown-format";
	case HEXOID_OPEN_NO_MEMORY: return "out-of-memory";
	}
	return NULL;
}

/* The hash an object's name is in, by its length in hex; 0 for neither. */
static enum hexoid_algo algo_of_hexsz(size_t hexsz)
{
	return hexsz == 40 ? HEXOID_SHA1 : hexsz == 64 ? HEXOID_SHA256 : 0;
}

static int is_named_idx(const char *name, void *ctx)
{
	size_t len = strlen(name);

	(void)ctx;
	return len > 9 && !strncmp(name, "pack-", 5) && hexoid_ends_with(name, ".idx") &&
	       algo_of_hexsz(len - 9);
}

static int is_fanout(const char *name, void *ctx)
{
	(void)ctx;
	return strlen(name) == 2 && hexoid_all_hex(name, 2);
}

static int is_loose_rest(const char *name, void *ctx)
{
	(void)ctx;
	return algo_of_hexsz(strlen(name) + 2) != 0;
}

/* The hash an objects folder's contents are named in: its first pack's name
 * (pack-<checksum>.idx), else its first loose object's, first in name order; 0 when it
 * has neither. */
static enum hexoid_algo objects_algo(const char *dir)
{
	char *packdir = hexoid_join(dir, "pack");
	enum hexoid_algo algo = 0;
	struct hexoid_names names, sub;
	size_t i;

	if (packdir && hexoid_dir_names(packdir, HEXOID_DIR_ANY, is_named_idx, NULL, &names) == 0) {
		if (names.n)
			algo = algo_of_hexsz(strlen(names.v[0]) - 9);
		hexoid_names_free(&names);
	}
	free(packdir);
	if (algo || hexoid_dir_names(dir, HEXOID_DIR_ANY, is_fanout, NULL, &names) < 0)
		return algo;
	for (i = 0; i < names.n && !algo; i++) {
		char *fanout = hexoid_join(dir, names.v[i]);
		if (fanout && hexoid_dir_names(fanout, HEXOID_DIR_ANY, is_loose_rest, NULL, &sub) == 0) {
			if (sub.n)
				algo = algo_of_hexsz(strlen(sub.v[0]) + 2);
			hexoid_names_free(&sub);
		}
		free(fanout);
	}
	hexoid_names_free(&names);
	return algo;
}

struct hexoid_audit *hexoid_audit_open_objects(const char *dir, enum hexoid_algo algo, char *err,
					       size_t errlen)
{
	struct hexoid_audit *a;
	struct stat st;

	if (!dir || (algo && algo != HEXOID_SHA1 && algo != HEXOID_SHA256)) {
		snprintf(err, errlen, "bad arguments: a folder, and HEXOID_SHA1, HEXOID_SHA256 or 0");
		return NULL;
	}
	if (stat(dir, &st) < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", dir);
		return NULL;
	}
	if (!(a = calloc(1, sizeof(*a))) || !(a->common = realpath(dir, NULL)) ||
	    !(a->gitdir = strdup(a->common))) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno ? errno : ENOMEM));
		hexoid_audit_close(a);
		return NULL;
	}
	a->algo = algo ? algo : objects_algo(a->common);
	if (!a->algo)
		a->algo = HEXOID_SHA1;
	a->refs = HEXOID_REFS_FILES;
	a->objects_only = 1;
	return a;
}

const char *hexoid_audit_gitdir(const struct hexoid_audit *a)
{
	return a->common;
}

enum hexoid_algo hexoid_audit_algo(const struct hexoid_audit *a)
{
	return a->algo;
}

enum hexoid_ref_storage hexoid_audit_ref_storage(const struct hexoid_audit *a)
{
	return a->refs;
}

void hexoid_audit_summary(const struct hexoid_audit *a, enum hexoid_audit_area area,
			  struct hexoid_audit_count *count)
{
	if ((unsigned)area < HEXOID_AREA_COUNT)
		*count = a->count[area];
	else
		memset(count, 0, sizeof(*count));
}

void hexoid_audit_close(struct hexoid_audit *a)
{
	if (!a)
		return;
	free(a->top);
	free(a->gitdir);
	free(a->common);
	free(a);
}

/* Whether the folder was walked already; records it if not. -1 if it cannot be stat'ed. */
