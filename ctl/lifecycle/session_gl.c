/* The session's GL: what `on` gave it and what its GL programs get (docs/design.md §6). */
#include "lifecycle/session_gl.h"
#include "base/alloc.h"
#include "common/storelayout.h"

#include <stdlib.h>
#include <unistd.h>

static int exists(const struct store *s, const char *rel)
{
	char *p = store_path(s, "%s", rel);
	int yes = access(p, F_OK) == 0;
	free(p);
	return yes;
}

int session_gl_available(const struct store *s, enum session_gl mode)
{
	switch (mode) {
	case SESSION_GL_NATIVE: return exists(s, STORE_CURRENT_GL_ENV);
	case SESSION_GL_ZINK: return exists(s, STORE_CURRENT_ZINK_ENV);
	case SESSION_GL_DISTRO: break;
	}
	return 1;
}

void session_gl_read(const struct store *s, const struct lc_view *v, struct session_gl_view *g)
{
	g->asked = v->st.enabled ? v->st.gl : SESSION_GL_DISTRO;
	g->has_gl = v->current && session_gl_available(s, SESSION_GL_NATIVE);
	g->has_zink = v->current && session_gl_available(s, SESSION_GL_ZINK);
	int there = g->asked == SESSION_GL_NATIVE ? g->has_gl : g->asked == SESSION_GL_ZINK ? g->has_zink : 0;
	g->gets = v->current && there ? g->asked : SESSION_GL_DISTRO;
}

void session_gl_say(const struct session_gl_view *g, const struct lc_view *v, int logins_read,
		    struct strbuf *sb)
{
	const char *cur = v->current ? v->current : "";
	if (!logins_read && v->st.enabled && g->gets != SESSION_GL_DISTRO)
		sb_appendf(sb, "GL: the session asks for Mesa %s's GL%s, but as no login reads this store its programs get the distribution's GL",
			   cur, g->gets == SESSION_GL_ZINK ? " on Zink" : "");
	else if (g->gets == SESSION_GL_NATIVE)
		sb_appendf(sb, "GL: the session's programs get Mesa %s's own GL from the next login", cur);
	else if (g->gets == SESSION_GL_ZINK)
		sb_appendf(sb, "GL: the session's programs get Mesa %s's GL on Zink, over its Vulkan driver, from the next login", cur);
	else if (g->asked != SESSION_GL_DISTRO)
		sb_appendf(sb, "GL: the session asks for GL %s but Mesa %s carries none, so programs get the distribution's GL",
			   session_gl_word(g->asked), cur);
	else if (!v->current || !g->has_gl)
		sb_appendf(sb, "GL: programs get the distribution's GL%s%s%s", v->current ? " (Mesa " : "",
			   cur, v->current ? " carries none)" : "");
	else if (!v->st.enabled || !logins_read) /* off, or on for no login: on --gl would give none */
		sb_appendf(sb, "GL: programs get the distribution's GL; `tb323fu-mesa run` gives one Mesa %s's", cur);
	else
		sb_appendf(sb, "GL: programs get the distribution's GL (`on` leaves the session's GL alone; "
			       "`tb323fu-ctl mesa on --gl native`%s gives them Mesa %s's from the next login)",
			   g->has_zink ? " or `--gl zink`" : "", cur);
}
