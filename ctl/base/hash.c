#include "base/hash.h"
#include "base/alloc.h"
#include "base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include "base/lazy_crypto.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sha256_stream {
	EVP_MD_CTX *ctx;
};

struct sha256_stream *sha256_begin(void)
{
	struct sha256_stream *h = xmalloc(sizeof *h);
	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1)
		abort();
	return h;
}

void sha256_add(struct sha256_stream *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

void sha256_end(struct sha256_stream *h, char hex[SHA256_HEX_LEN + 1])
{
	unsigned char md[32];
	unsigned int n = 0;
	EVP_DigestFinal_ex(h->ctx, md, &n);
	hex_encode(md, 32, hex);
	EVP_MD_CTX_free(h->ctx);
	free(h);
}

int sha256_file(const char *path, char hex[SHA256_HEX_LEN + 1], unsigned long long *size_out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct sha256_stream *h = sha256_begin();
	unsigned long long total = 0;
	static __thread unsigned char buf[1 << 16];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;
			sha256_end(h, hex);
			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		sha256_add(h, buf, (size_t)n);
		total += (unsigned long long)n;
	}
	close(fd);
	sha256_end(h, hex);
	if (size_out)
		*size_out = total;
	return 0;
}

int is_sha256_hex(const char *s)
{
	size_t i;
	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return i == SHA256_HEX_LEN;
}
