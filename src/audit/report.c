/*
 * A run's findings to the caller, counted by area; the findings about whole files,
 * those that cannot be read among them; the folders a run has met.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit/audit.h"
#include "util/file.h"
#include "util/str.h"

int hexoid_audit_report(struct run *r, struct hexoid_audit_finding *f)
{
	struct hexoid_audit_count *c = &r->audit->count[f->area];

	if (hexoid_audit_stop(r))
		return 1;
	f->cls = hexoid_code_class(f->code);
	if (f->cls == HEXOID_CLASS_GIT3)
		c->git3++;
	else if (f->cls == HEXOID_CLASS_WARN)
		c->warn++;
	else
		c->errors++;
	if (r->o.on_finding && r->o.on_finding(r->o.ctx, f))
		r->stopped = 1;
	return r->stopped;
}

int hexoid_audit_cancel_asked(const struct run *r)
{
	return r->o.cancel && __atomic_load_n(r->o.cancel, __ATOMIC_RELAXED);
}

int hexoid_audit_stop(struct run *r)
{
	if (!r->stopped && hexoid_audit_cancel_asked(r))
		r->stopped = 1;
	return r->stopped;
}

const char *hexoid_audit_errtext(int e, struct errtext *t)
{
	if (strerror_r(e, t->s, sizeof(t->s)) != 0)
		snprintf(t->s, sizeof(t->s), "error %d", e);
	return t->s;
}

void hexoid_audit_file_finding(struct run *r, enum hexoid_audit_area area, const struct where *w,
			       const char *rel, enum hexoid_code code, const char *fmt, ...)
{
	struct hexoid_audit_finding f;
	char msg[512];
	char *path = hexoid_concat(w->prefix, rel);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memset(&f, 0, sizeof(f));
	f.code = code;
	f.area = area;
	f.path = path ? path : rel;
	f.offset = HEXOID_NO_OFFSET;
	f.message = msg;
	hexoid_audit_report(r, &f);
	free(path);
}

int hexoid_audit_read_at(struct run *r, enum hexoid_audit_area area, const struct where *w,
			 int dirfd, const char *name, const char *rel, int checked, char **data,
			 size_t *size, int say)
{
	struct hexoid_file f;
	struct errtext et;
	enum hexoid_file_status st = hexoid_file_read_at(dirfd, name, checked ? HEXOID_FILE_REGULAR : 0,
							  0, &f);

	*data = f.data;
	*size = f.size;
	if (st == HEXOID_FILE_OK)
		return 0;
	if (st == HEXOID_FILE_MISSING)
		return 1;
	if (!say)
		return -1;
	if (st == HEXOID_FILE_BROKEN_LINK)
		hexoid_audit_file_finding(r, area, w, rel, HEXOID_CODE_BROKEN_LINK,
					  "symbolic link to nothing");
	else if (st == HEXOID_FILE_NOT_REGULAR)
		hexoid_audit_file_finding(r, area, w, rel, HEXOID_CODE_NOT_A_FILE,
					  "not a regular file (%s): not read",
					  S_ISDIR(f.mode)    ? "a folder"
					  : S_ISFIFO(f.mode) ? "a FIFO"
					  : S_ISSOCK(f.mode) ? "a socket"
							     : "a device");
	else
		hexoid_audit_file_finding(r, area, w, rel, HEXOID_CODE_UNREADABLE, "cannot read: %s",
					  f.error == ELOOP ? "symbolic link loop"
							   : hexoid_audit_errtext(f.error, &et));
	return -1;
}

void hexoid_audit_reftable_error(struct run *r, enum hexoid_audit_area area, const struct where *w,
				 char *err)
{
	char *sep = strstr(err, ": ");

	if (sep && !memcmp(err, "reftable/", 9)) {
		*sep = 0;
		hexoid_audit_file_finding(r, area, w, err, HEXOID_CODE_UNREADABLE, "cannot read: %s", sep + 2);
	} else {
		hexoid_audit_file_finding(r, area, w, "reftable", HEXOID_CODE_UNREADABLE, "cannot read: %s",
					  err);
	}
}

int hexoid_audit_seen_before(struct run *r, const char *dir)
{
	struct stat st;
	size_t i;

	if (stat(dir, &st) < 0)
		return -1;
	for (i = 0; i < r->nseen; i++)
		if (r->seen[i].dev == st.st_dev && r->seen[i].ino == st.st_ino)
			return 1;
	if (r->nseen == r->capseen) {
		size_t cap = r->capseen ? 2 * r->capseen : 8;
		void *v = realloc(r->seen, cap * sizeof(*r->seen));
		if (!v)
			return 1;
		r->seen = v;
		r->capseen = cap;
	}
	r->seen[r->nseen].dev = st.st_dev;
	r->seen[r->nseen++].ino = st.st_ino;
	return 0;
}

