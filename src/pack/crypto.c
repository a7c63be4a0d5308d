/*
 * libcrypto's digest functions, linked (see hexoid_pk_crypto in common.h: the hexoid command
 * takes cli/crypto.c instead, which opens libcrypto at the first hash).
 *
 * SPDX-License-Identifier: MIT
 */
#include "common.h"

const struct hexoid_pk_crypto *hexoid_pk_crypto(const char **why)
{
	static const struct hexoid_pk_crypto linked = {
		EVP_sha1, EVP_sha256, EVP_MD_CTX_new, EVP_MD_CTX_free,
		EVP_DigestInit_ex, EVP_DigestUpdate, EVP_DigestFinal_ex,
	};
	(void)why;
	return &linked;
}
