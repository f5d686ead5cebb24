/* libcrypto's functions this tool calls (SHA-256, BLAKE2b, Ed25519), loaded on the first
 * call (ctl/base/lazylib.h). Include after <openssl/evp.h>. */
#ifndef TB_LAZY_CRYPTO_H
#define TB_LAZY_CRYPTO_H

#include <openssl/evp.h>

#include "base/lazylib.h"

#define EVP_MD_CTX_new LAZY_CALL(lazy_libcrypto, EVP_MD_CTX_new)
#define EVP_MD_CTX_free LAZY_CALL(lazy_libcrypto, EVP_MD_CTX_free)
#define EVP_DigestInit_ex LAZY_CALL(lazy_libcrypto, EVP_DigestInit_ex)
#define EVP_DigestUpdate LAZY_CALL(lazy_libcrypto, EVP_DigestUpdate)
#define EVP_DigestFinal_ex LAZY_CALL(lazy_libcrypto, EVP_DigestFinal_ex)
#define EVP_DigestVerifyInit LAZY_CALL(lazy_libcrypto, EVP_DigestVerifyInit)
#define EVP_DigestVerify LAZY_CALL(lazy_libcrypto, EVP_DigestVerify)
#define EVP_DecodeBlock LAZY_CALL(lazy_libcrypto, EVP_DecodeBlock)
#define EVP_PKEY_new_raw_public_key LAZY_CALL(lazy_libcrypto, EVP_PKEY_new_raw_public_key)
#define EVP_PKEY_free LAZY_CALL(lazy_libcrypto, EVP_PKEY_free)
#define EVP_sha256 LAZY_CALL(lazy_libcrypto, EVP_sha256)
#define EVP_blake2b512 LAZY_CALL(lazy_libcrypto, EVP_blake2b512)

#endif
