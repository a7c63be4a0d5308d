/*
 * The C side of the Go package: results by value, so that no Go memory is handed to C
 * to be written, and the listing checker's callback, which finds its Go state through a
 * runtime/cgo.Handle (an integer) rather than a Go pointer.
 * SPDX-License-Identifier: MIT
 */
#ifndef HEXOID_GO_SHIM_H
#define HEXOID_GO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include <hexoid.h>
#include <hexoid_listing.h>

struct hx_result {
	size_t record, column;
	int status;
};

/* hexoid_decode(); on failure, the output of the bad record and of every one after it
 * (up to n) is zeroed, so out never holds a half-decoded ID. */
struct hx_result hx_decode(unsigned char *out, const char *in, size_t n, size_t stride,
			   int algo, int kind);

struct hexoid_listing *hx_listing_new(int format, int algo, int kind, uintptr_t handle,
				      int want_problems);

#endif
