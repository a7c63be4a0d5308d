/*
 * The IDs in a file of each format of places.h that is not a listing, into a feed
 * (tokens.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_AUDIT_TOKENS_H
#define HEXOID_AUDIT_TOKENS_H

#include "audit/feed.h"
#include "audit/places.h"

/* The IDs of one file of `format` into the feed. Returns 1 when the file holds none
 * (a symbolic ref, a branch name). */
int hexoid_audit_feed_tokens(struct feed *fd, enum place_format format, const char *data,
			     size_t size);

#endif
