/* on: the current version for every program from the next login, on trial. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "lifecycle/lifecycle.h"
#include "lifecycle/login_reach.h"
#include "lifecycle/session_gl.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "common/storelayout.h"

struct on_opts {
	const char *gl; /* distro | native | zink, NULL: mesa.conf's session_gl */
};

/* What the session's GL programs get, after the sentence (docs/design.md §6). */
static void say_gl(struct strbuf *sb, const struct lc_result *r)
{
	if (r->gl == SESSION_GL_NATIVE && !r->gl_missing)
		sb_appendf(sb, ", its GL too");
	else if (r->gl == SESSION_GL_ZINK && !r->gl_missing)
		sb_appendf(sb, ", its GL too, on Zink");
	else if (r->gl_missing)
		sb_appendf(sb, " (mesa.conf's session_gl asks for GL %s, which Mesa %s does not carry: GL programs get the distribution's)",
			   session_gl_word(r->gl), r->version);
}

static int cmd_on(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	struct lc_result r;
	struct lc_ctx x = lc_ctx_of(c, s);
	x.gl = ((const struct on_opts *)opts)->gl;
	struct tb_error e = {0};
	if (lc_on(&x, &r, &e))
		return outcome_fail(o, &e);
	outcome_str(o, "version", r.version);
	outcome_str(o, "session_gl", r.gl_missing ? "distro" : session_gl_word(r.gl));
	if (r.unchanged) {
		say_already_on(o, s, r.version);
		say_repaired(o, &r);
		return TB_OK;
	}
	struct strbuf sb = {0}, no_login = {0};
	/* the switch is in the store, but nothing carries it into a login: said now, in the
	 * sentence status and doctor say too (login_reach_say) */
	int reads = !login_reach_say(s, &no_login);
	outcome_bool(o, "logins_read_store", reads);
	if (reads)
		sb_appendf(&sb, "Mesa %s is switched on for every program from the next login", r.version);
	else
		sb_appendf(&sb, "Mesa %s is switched on", r.version);
	say_gl(&sb, &r);
	if (!reads)
		sb_appendf(&sb, ", but %s", no_login.buf);
	sb_free(&no_login);
	if (r.trial)
		sb_appendf(&sb, "; it is on trial for %d starts until `tb323fu-ctl mesa keep`", r.max);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	say_repaired(o, &r);
	return TB_OK;
}

/* Already on, or no version installed to switch on: from the state, through the body's
 * own checks. */
static int on_answer(const struct store *s, const struct lc_view *v, const void *opts,
		     struct outcome *o)
{
	const char *gl = ((const struct on_opts *)opts)->gl;
	struct tb_error e = {0};
	if (!v->current && !v->foreign && lc_on_refusal(s, v, &e))
		return outcome_fail(o, &e), 1;
	/* --gl that changes the session's GL is a change (mesa.conf's session_gl is the body's) */
	if (!lc_is_on(s, v) || (gl && session_gl_parse(gl) != (int)v->st.gl))
		return 0;
	say_already_on(o, s, v->current);
	return 1;
}

static const char *const on_synonyms[] = {"enable", NULL};

static const struct cli_option on_options[] = {
	CLI_CHOICE("--gl", "native|zink|distro", "native|zink|distro", struct on_opts, gl,
		   "the session's GL too: the version's own, on Zink, or the distribution's (the default, "
		   "or mesa.conf's session_gl)"),
	CLI_END,
};

const struct cli_command on_command = {
	.name = "on",
	.args = "[--gl native|zink|distro]",
	.summary = "use the current version for every program from the next login (on trial)",
	.example = "tb323fu-ctl mesa on --gl zink",
	.options = on_options,
	.opts_size = sizeof(struct on_opts),
	.synonyms = on_synonyms,
	.open = OPEN_WRITER,
	.writes = 1,
	.answer = on_answer,
	.run = cmd_on,
};
