/*
 * Option values shared by the commands.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"

int parse_count(const char *s, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || !*s || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}
