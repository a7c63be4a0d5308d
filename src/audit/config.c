/*
 * The one git config reader of the audit (config.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "audit/config.h"
#include "util/str.h"

static void trim(char **s)
{
	char *p = *s, *e;

	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && hexoid_is_space(e[-1]))
		*--e = 0;
	*s = p;
}

/* As git: no deeper than this many includes. */
#define MAX_INCLUDE_DEPTH 10

/*
 * Read one config file, its includes in their place. -1 once an include went deeper than
 * git goes: git dies there ("exceeded maximum include depth"), so nothing after it is
 * read either. Without that stop, a file that includes itself n times would be read
 * n^10 times.
 */
static int config_read(const char *path, int includes, config_fn *fn, void *ctx, int depth)
{
	char line[4096], section[512] = "";
	struct stat st;
	int rc = 0;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "r")))
		return 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		char *p = line, *eq, *val, *o, full[1024];
		int quoted = 0;
		trim(&p);
		if (*p == '[') {
			char *end = strchr(p, ']'), *q;
			if (!end)
				continue;
			*end = 0;
			p++;
			q = strchr(p, '"');
			if (q) {
				/* [section "subsection"] */
				char *name = p, *sub = q + 1, *qe = strrchr(sub, '"');
				if (qe)
					*qe = 0;
				*q = 0;
				trim(&name);
				snprintf(section, sizeof(section), "%s.%s", name, sub);
			} else {
				snprintf(section, sizeof(section), "%s", p);
			}
			continue;
		}
		if (!*p || *p == '#' || *p == ';' || !(eq = strchr(p, '=')))
			continue;
		*eq = 0;
		val = eq + 1;
		trim(&p);
		snprintf(full, sizeof(full), "%s.%s", section, p);
		trim(&val);
		/* Quotes and backslashes, and a comment outside quotes, as git reads them. */
		for (o = val, p = val; *p; p++) {
			if (*p == '"')
				quoted = !quoted;
			else if (!quoted && (*p == '#' || *p == ';'))
				break;
			else if (*p == '\\' && p[1])
				*o++ = *++p;
			else
				*o++ = *p;
		}
		*o = 0;
		trim(&val);
		if (includes && !strcasecmp(full, "include.path")) {
			const char *home = getenv("HOME");
			char *inc = NULL, *slash;
			if (!*val)
				continue;
			if (depth >= MAX_INCLUDE_DEPTH) {
				rc = -1;
				break;
			}
			if (!strncmp(val, "~/", 2) && home) {
				inc = hexoid_join(home, val + 2);
			} else if (val[0] == '/') {
				inc = strdup(val);
			} else if ((slash = strrchr(path, '/'))) {
				char *folder = strndup(path, (size_t)(slash - path));
				inc = folder ? hexoid_join(folder, val) : NULL;
				free(folder);
			} else {
				inc = strdup(val);
			}
			if (inc)
				rc = config_read(inc, includes, fn, ctx, depth + 1);
			free(inc);
			continue;
		}
		fn(ctx, full, val);
	}
	fclose(f);
	return rc;
}

void hexoid_audit_config_read(const char *path, int includes, config_fn *fn, void *ctx)
{
	(void)config_read(path, includes, fn, ctx, 0);
}

struct values {
	const char *key;
	char **v;
	size_t n, cap;
};

static void add_value(void *ctx, const char *key, const char *value)
{
	struct values *out = ctx;

	if (!*value || strcasecmp(key, out->key) ||
	    hexoid_grow(&out->v, &out->cap, out->n, sizeof(*out->v)))
		return;
	if ((out->v[out->n] = strdup(value)))
		out->n++;
}

char **hexoid_audit_config_values(const char *dir, const char *key, size_t *count)
{
	struct values out = { key, NULL, 0, 0 };
	char *path = hexoid_join(dir, "config");

	if (path)
		config_read(path, 1, add_value, &out, 0);
	free(path);
	*count = out.n;
	return out.v;
}

