/*
 * The command's definition of the library's digest hook (src/pack/crypto.h says why and
 * how): libcrypto opened at the first hash, not when the program starts. Linked ahead
 * of libhexoid.a, it is the hook, and the archive's src/pack/crypto.c, which links
 * libcrypto, is not linked at all. The name opened is the one the headers we built
 * against carry: libcrypto.so.3 for OpenSSL 3.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <openssl/opensslv.h>

#include "pack/crypto.h"

#ifdef OPENSSL_SHLIB_VERSION
#define STR_(x) #x
#define STR(x) STR_(x)
#define LIBCRYPTO "libcrypto.so." STR(OPENSSL_SHLIB_VERSION)
#else
#define LIBCRYPTO "libcrypto.so.1.1"
#endif

static struct hexoid_pk_crypto opened;
static char failed[200]; /* why, when it could not be opened */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* dlsym's void * to a function pointer: ISO C has no cast for it, so copy the bytes. */
static int take(void *lib, const char *name, void *fn, size_t size)
{
	void *p = dlsym(lib, name);
	if (!p) {
		snprintf(failed, sizeof(failed), "%s: no %s", LIBCRYPTO, name);
		return -1;
	}
	memcpy(fn, &p, size);
	return 0;
}

static void open_libcrypto(void)
{
	void *lib = dlopen(LIBCRYPTO, RTLD_NOW | RTLD_LOCAL);
	struct hexoid_pk_crypto f;

	if (!lib) {
		const char *e = dlerror();
		snprintf(failed, sizeof(failed), "%s", e ? e : LIBCRYPTO ": cannot be loaded");
		return;
	}
	if (take(lib, "EVP_sha1", &f.sha1, sizeof(f.sha1)) ||
	    take(lib, "EVP_sha256", &f.sha256, sizeof(f.sha256)) ||
	    take(lib, "EVP_MD_CTX_new", &f.ctx_new, sizeof(f.ctx_new)) ||
	    take(lib, "EVP_MD_CTX_free", &f.ctx_free, sizeof(f.ctx_free)) ||
	    take(lib, "EVP_DigestInit_ex", &f.init, sizeof(f.init)) ||
	    take(lib, "EVP_DigestUpdate", &f.update, sizeof(f.update)) ||
	    take(lib, "EVP_DigestFinal_ex", &f.final, sizeof(f.final)))
		return; /* the library stays open: it is never used, and harmless */
	opened = f;
}

const struct hexoid_pk_crypto *hexoid_pk_crypto(const char **why)
{
	pthread_once(&once, open_libcrypto);
	if (failed[0]) {
		*why = failed;
		return NULL;
	}
	return &opened;
}
