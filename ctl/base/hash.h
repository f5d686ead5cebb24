/* Streaming SHA-256 over OpenSSL's EVP interface. */
#ifndef TB_HASH_H
#define TB_HASH_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

struct sha256_stream;

struct sha256_stream *sha256_begin(void);
void sha256_add(struct sha256_stream *h, const void *data, size_t len);
/* Writes 64 hex digits + NUL into hex and frees h. */
void sha256_end(struct sha256_stream *h, char hex[SHA256_HEX_LEN + 1]);
/* Hashes a whole file by streaming it; -1 with errno on failure. */
int sha256_file(const char *path, char hex[SHA256_HEX_LEN + 1], unsigned long long *size_out);
/* True when s is exactly 64 lowercase hex digits. */
int is_sha256_hex(const char *s);

#endif
