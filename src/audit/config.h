/*
 * The one git config reader of the audit (config.c): the repository's format for
 * discovery, the files the config names for the places, a submodule's work tree.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_CONFIG_H
#define HEXOID_AUDIT_CONFIG_H

#include <stddef.h>

/* One variable of a config file, in the file's order: `key` is "section.name" or
 * "section.subsection.name" as written, `value` unquoted, without comments and blanks
 * around it, perhaps empty. */
typedef void config_fn(void *ctx, const char *key, const char *value);

/*
 * Each variable of the config file `path` to fn, and with `includes`, the files its
 * include.path values name read where they are named (a relative path from the
 * including file's folder, ~/ from $HOME). A small reader: sections, quoted values,
 * comments; includeIf is not followed. Only a regular file is opened: a FIFO would block.
 */
void hexoid_audit_config_read(const char *path, int includes, config_fn *fn, void *ctx);

/* Every value of `key` ("section.name" or "section.subsection.name", as git config
 * names them) that is not empty, in the config file of the git directory `dir` and the
 * files it includes, in order; each and the array malloc'ed. */
char **hexoid_audit_config_values(const char *dir, const char *key, size_t *count);

#endif
