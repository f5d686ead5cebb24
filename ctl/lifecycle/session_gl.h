/* What the session's GL programs get (docs/design.md §6): the distribution's GL unless `on
 * --gl` or mesa.conf's session_gl gave them the current version's, natively or on Zink. */
#ifndef TB_SESSION_GL_H
#define TB_SESSION_GL_H

#include "lifecycle/lifecycle.h"
#include "store/state.h"
#include "base/strbuf.h"

struct session_gl_view {
	enum session_gl asked; /* what `on` gave the session (the state's gl) */
	enum session_gl gets;  /* what GL programs of the next login get */
	int has_gl, has_zink;  /* current carries GL, GL on Zink */
};

/* From the state and current's GL files (env/current.gl, env/current.zink). */
void session_gl_read(const struct store *s, const struct lc_view *v, struct session_gl_view *g);
/* Whether current carries mode (DISTRO: always). */
int session_gl_available(const struct store *s, enum session_gl mode);
/* One line, no newline, for status and doctor. logins_read: a login reads this store (the
 * session files name it); when none does, the session gets nothing of it, GL included. */
void session_gl_say(const struct session_gl_view *g, const struct lc_view *v, int logins_read,
		    struct strbuf *sb);

#endif
