/*
 * The library's definition of the digest hook (crypto.h): libcrypto's functions, linked.
 * Alone in its file, so that a program defining its own never links this one.
 *
 * SPDX-License-Identifier: MIT
 */
#include "crypto.h"

const struct hexoid_pk_crypto *hexoid_pk_crypto(const char **why)
{
	static const struct hexoid_pk_crypto linked = {
		EVP_sha1, EVP_sha256, EVP_MD_CTX_new, EVP_MD_CTX_free,
		EVP_DigestInit_ex, EVP_DigestUpdate, EVP_DigestFinal_ex,
	};
	(void)why;
	return &linked;
}
