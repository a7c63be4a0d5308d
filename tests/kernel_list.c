/*
 * The kernels under test: every native kernel this CPU can run, through the public API
 * with the kernel forced, and the portable SIMDe build of every SIMD folder, called
 * directly and located with the same scalar locator the library uses.
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "emulated.h"
#include "test.h"


size_t test_kernels(struct test_kernel *list, size_t cap)
{
	struct hexoid_kernel_info info[16];
	size_t count = 0, total = hexoid_kernel_table(info, 16);
	for (size_t i = 0; i < total && i < 16; i++) {
		if (!info[i].supported)
			continue;
		if (count < cap) {
			snprintf(list[count].name, sizeof(list[count].name), "%s", info[i].name);
			list[count].decode = NULL;
			list[count].encode = NULL;
		}
		count++;
	}
	for (size_t i = 0; emulated_kernels[i].name; i++, count++)
		if (count < cap) {
			snprintf(list[count].name, sizeof(list[count].name), "%s", emulated_kernels[i].name);
			list[count].decode = emulated_kernels[i].decode;
			list[count].encode = emulated_kernels[i].encode;
		}
	return count;
}

enum hexoid_status test_decode(const struct test_kernel *k, unsigned char *out, const char *in,
			       size_t n, size_t stride, size_t hexsz, enum hexoid_kind kind,
			       struct hexoid_error *err)
{
	if (!k->decode) {
		if (hexoid_set_kernel(k->name)) {
			test_fail(__FILE__, __LINE__, "cannot force kernel %s", k->name);
			return HEXOID_EARG;
		}
		return hexoid_decode(out, in, n, stride, hexsz == 40 ? HEXOID_SHA1 : HEXOID_SHA256,
				     kind, err);
	}
	err->record = n;
	err->column = 0;
	err->status = HEXOID_OK;
	if (n == 0)
		return HEXOID_OK;
	size_t bad = k->decode(out, in, n, stride, hexsz, kind);
	if (bad > n)
		test_fail(__FILE__, __LINE__, "%s returned record %zu of %zu", k->name, bad, n);
	if (bad >= n)
		return HEXOID_OK;
	err->record = bad;
	err->status = hexoid_scalar_locate(in + bad * stride, hexsz, kind, &err->column);
	return err->status;
}

void test_encode(const struct test_kernel *k, char *out, size_t stride,
		 const unsigned char *in, size_t n, size_t rawsz)
{
	if (!k->encode) {
		if (hexoid_set_kernel(k->name))
			test_fail(__FILE__, __LINE__, "cannot force kernel %s", k->name);
		hexoid_encode(out, stride, in, n, rawsz == 20 ? HEXOID_SHA1 : HEXOID_SHA256);
		return;
	}
	if (n)
		k->encode(out, stride, in, n, rawsz);
}
