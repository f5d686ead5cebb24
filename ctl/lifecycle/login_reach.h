/* Whether logins read a store's switch: the environment.d link of ours (or our second name
 * beside the Open Device Helper's, docs/design.md §13) must lead to the store's env.conf.
 * `on` says so when they do not, and doctor counts it as a problem while switched on. */
#ifndef TB_LOGIN_REACH_H
#define TB_LOGIN_REACH_H

#include "store/store.h"

enum login_reach {
	LOGIN_READS,     /* the link leads to this store's env.conf */
	LOGIN_NO_LINK,   /* no link of ours is there */
	LOGIN_ELSEWHERE, /* the link leads somewhere else (another store's env.conf, nothing) */
};

/* *link gets the link found, or the one that would be there (static text). */
enum login_reach login_reach(const struct store *s, const char **link);

/* The one sentence on, status and doctor say of a store no login reads (docs/design.md,
 * Glossary: on): "no login reads the store S (LINK is missing), so programs keep the
 * distribution's Mesa; …". Appends it to sb and returns 1 when no login reads s; 0 (nothing
 * appended) when logins read it. */
struct strbuf;
int login_reach_say(const struct store *s, struct strbuf *sb);

#endif
