/*
 * The digest hook: the one way the library reaches libcrypto. Every SHA-1 and SHA-256
 * it computes (object IDs, pack and index checksums) goes through the functions
 * hexoid_pk_crypto() returns, and libcrypto is named nowhere else.
 *
 * SPDX-License-Identifier: MIT
 *
 * Who provides it is settled when a program is linked:
 *   - the library's own definition (crypto.c, alone in its object file) links libcrypto:
 *     a program that links libhexoid, shared or static, loads libcrypto with it, as it
 *     always has;
 *   - a program that must not load libcrypto before it hashes defines hexoid_pk_crypto()
 *     itself, in an object linked ahead of libhexoid.a; the archive's crypto.o is then
 *     never linked, and libcrypto need not be. The hexoid command does (cli/crypto.c): it
 *     opens libcrypto at its first hash, because loading it costs a process about 1.5 ms
 *     of relocations, more than checking a 20 MB listing, and most runs never hash.
 * A setter called at run time cannot do this: the default it replaces would still be
 * linked, and with it libcrypto, into every static program; and a weak reference to the
 * default would leave a static program that never calls the setter without hashes.
 *
 * The contract of a definition: return the functions, the same on every call, or NULL
 * with why they cannot be had in *why (a string that outlives the call). It is called
 * from any thread, concurrently, at any time: it must be thread-safe.
 */
#ifndef HEXOID_PACK_CRYPTO_H
#define HEXOID_PACK_CRYPTO_H

#include <stddef.h>
#include <openssl/evp.h>

struct hexoid_pk_crypto {
	const EVP_MD *(*sha1)(void);
	const EVP_MD *(*sha256)(void);
	EVP_MD_CTX *(*ctx_new)(void);
	void (*ctx_free)(EVP_MD_CTX *);
	int (*init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
	int (*update)(EVP_MD_CTX *, const void *, size_t);
	int (*final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
};

const struct hexoid_pk_crypto *hexoid_pk_crypto(const char **why);

#endif
