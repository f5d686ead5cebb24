/* What check, download, update and auto-check share: the store (open for writing) with a
 * fresh release list, and the answers of check and download. */
#ifndef TB_REMOTE_H
#define TB_REMOTE_H

#include "cli/cli.h"
#include "release/feed.h"
#include "store/marks.h"

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

/* A version the store remembers (docs/design.md §12), skipped by update, check, auto-check
 * and download without a version: o gets "skipped" (the version) and "skipped_reason" (its
 * mark's reason id), and the sentence says why, what stays, and the two ways on. */
struct mark;
void say_skipped(struct outcome *o, const struct mark *k, const char *current);
#endif
