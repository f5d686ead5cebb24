/* The Open Device Helper's settings file (/etc/tb323fu/helper.toml): only the [kernel] keys
 * that are also ours (docs/design.md §5), read as TOML by helper_toml_reader.cpp. Anything
 * else in the file is the helper's business. A file that is there but cannot be read fails
 * closed: signatures are required and the problem is kept for the command line to say. */
#include "helper/helper_toml.h"
#include "helper/helper_toml_reader.h"
#include "base/alloc.h"
#include "base/fs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void take(struct config *c, struct helper_kernel *k)
{
	if (k->channel && !(c->set_here & CONFIG_SET_CHANNEL)) {
		free(c->channel);
		c->channel = k->channel;
		k->channel = NULL;
	}
	if (k->require_signature >= 0 && !(c->set_here & CONFIG_SET_SIGNATURE))
		c->require_signature = k->require_signature;
	if (!(c->set_here & CONFIG_SET_KEYS)) {
		for (int i = 0; i < k->n_public_keys && c->n_public_keys < CONFIG_MAX_KEYS; i++) {
			c->public_keys[c->n_public_keys++] = k->public_keys[i];
			k->public_keys[i] = NULL;
		}
	}
}

static void refuse(struct config *c, char *problem)
{
	if (!(c->set_here & CONFIG_SET_SIGNATURE))
		c->require_signature = 1;
	free(c->helper_problem);
	c->helper_problem = problem;
}

void config_apply_helper_toml(struct config *c, const char *path)
{
	size_t len = 0;
	char *text = read_small_file(path, CONFIG_MAX_BYTES, &len);
	if (!text) {
		/* Not installed: nothing of the helper's applies. */
		if (errno == ENOENT || errno == ENOTDIR)
			return;
		refuse(c, xasprintf("%s cannot be read (%s); signatures are required until it can",
				    path, errno == E2BIG ? "larger than 1 MiB" : strerror(errno)));
		return;
	}
	struct helper_kernel k;
	if (helper_kernel_read(text, len, path, &k)) {
		refuse(c, k.problem ? k.problem
				    : xasprintf("%s cannot be read (out of memory); signatures are required", path));
		k.problem = NULL;
	} else {
		take(c, &k);
	}
	helper_kernel_free(&k);
	free(text);
}
