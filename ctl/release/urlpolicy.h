/* The URL policy of every transfer (docs/design.md §5): https (verified), http only to this
 * machine, file:// only inside a file:// mirror; redirects never downgrade, and the token goes
 * only to api_url's origin. fetch.c asks these before each hop. */
#ifndef TB_URLPOLICY_H
#define TB_URLPOLICY_H

#include <stddef.h>

#include "base/config.h"
#include "base/error.h"

/* TB_ENET with a sentence when url may not be fetched. */
int fetch_url_allowed(const char *url, struct tb_error *e);
/* True when host is 127.0.0.0/8, ::1 or localhost. */
int host_is_loopback(const char *host);
/* Same scheme, host and port: the token may go there. */
int url_same_origin(const char *a, const char *b);
int url_is_file(const char *url);
/* A redirect from `from` to `to` that leaves https or reaches local files from the network. */
int url_redirect_downgrades(const char *from, const char *to);
/* The path of a file:// URL (percent-decoded, allocated), or NULL. */
char *url_file_path(const char *url);
/* TB_OK when the file:// url names a regular file inside cfg->api_url's mirror directory;
 * else TB_ENET ("network") with a sentence about `what`. */
int url_local_file_allowed(const struct config *cfg, const char *url, const char *what,
			   struct tb_error *e);
/* The host of url for sentences ("api.github.com", "the local mirror"). */
void url_host_for_sentence(const char *url, char *out, size_t n);

#endif
