/*
 * The headers of a commit or tag from its zlib stream: inflate only until the blank
 * line that ends them (heads.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_PACK_HEADS_H
#define HEXOID_PACK_HEADS_H

#include <stddef.h>

/*
 * Inflate the zlib stream at in[0, inlen) into out[0, cap) until the output holds two
 * newlines in a row. Returns the length of the output through them: the same bytes
 * zlib makes of the stream's start. Returns 0 when it cannot say: the stream ends first,
 * the output would pass cap, or anything about the stream is not as zlib writes it
 * (the caller then reads the object whole, through zlib). Nothing past the blank line is
 * decoded, and nothing is checked there (not the stream's end, nor its Adler-32).
 */
size_t hexoid_pk_inflate_heads(const unsigned char *in, size_t inlen, unsigned char *out, size_t cap);

#endif
