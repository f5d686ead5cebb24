/* list: the installed versions, newest first, with what each is (current, previous, on,
 * on trial, pinned, marked), then the versions the store remembers. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "cmd/marks_say.h"
#include "ops/lifecycle.h"
#include "apprules/pinning.h"
#include "store/manifest.h"
#include "store/state.h"
#include "trial/bench.h"
#include "trial/smoke_run.h"
#include "trial/suite.h"
#include "base/error.h"
#include "base/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_list(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	size_t n;
	char **list = store_versions(s, &n);
	char *cur = store_current(s), *prev = store_previous(s);
	struct state st;
	state_load(s, &st); /* a damaged one reads as off: the markers only */
	struct marks marks;
	marks_load(s, &marks);
	json_object *arr = json_object_new_array();
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++) {
		const char *v = list[i];
		struct manifest m;
		struct tb_error ignored = {0};
		int have_m = store_load_manifest(s, v, &m, &ignored) == TB_OK;
		int is_cur = cur && !strcmp(v, cur), is_prev = prev && !strcmp(v, prev);
		uint64_t bytes = store_version_bytes(s, v);
		const char *smoke = smoke_last_result(s, v);
		json_object *item = json_object_new_object();
		json_object_object_add(item, "version", json_object_new_string(v));
		json_object_object_add(item, "current", json_object_new_boolean(is_cur));
		json_object_object_add(item, "previous", json_object_new_boolean(is_prev));
		json_object_object_add(item, "drivers", cli_drivers_array(have_m ? &m : NULL));
		json_object_object_add(item, "mesa_version", json_object_new_string(have_m && m.mesa_version ? m.mesa_version : ""));
		json_object_object_add(item, "bytes", json_object_new_int64((int64_t)bytes));
		json_object_object_add(item, "smoke", json_object_new_string(smoke));
		const char *suite = suite_last_result(s, v);
		json_object_object_add(item, "suite", json_object_new_string(suite));
		json_object_object_add(item, "bench", bench_summary(s, v));
		const struct mark *k = marks_find(&marks, v);
		json_object_object_add(item, "marked", json_object_new_string(k ? k->reason : ""));
		json_object_array_add(arr, item);
		/* what the version is, in status's words: current (on, on trial), previous, pinned */
		char *pin = apprules_pinning(s, v);
		char role[64];
		snprintf(role, sizeof role, "%s%s%s%s", is_cur ? "current" : is_prev ? "previous" : "-",
			 is_cur && st.enabled ? (st.trial && !strcmp(st.trial, v) ? ", on trial" : ", on") : "",
			 pin ? ", pinned" : "", k ? ", marked" : "");
		free(pin);
		if (!i)
			sb_appendf(&sb, "%-16s %-20s %-19s %-24s %10s  %-5s  %s\n", "VERSION", "USE", "DRIVERS",
				   "MESA", "SIZE", "SMOKE", "SUITE");
		sb_appendf(&sb, "%s%-16s %-20s %-19s %-24s %6.1f MiB  %-5s  %s", i ? "\n" : "", v, role,
			   cli_drivers_text(have_m ? &m : NULL), have_m && m.mesa_version ? m.mesa_version : "",
			   (double)bytes / 1048576.0, smoke, suite);
		if (have_m)
			manifest_free(&m);
	}
	if (!n)
		sb_append(&sb, "no Mesa version installed (tb323fu-ctl mesa update)");
	/* every mark, of an installed version or not (a refused release never was) */
	marks_say(&sb, "\n", &marks);
	o->fields = json_object_new_object();
	json_object_object_add(o->fields, "versions", arr);
	json_object_object_add(o->fields, "marked", marks_json(&marks));
	marks_free(&marks);
	o->fields_only = 1;
	outcome_say(o, "%s", sb.buf);
	sb_free(&sb);
	free(cur);
	free(prev);
	state_free(&st);
	store_free_list(list, n);
	return TB_OK;
}

static const char *const list_synonyms[] = {"ls", NULL};

const struct cli_command list_command = {
	.name = "list",
	.args = "",
	.summary = "installed versions, newest first",
	.example = "tb323fu-ctl mesa list",
	.synonyms = list_synonyms,
	.open = OPEN_READER,
	.run = cmd_list,
};
