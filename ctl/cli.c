/* Helpers shared by the commands: building the outcome, opening the store. */
#include "cli.h"
#include "running.h"
#include "takeover.h"
#include "smoke_run.h"
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ensure_fields(struct outcome *o)
{
	if (!o->fields)
		o->fields = json_object_new_object();
}

void outcome_say(struct outcome *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	free(o->message);
	o->message = s;
}

int outcome_fail(struct outcome *o, const struct tb_error *e)
{
	o->code = e->code ? e->code : TB_EFAIL;
	free(o->message);
	o->message = xstrdup(e->msg[0] ? e->msg : "failed");
	o->reason = e->code ? tb_error_reason(e) : "failed";
	return o->code;
}

void outcome_str(struct outcome *o, const char *key, const char *value)
{
	ensure_fields(o);
	json_object_object_add(o->fields, key, json_object_new_string(value ? value : ""));
}

void outcome_int(struct outcome *o, const char *key, int64_t value)
{
	ensure_fields(o);
	json_object_object_add(o->fields, key, json_object_new_int64(value));
}

void outcome_bool(struct outcome *o, const char *key, int value)
{
	ensure_fields(o);
	json_object_object_add(o->fields, key, json_object_new_boolean(value));
}

void outcome_installed(struct outcome *o, const struct store *s, const char *version,
		       const struct smoke_outcome *smoke)
{
	struct state st;
	state_load(s, &st);
	outcome_str(o, "version", version);
	outcome_bool(o, "smoke", smoke != NULL);
	if (smoke) {
		outcome_int(o, "smoke_passed", smoke->passed);
		outcome_int(o, "smoke_skipped", smoke->skipped);
	}
	struct strbuf sb = {0};
	if (smoke)
		sb_appendf(&sb, "Mesa %s passed its smoke tests (%d passed, %d skipped)\n", version,
			   smoke->passed, smoke->skipped);
	/* current/ is what the ICD and session files point through: new programs see it at once */
	if (st.enabled)
		sb_appendf(&sb, "Mesa %s installed; new programs use it now, on trial until `tb323fu-ctl mesa keep`", version);
	else
		sb_appendf(&sb, "Mesa %s installed; switch it on with `tb323fu-ctl mesa on`", version);
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	state_free(&st);
}

int cli_open_store(struct cli *c, struct store *s, int writer, struct tb_error *e)
{
	int rc = store_open(s, c->store_dir, writer, e);
	if (!rc && writer)
		rc = store_lock(s, c->wait, e);
	if (!rc && writer)
		running_attach(s->root);
	/* A store the helper made gets our files before anything else (docs/design.md §13). */
	int completed;
	if (!rc && writer && takeover_needed(s))
		rc = takeover_run(s, &completed, e);
	if (rc)
		store_close(s); /* callers return at once on failure */
	return rc;
}
