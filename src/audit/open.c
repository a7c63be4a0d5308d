/*
 * The audit's handle (hexoid_audit.h): opened on a repository found as git finds it, or
 * on an objects folder alone; what it found; its counts; closed.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit/audit.h"
#include "audit/discover.h"
#include "util/str.h"

struct hexoid_audit *hexoid_audit_open(const char *path, char *err, size_t errlen)
{
	struct hexoid_audit *a = calloc(1, sizeof(*a));
	struct repo_config c;

	if (!a) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!path)
		path = ".";
	if (!(a->gitdir = hexoid_audit_discover(path, &a->top, err, errlen)))
		goto fail;
	if (!(a->common = hexoid_audit_common_of(a->gitdir))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	hexoid_audit_repo_format(a->common, &c);
	if (c.algo < 0 || c.reftable < 0) {
		snprintf(err, errlen, "%s: unknown %s in its config", path, c.unknown);
		goto fail;
	}
	a->algo = (enum hexoid_algo)c.algo;
	a->refs = c.reftable ? HEXOID_REFS_REFTABLE : HEXOID_REFS_FILES;
	return a;
fail:
	hexoid_audit_close(a);
	return NULL;
}

/* The hash an objects folder's contents are named in: its first pack's name
 * (pack-<checksum>.idx), else its first loose object's; 0 when it has neither. */
static enum hexoid_algo objects_algo(const char *dir)
{
	char *packdir = hexoid_join(dir, "pack");
	enum hexoid_algo algo = 0;
	struct dirent *de;
	DIR *d;

	if (packdir && (d = opendir(packdir))) {
		while (!algo && (de = readdir(d))) {
			size_t len = strlen(de->d_name);
			if (len > 9 && !strncmp(de->d_name, "pack-", 5) &&
			    !strcmp(de->d_name + len - 4, ".idx"))
				algo = len - 9 == 40 ? HEXOID_SHA1 : len - 9 == 64 ? HEXOID_SHA256 : 0;
		}
		closedir(d);
	}
	free(packdir);
	if (!algo && (d = opendir(dir))) {
		while (!algo && (de = readdir(d))) {
			char *sub;
			DIR *sd;
			struct dirent *e;
			if (strlen(de->d_name) != 2 || !hexoid_is_hex(de->d_name[0]) || !hexoid_is_hex(de->d_name[1]) ||
			    !(sub = hexoid_join(dir, de->d_name)))
				continue;
			if ((sd = opendir(sub))) {
				while (!algo && (e = readdir(sd))) {
					size_t len = strlen(e->d_name);
					algo = len == 38 ? HEXOID_SHA1 : len == 62 ? HEXOID_SHA256 : 0;
				}
				closedir(sd);
			}
			free(sub);
		}
		closedir(d);
	}
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
