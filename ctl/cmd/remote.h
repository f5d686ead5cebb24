/* What check, download, update and auto-check share: the store (open for writing) with a
 * fresh release list, and the answers of check and download. */
#ifndef TB_CMD_REMOTE_H
#define TB_CMD_REMOTE_H

#include "cli/cli.h"
#include "release/feed.h"

struct remote {
	struct store *s;
	struct feed feed;
	int from_cache;
};

/* peek: the release list is fetched, the store's cache only read (update --dry-run). */
int remote_open(struct cli *c, struct store *s, struct remote *rs, int peek, struct tb_error *e);
void remote_end(struct remote *rs);

/* A version already in the store is fetched again only when it is damaged. */
int present_and_whole(struct store *s, const char *version);

/* check's answer: what the channel offers against what is installed. */
int check_and_say(struct cli *c, struct store *s, struct outcome *o);
/* download's: want (NULL: the channel's newest) fetched, verified and unpacked. */
int download_and_say(struct cli *c, struct store *s, const char *want, struct outcome *o);

#endif
