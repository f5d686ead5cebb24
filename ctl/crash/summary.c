/* The crash evidence's words for the other commands (crash/summary.h). */
#include "crash/summary.h"
#include "crash/policy.h"
#include "crash/record.h"
#include "apprules/desktop_programs.h"
#include "apprules/rules.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "common/secure_exec.h"

#include <stdlib.h>
#include <string.h>

json_object *crash_after(const struct lc_ctx *c, int boot_tick, struct strbuf *said)
{
	struct crash_apply_result r;
	struct tb_error e = {0};
	json_object *j = json_object_new_object();
	if (crash_apply(c, boot_tick, &r, &e)) {
		/* the command's own work goes on; the evidence waits for the next run */
		json_object_object_add(j, "error", json_object_new_string(e.msg));
		sb_appendf(said, "crash evidence was not read: %s\n", e.msg);
	} else {
		json_object_object_add(j, "events", json_object_get(r.events));
		json_object_object_add(j, "pins", json_object_get(r.pins));
		json_object_object_add(j, "rolled_back", json_object_new_string(r.rolled_back));
		json_object_object_add(j, "rolled_back_reason",
				       json_object_new_string(r.rolled_back[0] ? CRASH_ROLLBACK_REASON : ""));
		json_object_object_add(j, "kept", json_object_new_string(r.kept));
		if (r.said.len)
			sb_append(said, r.said.buf);
	}
	crash_apply_result_free(&r);
	return j;
}

void crash_summary(const struct store *s, json_object *obj, struct strbuf *lines)
{
	json_object *rec = crash_record_load(s, NULL);
	json_object *events = crash_record_member(rec, "events", json_type_array);
	json_object *pins = crash_record_member(rec, "auto_pins", json_type_array);
	struct app_scope sc;
	app_scope_system(&sc, s);
	struct app_rules rules = {0};
	struct tb_error e = {0};
	apprules_load(&sc, &rules, &e);
	tb_error_clear(&e);
	json_object *live = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(pins); i++) {
		json_object *p = json_object_array_get_idx(pins, i);
		const struct app_rule *rule = apprules_find(&rules, crash_record_str(p, "app"));
		/* `app unset` took it away: no longer a pin */
		if (!rule || strcmp(rule->choice, crash_record_str(p, "choice")))
			continue;
		json_object_array_add(live, json_object_get(p));
		const char *ch = crash_record_str(p, "choice");
		char *app = term_text(crash_record_str(p, "app"), 0);
		sb_appendf(lines, "%s is pinned to %s%s after it crashed on Mesa %s (automatic; `tb323fu-ctl mesa app unset %s` undoes it)\n",
			   app, strcmp(ch, "distro") ? "Mesa " : "the distribution's Mesa", strcmp(ch, "distro") ? ch : "",
			   crash_record_str(p, "version"), app);
		free(app);
	}
	size_t n = json_object_array_length(events);
	if (n)
		sb_appendf(lines, "%zu crash%s of programs on the store's driver recorded, the last on Mesa %s (tb323fu-ctl mesa crashes)\n",
			   n, n == 1 ? "" : "es", crash_record_str(json_object_array_get_idx(events, n - 1), "version"));
	if (*crash_record_str(rec, "rolled_back"))
		sb_appendf(lines, "the trial of Mesa %s was ended by crashes of two applications or more\n",
			   crash_record_str(rec, "rolled_back"));
	if (obj) {
		json_object_object_add(obj, "events", json_object_new_int64((int64_t)n));
		json_object_object_add(obj, "auto_pins", live);
		json_object_object_add(obj, "rolled_back", json_object_new_string(crash_record_str(rec, "rolled_back")));
	} else {
		json_object_put(live);
	}
	apprules_free(&rules);
	app_scope_free(&sc);
	json_object_put(rec);
}

void crash_secure_programs(const struct store *s, json_object *arr, struct strbuf *lines)
{
	struct app_scope sc;
	app_scope_system(&sc, s);
	struct desktop_programs d;
	desktop_programs_scan(&sc, &d);
	for (size_t i = 0; i < d.n; i++) {
		int why = d.v[i].program ? secure_exec_file(d.v[i].program, 0) : 0;
		if (!why)
			continue;
		const char *way = (why & SECURE_CAPS)
					  ? "start what it runs through the launcher (for gamescope: `gamescope -- tb323fu-mesa run GAME`), or take the capability away (`setcap -r`) for it to be switched"
					  : "start what it runs through the launcher; it cannot be switched itself";
		char *id = term_text(d.v[i].id, 0), *prog = term_text(d.v[i].program, 0);
		sb_appendf(lines, "%s (%s) has %s: the loaders ignore the store's variables in it (it gets the distribution's Mesa); %s\n",
			   id, prog, secure_exec_words(why), way);
		free(id);
		free(prog);
		json_object *o = json_object_new_object();
		json_object_object_add(o, "app", json_object_new_string(d.v[i].id));
		json_object_object_add(o, "program", json_object_new_string(d.v[i].program));
		json_object_object_add(o, "why", json_object_new_string(secure_exec_words(why)));
		json_object_object_add(o, "way", json_object_new_string(way));
		json_object_array_add(arr, o);
	}
	desktop_programs_free(&d);
	app_scope_free(&sc);
}
