/*
 * Reading one loose object (loose_read.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "loose_read.h"

/* zlib counts in uInt: at most 1 GiB at a time each way. */
static uInt chunk(size_t n)
{
	return n > (1u << 30) ? (1u << 30) : (uInt)n;
}

enum pk_loose_status hexoid_pk_loose_header(struct pk_loose *l, z_stream *z, const void *in,
					    size_t inlen, char *why, size_t whylen)
{
	const unsigned char *sp;
	size_t i;

	l->z = z;
	l->in = in;
	l->inlen = inlen;
	l->type = HEXOID_OBJ_NONE;
	l->size = 0;
	/* The header first: at most 64 bytes of output. */
	inflateReset(z);
	z->next_in = (unsigned char *)in;
	z->avail_in = chunk(inlen);
	z->next_out = l->head;
	z->avail_out = sizeof(l->head);
	l->rc = inflate(z, Z_NO_FLUSH);
	l->hlen = sizeof(l->head) - z->avail_out;
	if (l->rc != Z_OK && l->rc != Z_STREAM_END && l->rc != Z_BUF_ERROR) {
		snprintf(why, whylen, "zlib: %s", z->msg ? z->msg : "corrupt stream");
		return PK_LOOSE_ZLIB;
	}
	for (l->nul = 0; l->nul < l->hlen && l->head[l->nul]; l->nul++)
		;
	sp = memchr(l->head, ' ', l->nul);
	if (sp)
		l->type = hexoid_pk_object_type(l->head, (size_t)(sp - l->head));
	if (l->nul == l->hlen || !sp || l->type == HEXOID_OBJ_NONE ||
	    (size_t)(sp - l->head) + 1 == l->nul || (sp[1] == '0' && (size_t)(sp - l->head) + 2 != l->nul)) {
		snprintf(why, whylen, "no valid '<type> <size>' header");
		return PK_LOOSE_NO_HEADER;
	}
	for (i = (size_t)(sp - l->head) + 1; i < l->nul; i++) {
		if (l->head[i] < '0' || l->head[i] > '9' || l->size > (UINT64_MAX - 9) / 10) {
			snprintf(why, whylen, "bad size in the object's header");
			return PK_LOOSE_HEADER;
		}
		l->size = l->size * 10 + (l->head[i] - '0');
	}
	return PK_LOOSE_OK;
}

enum pk_loose_status hexoid_pk_loose_content(struct pk_loose *l, unsigned char **out, char *why,
					     size_t whylen)
{
	z_stream *z = l->z;
	uint64_t size = l->size;
	unsigned char *buf;
	size_t got;

	*out = NULL;
	if (size > pk_inflate_bound(l->inlen) || size > SIZE_MAX - 1) {
		snprintf(why, whylen, "%llu bytes claimed for a %zu-byte file", (unsigned long long)size,
			 l->inlen);
		return PK_LOOSE_HEADER;
	}
	if (!(buf = malloc((size_t)size + 1))) {
		snprintf(why, whylen, "out of memory for %llu bytes", (unsigned long long)size);
		return PK_LOOSE_NOMEM;
	}
	/* What came after the header, then the rest of the stream. */
	got = l->hlen - l->nul - 1;
	if (got > size)
		goto toolong;
	memcpy(buf, l->head + l->nul + 1, got);
	if (l->rc != Z_STREAM_END) {
		size_t in_done = (size_t)z->total_in;
		unsigned char spare;
		for (;;) {
			uInt in_before, out_before;
			int rc;
			z->next_in = (unsigned char *)l->in + in_done;
			z->avail_in = chunk(l->inlen - in_done);
			z->next_out = got < size ? buf + got : &spare;
			z->avail_out = got < size ? chunk((size_t)(size - got)) : 1;
			in_before = z->avail_in;
			out_before = z->avail_out;
			rc = inflate(z, Z_NO_FLUSH);
			in_done += in_before - z->avail_in;
			if (got == size && z->avail_out == 0)
				goto toolong;
			if (got < size)
				got += out_before - z->avail_out;
			if (rc == Z_STREAM_END)
				break;
			if (rc == Z_BUF_ERROR && in_done == l->inlen) {
				snprintf(why, whylen, "zlib stream truncated (%zu of %llu bytes inflated)", got,
					 (unsigned long long)size);
				goto fail;
			}
			if (rc != Z_OK && rc != Z_BUF_ERROR) {
				snprintf(why, whylen, "zlib: %s", z->msg ? z->msg : "corrupt stream");
				goto fail;
			}
		}
	}
	if (got != size) {
		snprintf(why, whylen, "object inflates to %zu bytes where its header says %llu", got,
			 (unsigned long long)size);
		goto fail;
	}
	if ((uint64_t)z->total_in != (uint64_t)l->inlen) {
		/* Git refuses "garbage at end of loose object", as packs get checked. */
		snprintf(why, whylen, "%llu bytes of garbage after the zlib stream",
			 (unsigned long long)(l->inlen - z->total_in));
		goto fail;
	}
	buf[size] = 0;
	*out = buf;
	return PK_LOOSE_OK;
toolong:
	snprintf(why, whylen, "object holds more than the %llu bytes its header says",
		 (unsigned long long)size);
fail:
	free(buf);
	return PK_LOOSE_ZLIB;
}
