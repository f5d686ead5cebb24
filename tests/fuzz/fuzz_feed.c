/* The release list parser over arbitrary bytes (it comes from the network). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "release/feed.h"
#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct feed f;
	struct tb_error e = {0};
	if (feed_parse((const char *)data, size, "x86_64", &f, &e) != TB_OK)
		return 0;
	const struct feed_release *r = feed_newest(&f, "testing");
	if (r && feed_find(&f, r->version) != r)
		__builtin_trap();
	feed_newest(&f, "stable");
	for (size_t i = 0; i < f.n; i++)
		if (strncmp(f.releases[i].tag, "mesa-", 5) || !f.releases[i].tarball.name ||
		    !f.releases[i].sums.name || !f.releases[i].tarball.size)
			__builtin_trap();
	feed_free(&f);
	return 0;
}
