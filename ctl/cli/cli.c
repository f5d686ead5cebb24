/* Helpers shared by the commands: building the outcome. */
#include "cli/cli.h"
#include "store/running.h"
#include "store/manifest.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"

#include <stdint.h>
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
	o->reason = e->code ? e->reason : TB_R_FAILED;
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

int cli_usage(struct outcome *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	struct tb_error e = {0};
	tb_fail(&e, TB_R_USAGE, "%s", s);
	free(s);
	return outcome_fail(o, &e);
}

json_object *cli_drivers_array(const struct manifest *m)
{
	json_object *a = json_object_new_array();
	if (m && m->has_vulkan)
		json_object_array_add(a, json_object_new_string("vulkan"));
	if (m && m->has_opencl)
		json_object_array_add(a, json_object_new_string("opencl"));
	if (m && m->has_gl)
		json_object_array_add(a, json_object_new_string("gl"));
	return a;
}

const char *cli_drivers_text(const struct manifest *m)
{
	static const char *const texts[] = {"no drivers", "vulkan", "opencl", "vulkan, opencl",
					    "gl", "vulkan, gl", "opencl, gl", "vulkan, opencl, gl"};
	return m ? texts[(m->has_vulkan ? 1 : 0) | (m->has_opencl ? 2 : 0) | (m->has_gl ? 4 : 0)] : texts[0];
}

void cli_describe_version(struct outcome *o, const struct store *s, const char *version,
			  char *about, size_t n)
{
	struct manifest m = {0};
	struct tb_error ignored = {0};
	int have = store_load_manifest(s, version, &m, &ignored) == TB_OK;
	ensure_fields(o);
	outcome_str(o, "version", version);
	json_object_object_add(o->fields, "drivers", cli_drivers_array(have ? &m : NULL));
	outcome_str(o, "base", have ? m.base : "");
	outcome_str(o, "mesa_version", have ? m.mesa_version : "");
	if (have) {
		/* A commit hash is shortened as git does; any other name is kept whole. */
		const char *base = m.base ? m.base : "?";
		int is_hash = strlen(base) >= 12 && strspn(base, "0123456789abcdef") == strlen(base);
		snprintf(about, n, "%s, based on upstream %.*s", cli_drivers_text(&m), is_hash ? 7 : 64, base);
		manifest_free(&m);
	} else {
		snprintf(about, n, "unknown drivers");
	}
}

int cli_pin_version(struct cli *c, const struct store *s, const char *version, struct outcome *o)
{
	pin_take(s, version, c->name ? c->name : "", &c->pin);
	running_attach_reader(s->root); /* status shows it while no writer runs */
	if (store_has_version(s, version))
		return 0;
	struct tb_error e = {0};
	tb_fail(&e, TB_R_NOT_INSTALLED, "Mesa %s is not installed (`tb323fu-ctl mesa list` shows what is)", version);
	return outcome_fail(o, &e);
}

char *cli_pick_version(const struct store *s, const char *version, struct outcome *o)
{
	struct tb_error e = {0};
	char *chosen = version ? xstrdup(version) : store_current(s);
	if (!chosen)
		tb_fail(&e, TB_R_NOT_INSTALLED, "no Mesa version is installed (tb323fu-ctl mesa update)");
	else if (!store_has_version(s, chosen))
		tb_fail(&e, TB_R_NOT_INSTALLED,
			"Mesa %s is not installed (`tb323fu-ctl mesa list` shows what is)", chosen);
	if (e.code) {
		outcome_fail(o, &e);
		free(chosen);
		return NULL;
	}
	outcome_str(o, "version", chosen);
	return chosen;
}
