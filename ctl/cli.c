/* Helpers shared by the commands: building the outcome, opening the store. */
#include "cli.h"

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

int cli_open_store(struct cli *c, struct store *s, int writer, struct tb_error *e)
{
	int rc = store_open(s, c->store_dir, writer, e);
	if (!rc && writer)
		rc = store_lock(s, c->wait, e);
	if (rc)
		store_close(s); /* callers return at once on failure */
	return rc;
}
