/*
 * The git config a repair reads before it writes: how long to wait for a ref's lock and
 * for packed-refs' (core.filesRefLockTimeout, core.packedRefsTimeout), and which files
 * to flush (core.fsync), from the files git reads, as git reads them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "audit/config.h"
#include "repair/repair.h"
#include "util/str.h"

/* A git integer: decimal, an optional k, m or g. */
static int git_long(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end == 'k' || *end == 'K')
		v *= 1024, end++;
	else if (*end == 'm' || *end == 'M')
		v *= 1024 * 1024, end++;
	else if (*end == 'g' || *end == 'G')
		v *= 1024L * 1024 * 1024, end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static unsigned fsync_components(const char *value)
{
	static const struct { const char *name; unsigned bits; } names[] = {
		{ "loose-object", FSYNC_LOOSE_OBJECT }, { "pack", FSYNC_PACK },
		{ "pack-metadata", FSYNC_PACK_METADATA }, { "commit-graph", FSYNC_COMMIT_GRAPH },
		{ "index", FSYNC_INDEX }, { "reference", FSYNC_REFERENCE },
		{ "objects", FSYNC_OBJECTS }, { "derived-metadata", FSYNC_DERIVED },
		{ "committed", FSYNC_COMMITTED }, { "added", FSYNC_ADDED }, { "all", FSYNC_ALL },
	};
	unsigned current = FSYNC_DEFAULT, plus = 0, minus = 0;
	const char *s = value;

	/* As git: "none" drops the default, "-x" takes x away, names add. */
	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s), i;
		int neg = 0;
		while (len && (*s == ' ' || *s == '\t'))
			s++, len--;
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		if (len && *s == '-')
			neg = 1, s++, len--;
		if (len == 4 && !strncmp(s, "none", 4))
			current = 0;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len && !strncmp(s, names[i].name, len))
				*(neg ? &minus : &plus) |= names[i].bits;
		if (!e)
			break;
		s = e + 1;
	}
	return (current & ~minus) | plus;
}

static void on_setting(void *ctx, const char *key, const char *value)
{
	struct settings *st = ctx;
	long v;

	if (!strcasecmp(key, "core.filesRefLockTimeout") && !git_long(value, &v))
		st->ref_timeout = v;
	else if (!strcasecmp(key, "core.packedRefsTimeout") && !git_long(value, &v))
		st->packed_timeout = v;
	else if (!strcasecmp(key, "core.fsync"))
		st->fsync = fsync_components(value);
}

/* The config files git reads, system to repository, the last value winning. */
void hexoid_repair_read_settings(struct settings *st, const char *gitdir)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *sys = getenv("GIT_CONFIG_SYSTEM"), *glob = getenv("GIT_CONFIG_GLOBAL");
	char *p;

	st->ref_timeout = 100;
	st->packed_timeout = 1000;
	st->fsync = FSYNC_DEFAULT;
	if (!getenv("GIT_CONFIG_NOSYSTEM"))
		hexoid_audit_config_read(sys ? sys : "/etc/gitconfig", 1, on_setting, st);
	if (glob) {
		hexoid_audit_config_read(glob, 1, on_setting, st);
	} else {
		p = xdg && *xdg ? hexoid_join(xdg, "git/config")
				: home ? hexoid_join(home, ".config/git/config") : NULL;
		if (p)
			hexoid_audit_config_read(p, 1, on_setting, st);
		free(p);
		if (home && (p = hexoid_join(home, ".gitconfig"))) {
			hexoid_audit_config_read(p, 1, on_setting, st);
			free(p);
		}
	}
	if ((p = hexoid_join(gitdir, "config"))) {
		hexoid_audit_config_read(p, 1, on_setting, st);
		free(p);
	}
}
